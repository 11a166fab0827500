/// Runs `body` for every element with at most `width` running at once and returns the results in the
/// elements' order.
///
/// The first error thrown cancels the remaining work and is rethrown; callers that want to go on after a
/// failure return it as a value instead.
func concurrentMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], width: Int, _ body: @escaping @Sendable (Element) async throws -> Result
) async throws -> [Result] {
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: elements.count)
        var next = 0
        func startNext() {
            guard next < elements.count else { return }
            let index = next
            let element = elements[index]
            group.addTask { (index, try await body(element)) }
            next += 1
        }
        for _ in 0..<max(1, width) { startNext() }
        while let (index, result) = try await group.next() {
            results[index] = result
            startNext()
        }
        return results.compactMap { $0 }
    }
}

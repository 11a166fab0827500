/// A DevTools event too large to read (``DevToolsConnection/maximumEventBytes``), skipped as it streams
/// in: only its first bytes (method, the start of its params) and last bytes (the `sessionId`, which
/// Chromium writes last) are kept.
struct SkippedEvent {
    /// How many bytes of its head and tail are kept.
    static let keptBytes = 4096

    /// Its first bytes.
    let head: [UInt8]
    private var tail: [UInt8]
    /// Its size so far.
    private(set) var bytes: Int

    /// Starts skipping an event whose first bytes are `start`.
    init(_ start: [UInt8]) {
        head = Array(start.prefix(Self.keptBytes))
        tail = Array(start.suffix(Self.keptBytes))
        bytes = start.count
    }

    /// Skips `more` bytes of it.
    mutating func add(_ more: some Collection<UInt8>) {
        bytes += more.count
        tail.append(contentsOf: more.suffix(Self.keptBytes))
        if tail.count > 2 * Self.keptBytes { tail.removeFirst(tail.count - Self.keptBytes) }
    }

    /// The event's method (`""` when its head does not say): the first string member, as Chromium writes it.
    var method: String { Self.string(after: #"{"method":""#, in: head, last: false) ?? "" }

    /// The session it belongs to (`""`: the browser): the last member, as Chromium writes it.
    var session: String { Self.string(after: #","sessionId":""#, in: tail, last: true) ?? "" }

    /// The plain string that follows the first (or last) `key` in `bytes`, up to the next quote.
    private static func string(after key: String, in bytes: [UInt8], last: Bool) -> String? {
        let marker = Array(key.utf8)
        guard bytes.count >= marker.count else { return nil }
        let starts = Array(0...(bytes.count - marker.count))
        guard
            let found = (last ? starts.reversed() : starts).first(where: {
                bytes[$0..<$0 + marker.count].elementsEqual(marker)
            })
        else { return nil }
        let rest = bytes[(found + marker.count)...]
        guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: rest[..<quote], as: UTF8.self)
    }
}

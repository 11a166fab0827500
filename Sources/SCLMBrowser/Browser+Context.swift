import SCLMCore

/// Browser contexts: storage of their own.
extension Browser {
    /// Runs `body` with a fresh browser context — its own storage, cookies and cache, like a separate
    /// incognito profile — and disposes of it (closing its pages) afterwards, even when cancelled.
    ///
    /// - Throws: ``BrowserError`` when the context cannot be made; what `body` throws.
    package func withContext<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (_ context: String) async throws -> T
    ) async throws -> T {
        let created = try await connection.call("Target.createBrowserContext", ["disposeOnDetach": true])
        guard let context = created["browserContextId"]?.stringValue else {
            throw BrowserError(.protocolError, "Target.createBrowserContext returned no browserContextId")
        }
        let dispose = { [connection] in
            await withCancellationShield {
                _ = try? await connection.call(
                    "Target.disposeBrowserContext", ["browserContextId": .string(context)], deadline: .seconds(10))
            }
        }
        do {
            let result = try await body(context)
            await dispose()
            return result
        } catch {
            await dispose()
            throw error
        }
    }
}

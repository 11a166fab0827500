import Foundation
import SCLMCore

/// How a browser's run ends: with kept storage, cleanly, so what pages stored reaches the disk.
extension Browser {
    /// How long a browser asked to close may take before it is killed.
    static let closingTime: Duration = .seconds(5)

    /// Ends the browser of `process` (profile `profile`): with ``BrowserOptions/keptStorage`` it is asked
    /// to close (`Browser.close`) and given ``closingTime``, then killed, and its storage saved; without,
    /// it is killed at once. Runs to its end even when the caller is cancelled.
    func end(_ process: BrowserProcess, profile: String, logger: Logger) async {
        guard let kept = options.keptStorage else { return await process.kill(stopping: connection) }
        await withCancellationShield { [self] in
            connection.send("Browser.close")
            let deadline = ContinuousClock.now + Self.closingTime
            while !isClosed, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            await process.kill(stopping: connection)
            do {
                try KeptStorage.save(from: profile, to: kept)
            } catch {
                logger.warning("cannot keep the browser's storage in \(kept): \(error.userMessage)")
            }
        }
    }
}

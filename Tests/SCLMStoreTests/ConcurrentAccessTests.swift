import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// Two processes on one database: the second writer waits for the first instead of failing.
@Suite(.tags(.medium)) struct ConcurrentAccessTests {
    /// Starts a Python process that holds a write transaction on `path` for `seconds`, and returns once
    /// it holds the lock.
    private func holdWriteLock(on path: String, seconds: Double) throws -> Process {
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN IMMEDIATE")
            c.execute("INSERT INTO clients(clientId, name) VALUES (1, 'from python')")
            print("locked", flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute("COMMIT")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, String(seconds)]
        let output = try SpawnLock.withLock {
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return output
        }
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).contains("locked"))
        return process
    }

    @Test func aSecondWriterWaitsForTheBusyTimeoutInsteadOfFailing() async throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("sclm.db")
        let store = try ContentStore(path: path)
        let holder = try holdWriteLock(on: path, seconds: 1.0)
        defer { holder.waitWithoutSpinning() }
        try await store.write { db in try db.execute("INSERT INTO clients(clientId, name) VALUES (2, 'from sclm')") }
        let names = try await store.read { db in
            try db.fetchAll("SELECT name FROM clients ORDER BY clientId").compactMap { $0.string("name") }
        }
        #expect(names == ["from python", "from sclm"])
    }

    @Test func withoutABusyTimeoutTheSameWriteFailsAsTemporary() throws {
        let folder = TemporaryDirectory()
        let path = folder.appending("sclm.db")
        _ = try ContentStore(path: path)
        let impatient = try Database(path: path, busyTimeout: 0)
        let holder = try holdWriteLock(on: path, seconds: 1.0)
        defer { holder.waitWithoutSpinning() }
        let error = try #require(throws: StoreError.self) {
            try impatient.write { db in try db.execute("INSERT INTO clients(clientId) VALUES (3)") }
        }
        #expect(error.resultCode?.primary == .busy)
        #expect(error.category == .temporary)
    }

    @Test func cancellingATaskInterruptsItsQueryAndRollsBack() async throws {
        let folder = TemporaryDirectory()
        let store = try ContentStore(path: folder.appending("sclm.db"))
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            try await store.write { db in
                try db.execute("INSERT INTO clients(clientId) VALUES (1)")
                signal.yield()
                // An endless recursive query that only an interrupt stops.
                _ = try db.fetchOne(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
            }
        }
        for await _ in started { break }  // the body has written its row and goes on to the endless query
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await store.read { db in try db.fetchCount("SELECT count(*) FROM clients") } == 0)
    }
}

import Foundation
import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a server does when its run ends: nothing is dispatched after `run` returns, cancelled work has
/// ended by then, and a page-like session runs on in-process frames and lines.
@Suite(.tags(.medium), .timeLimit(.minutes(2))) struct BridgeServerLifetimeTests {
    /// Counts `probe` notifications (answered immediately) and cancels the run at the `cancelAt`th.
    final class Probe: BridgeModule {
        let name = "Probe"
        let commands: [BridgeCommand] = ["probe"]
        let count = Atomic(0)
        let cancelAt: Int
        let run = Mutex<Task<Void, Never>?>(nil)

        init(cancelAt: Int) { self.cancelAt = cancelAt }

        func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply { .ok() }

        func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply? {
            if count.add(1, ordering: .relaxed).newValue == cancelAt { run.withLock { $0 }?.cancel() }
            return .ok()
        }
    }

    static func quietLogger() -> Logger { Logger(minimumLevel: .error) { _ in } }

    @Test func cancellingRunMidFloodDispatchesNothingMoreAndLeavesTheRestUnread() async throws {
        let probe = Probe(cancelAt: 100)
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        let server = BridgeServer(
            registry: try ModuleRegistry([probe]), output: BridgeOutput(fileDescriptor: null),
            logger: Self.quietLogger())
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let run = Task { await server.run(from: DescriptorFrames(readEnd)) }
        probe.run.withLock { $0 = run }
        let lines = 5000
        let writer = ReaderThread.start(name: "test-flood") { [write = writeEnd] in
            let line = Array(#"{"Command":"probe"}"#.utf8) + [0x0A]
            for _ in 0..<lines { _ = line.withUnsafeBytes { FileSystem.writeAll(write, $0) } }
            close(write)
        }
        await run.value
        #expect(probe.count.load(ordering: .relaxed) == 100)
        // The server's reader was joined: what it did not take stays in the pipe, for this test to read.
        let left = Atomic(0)
        await ReaderThread.start(name: "test-drain") { [read = readEnd] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while case let count = buffer.withUnsafeMutableBytes({ Glibc.read(read, $0.baseAddress, $0.count) }),
                count > 0
            {
                left.add(buffer[0..<count].count { $0 == 0x0A }, ordering: .relaxed)
            }
        }.join()
        await writer.join()
        #expect(left.load(ordering: .relaxed) > 0)
        #expect(probe.count.load(ordering: .relaxed) == 100)
    }

    @Test func aCancelledRunReturnsOnlyAfterItsCancelledLaneJobEnded() async throws {
        let journal = Journal()
        let lines = LineQueue()
        let inlet = FrameInlet()
        let server = BridgeServer(
            registry: try ModuleRegistry([LaneWaiter(journal: journal, windDown: .milliseconds(50))]),
            output: BridgeOutput(lines: lines),
            logger: Self.quietLogger())
        let answers = Journal()
        let consumer = Task {
            while let line = await lines.next() { answers.add(String(decoding: line, as: UTF8.self)) }
        }
        let run = Task { await server.run(from: inlet) }
        inlet.push(Array(#"{"Command":"wait","GUID":"l"}"#.utf8))
        #expect(await eventually { journal.all == ["started"] })
        run.cancel()
        await run.value
        journal.add("returned")
        #expect(journal.all == ["started", "ended", "returned"])
        lines.finish()
        await consumer.value
        #expect(answers.all.count == 1 && answers.all[0].contains(#""ErrorCode":503"#), "\(answers.all)")
    }

    @Test func aPageLikeSessionRunsOnInProcessFramesAndLines() async throws {
        var limits = BridgeLimits()
        limits.maximumLineBytes = 64
        let lines = LineQueue()
        let output = BridgeOutput(lines: lines)
        let inlet = FrameInlet()
        let server = BridgeServer(
            registry: try ModuleRegistry([ScriptedModule(journal: Journal())]), output: output,
            limits: limits, logger: Self.quietLogger())
        // Pushed before the server runs: kept, and framed with the server's own limit.
        #expect(inlet.push(Array(#"{"Command":"bridge.ping","GUID":"early"}"#.utf8)))
        #expect(inlet.push(Array(repeating: UInt8(ascii: "x"), count: 65)))
        let run = Task { await server.run(from: inlet) }
        #expect(inlet.push(Array(#"{"Command":"note","GUID":"late"}"#.utf8)))
        var answers: [String] = []
        while answers.count < 3, let line = await lines.next() { answers.append(String(decoding: line, as: UTF8.self)) }
        #expect(answers[0].contains(#""GUID":"early""#) && answers[0].contains(#""ErrorCode":200"#), "\(answers)")
        #expect(answers[1].contains(#""ErrorCode":413"#) && answers[1].contains("65 bytes"), "\(answers)")
        #expect(answers[2].contains(#""GUID":"late""#) && answers[2].contains(#""ErrorCode":200"#), "\(answers)")
        // The consumer comes back for the next line, so the output is drained once the run ends.
        async let rest = lines.next()
        inlet.stop()
        await run.value
        #expect(!inlet.push(Array(#"{"Command":"note","GUID":"after"}"#.utf8)))
        #expect(await output.drain(timeout: .seconds(60)))
        lines.finish()
        #expect(await rest == nil)
    }
}

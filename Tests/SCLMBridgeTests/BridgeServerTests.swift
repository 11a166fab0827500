import Foundation
import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Synchronization
import Testing

/// A `BridgeServer` run in-process over two pipes, read with a ``LineStream``.
final class ServerHarness: Sendable {
    private let input = Pipe()
    private let output = Pipe()
    let lines: LineStream
    /// The server's log lines, kept here instead of going to stderr, where a passing test's expected
    /// `error: fail failed` would read as a failure.
    let log = Journal()
    private let run: Task<Void, Never>

    init(_ modules: [any BridgeModule], limits: BridgeLimits = BridgeLimits()) throws {
        let registry = try ModuleRegistry(modules)
        let writeEnd = output.fileHandleForWriting
        let server = BridgeServer(
            registry: registry, output: BridgeOutput(fileDescriptor: writeEnd.fileDescriptor), limits: limits,
            logger: Logger(minimumLevel: .error) { [log] in log.add($0) })
        let readEnd = input.fileHandleForReading.fileDescriptor
        run = Task {
            await server.run(input: readEnd)
            try? writeEnd.close()
        }
        lines = LineStream(output.fileHandleForReading)
    }

    func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    func call(_ command: String, guid: String, data: String = "{}", timeout: TimeInterval = ServerHarness.patience)
        async -> [String: Any]?
    {
        send(#"{"Command":"\#(command)","Data":\#(data),"GUID":"\#(guid)"}"#)
        return await response(to: guid, timeout: timeout)
    }

    /// How long to wait for the in-process server: generous, because other suites in this process may
    /// hold every cooperative thread (which the server's tasks need) for many seconds.
    static let patience: TimeInterval = 120

    func response(to guid: String, timeout: TimeInterval = ServerHarness.patience) async -> [String: Any]? {
        await lines.response(to: guid, timeout: timeout)
    }

    /// Ends input and waits for the server to drain and return.
    func finish() async {
        try? input.fileHandleForWriting.close()
        await run.value
        await lines.ended()
    }
}

/// Records what handlers saw, across tasks.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// `sleep` waits `Data.ms` (cooperatively), `fail` throws, `note` records; laned or not.
struct ScriptedModule: BridgeModule {
    let name: String
    let commands: [BridgeCommand]
    let lane: String?
    let journal: Journal

    init(
        name: String = "Scripted", prefix: String = "", lane: String? = nil, journal: Journal,
        timeouts: [String: Duration] = [:]
    ) {
        self.name = name
        self.commands = ["sleep", "fail", "note"].map { BridgeCommand(prefix + $0, timeout: timeouts[$0]) }
        self.lane = lane
        self.journal = journal
    }

    func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        switch request.command.split(separator: ".").last.map(String.init) ?? request.command {
        case "sleep":
            let ms = request.data["ms"]?.intValue ?? 0
            journal.add("started \(request.guid ?? "")")
            do {
                try await Task.sleep(for: .milliseconds(ms))
            } catch {
                journal.add("cancelled \(request.guid ?? "")")
                throw error
            }
            journal.add("slept \(request.guid ?? "")")
            return .ok(["slept": .int(ms)])
        case "fail":
            struct Plain: Error {}
            throw Plain()
        default:
            journal.add("note \(request.guid ?? "")")
            return .ok()
        }
    }
}

/// `wait`, on lane `one`: records `started`, waits until cancelled, winds down for `windDown` (cleanup that
/// outlasts the cancellation, such as closing a session), records `ended`.
struct LaneWaiter: BridgeModule {
    let name = "Waiter"
    let commands: [BridgeCommand] = ["wait"]
    let lane: String? = "one"
    let journal: Journal
    var windDown: Duration = .zero

    func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        journal.add("started")
        while !context.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
        if windDown > .zero { try? await Task.sleep(for: windDown) }
        journal.add("ended")
        return .ok()
    }
}

/// Whether `condition` becomes true within `timeout` (polled; the suite shares two cores with others).
func eventually(timeout: Duration = .seconds(ServerHarness.patience), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

@Suite(.tags(.medium), .timeLimit(.minutes(5))) struct BridgeServerTests {
    @Test func anOrderedLaneRunsCommandsInArrivalOrderWhileOthersOvertake() async throws {
        let journal = Journal()
        let harness = try ServerHarness([
            ScriptedModule(name: "Ordered", prefix: "o.", lane: "one", journal: journal),
            ScriptedModule(name: "Free", prefix: "f.", journal: journal),
        ])
        harness.send(#"{"Command":"o.sleep","Data":{"ms":150},"GUID":"o1"}"#)
        harness.send(#"{"Command":"o.note","GUID":"o2"}"#)
        harness.send(#"{"Command":"f.sleep","Data":{"ms":150},"GUID":"f1"}"#)
        harness.send(#"{"Command":"f.note","GUID":"f2"}"#)
        for guid in ["o1", "o2", "f1", "f2"] { #expect(await harness.response(to: guid)?["ErrorCode"] as? Int == 200) }
        await harness.finish()
        let entries = journal.all
        #expect(entries.firstIndex(of: "slept o1")! < entries.firstIndex(of: "note o2")!)
        #expect(entries.firstIndex(of: "note f2")! < entries.firstIndex(of: "slept f1")!)
    }

    @Test func aThrowingHandlerIsAnswered500AndTheServerGoesOn() async throws {
        let harness = try ServerHarness([ScriptedModule(journal: Journal())])
        #expect(await harness.call("fail", guid: "x")?["ErrorCode"] as? Int == 500)
        #expect(await harness.call("note", guid: "y")?["ErrorCode"] as? Int == 200)
        await harness.finish()
        #expect(harness.log.all.contains { $0.contains("fail failed") }, "\(harness.log.all)")
    }

    @Test func aTimeoutIsAnswered504UsingThePerCommandLimit() async throws {
        var limits = BridgeLimits()
        limits.defaultTimeout = .seconds(20)
        let harness = try ServerHarness(
            [ScriptedModule(journal: Journal(), timeouts: ["sleep": .milliseconds(100)])], limits: limits)
        let response = try #require(await harness.call("sleep", guid: "t", data: #"{"ms":600000}"#))
        #expect(response["ErrorCode"] as? Int == 504)
        #expect(response["ErrorMessage"] as? String == "sleep timed out after 100 ms")
        await harness.finish()
        #expect(harness.lines.allLines.count == 1)
    }

    @Test func everyLaterTimeoutFiresToo() async throws {
        var limits = BridgeLimits()
        limits.defaultTimeout = .seconds(20)
        let harness = try ServerHarness(
            [ScriptedModule(journal: Journal(), timeouts: ["sleep": .milliseconds(100)])], limits: limits)
        // Each deadline is later than the one that fired before it: the timer must take every one.
        for round in 0..<3 {
            let response = await harness.call("sleep", guid: "t\(round)", data: #"{"ms":600000}"#, timeout: 15)
            #expect(response?["ErrorCode"] as? Int == 504, "round \(round)")
        }
        await harness.finish()
    }

    @Test func cancelCancelsTheTaskOfARunningHandler() async throws {
        let journal = Journal()
        let harness = try ServerHarness([ScriptedModule(journal: journal)])
        harness.send(#"{"Command":"sleep","Data":{"ms":600000},"GUID":"s"}"#)
        #expect(await eventually { journal.all == ["started s"] })
        #expect(
            await harness.call("bridge.cancel", guid: "c", data: #"{"guid":"s"}"#)?["Data"] as? [String: Bool] == [
                "cancelled": true
            ])
        #expect(await harness.response(to: "s")?["ErrorCode"] as? Int == 499)
        #expect(await eventually { journal.all == ["started s", "cancelled s"] })
        await harness.finish()
        #expect(harness.lines.allLines.count == 2)
    }

    @Test func cancelReachesALanedHandlerThroughItsContext() async throws {
        let journal = Journal()
        let harness = try ServerHarness([LaneWaiter(journal: journal)])
        harness.send(#"{"Command":"wait","GUID":"w"}"#)
        #expect(await eventually { journal.all == ["started"] })
        harness.send(#"{"Command":"bridge.cancel","Data":{"GUID":"w"}}"#)
        #expect(await harness.response(to: "w")?["ErrorCode"] as? Int == 499)
        #expect(await eventually { journal.all == ["started", "ended"] })
        await harness.finish()
        #expect(harness.lines.allLines.count == 1)
    }

    @Test func endOfInputAnswersWorkStillRunningAfterTheGrace503() async throws {
        var limits = BridgeLimits()
        limits.shutdownGrace = .milliseconds(500)
        let harness = try ServerHarness([ScriptedModule(journal: Journal())], limits: limits)
        harness.send(#"{"Command":"sleep","Data":{"ms":600000},"GUID":"stuck"}"#)
        await harness.finish()
        #expect(await harness.response(to: "stuck", timeout: 0)?["ErrorCode"] as? Int == 503)
        #expect(harness.lines.allLines.count == 1)
    }

    @Test func immediateAnswersWaitForTheirLaneSoTheySeeEarlierCommands() async throws {
        final class Counter: Sendable { let value = Mutex(0) }
        struct Stateful: BridgeModule {
            let name = "Stateful"
            let commands: [BridgeCommand] = ["bump", "read"]
            let lane: String? = "one"
            let counter: Counter
            func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
                if request.command == "bump" {
                    try await Task.sleep(for: .milliseconds(100))
                    counter.value.withLock { $0 += 1 }
                    return .ok()
                }
                return try reply(immediatelyTo: request) ?? .ok()
            }
            func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply? {
                request.command == "read" ? .ok(.int(Int64(counter.value.withLock { $0 }))) : nil
            }
        }
        let harness = try ServerHarness([Stateful(counter: Counter())])
        harness.send(#"{"Command":"bump"}"#)
        harness.send(#"{"Command":"read","GUID":"r1"}"#)
        #expect(await harness.response(to: "r1")?["Data"] as? Int == 1)
        #expect(await harness.call("read", guid: "r2")?["Data"] as? Int == 1)
        await harness.finish()
    }

    @Test func aBurstOfImmediateCommandsOnOneLaneIsAnsweredInlineEveryOne() async throws {
        final class Tasks: Sendable { let count = Mutex(0) }
        struct Reader: BridgeModule {
            let name = "Reader"
            let commands: [BridgeCommand] = ["read"]
            let lane: String? = "one"
            let tasks: Tasks
            func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
                tasks.count.withLock { $0 += 1 }
                return .ok()
            }
            func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply? { .ok() }
        }
        let tasks = Tasks()
        let harness = try ServerHarness([Reader(tasks: tasks)])
        // One write, so the server reads the burst as one chunk: each frame must still find its lane idle
        // (the offer before it answered), never queue behind it as a task.
        let count = 200
        harness.send((0..<count).map { #"{"Command":"read","GUID":"r\#($0)"}"# }.joined(separator: "\n"))
        #expect(await harness.response(to: "r\(count - 1)")?["ErrorCode"] as? Int == 200)
        await harness.finish()
        #expect(harness.lines.allLines.count == count)
        #expect(tasks.count.withLock { $0 } == 0, "answered as tasks instead of inline")
    }

    @Test func notificationsRunButAreNeverAnswered() async throws {
        let journal = Journal()
        let harness = try ServerHarness([ScriptedModule(journal: journal)])
        harness.send(#"{"Command":"note"}"#)
        harness.send(#"{"Command":"fail"}"#)
        harness.send(#"{"Command":"nope"}"#)
        #expect(await harness.call("note", guid: "marker")?["ErrorCode"] as? Int == 200)
        await harness.finish()
        #expect(harness.lines.allLines.count == 1)
        #expect(journal.all.contains("note "))
    }
}

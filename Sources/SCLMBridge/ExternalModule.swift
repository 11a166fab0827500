import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A module served by another program that speaks this same NDJSON protocol on its stdin/stdout.
///
/// `sclm bridge --module NAME=PROGRAM` starts PROGRAM once, asks it `bridge.describe` and registers
/// the commands it lists. Requests are forwarded with GUIDs of the host's own (so a content GUID reused
/// after a cancel can never meet a stale answer), answers are passed back with the program's code,
/// status and data, and its `{"Event":…}` lines are forwarded to the host's output. If the program dies,
/// its in-flight requests are answered 502 and it is restarted with exponential backoff; after
/// ``RestartPolicy/maximumCrashes`` crashes within ``RestartPolicy/window`` the host gives up on it
/// (its commands then answer 502) and says so on stderr.
package final class ExternalModule: BridgeModule {
    /// When a crashed program is restarted and when the host gives up.
    package struct RestartPolicy: Sendable {
        /// The wait before the first restart; doubled for each further crash in the window.
        package var initialBackoff: Duration = .milliseconds(100)
        /// The longest wait between restarts.
        package var maximumBackoff: Duration = .seconds(5)
        /// Crashes within ``window`` after which the program is given up.
        package var maximumCrashes = 5
        /// The period over which crashes are counted.
        package var window: Duration = .seconds(60)

        /// The defaults.
        package init() {}
    }

    package let name: String
    package let commands: [BridgeCommand]
    /// The command line that was started.
    package let program: String
    private let link: ChildLink

    /// Starts `program` with `environment` (the composition root's, without sclm's secrets), asks it for its
    /// commands and returns the running module; restarts get the same environment.
    ///
    /// - Throws: `SCLMError` (`.usage`) when the program cannot start, exits, or does not answer
    ///   `bridge.describe` with a list of commands within `describeTimeout`.
    package static func start(
        name: String, program: String, environment: ChildEnvironment, output: BridgeOutput, logger: Logger,
        policy: RestartPolicy = RestartPolicy(), describeTimeout: Duration = .seconds(10)
    ) async throws -> ExternalModule {
        let link = ChildLink(
            name: name, program: program, environment: environment, output: output, logger: logger, policy: policy)
        try await link.launch()
        let reply: BridgeReply
        do {
            reply = try await link.call(
                BridgeRequest(command: "bridge.describe", guid: "describe"), timeout: describeTimeout)
        } catch {
            await link.stop()
            throw SCLMError(
                .usage,
                "module \(name): '\(program)' did not answer bridge.describe (\(error.userMessage)); it must speak the sclm bridge protocol on stdin/stdout"
            )
        }
        let names = Self.commandNames(in: reply.data).filter { !$0.hasPrefix(ModuleRegistry.reservedPrefix) }
        guard !names.isEmpty else {
            await link.stop()
            throw SCLMError(
                .usage,
                "module \(name): '\(program)' lists no commands in its bridge.describe answer ({\"modules\":[{\"commands\":[…]}]})"
            )
        }
        return ExternalModule(name: name, program: program, commands: names.map { BridgeCommand($0) }, link: link)
    }

    private init(name: String, program: String, commands: [BridgeCommand], link: ChildLink) {
        self.name = name
        self.program = program
        self.commands = commands
        self.link = link
    }

    package func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
        try await link.call(request, timeout: nil)
    }

    /// Stops the program: closes its stdin, waits briefly, then terminates it. No restart follows.
    package func stop() async {
        await link.stop()
    }

    /// The commands of a `bridge.describe` answer: `{"modules":[{"commands":[…]}]}` or `{"commands":[…]}`.
    static func commandNames(in data: JSONValue) -> [String] {
        let direct = data["commands"]?.arrayValue ?? []
        let nested = (data["modules"]?.arrayValue ?? []).flatMap { $0["commands"]?.arrayValue ?? [] }
        var seen = Set<String>()
        return (direct + nested).compactMap(\.stringValue).filter { seen.insert($0).inserted }
    }
}

/// The connection to the running program: its pipes, the requests waiting for it, and its restarts.
private final class ChildLink: Sendable {
    private enum Phase { case running, restarting, gaveUp, stopping, stopped }

    /// What an exit takes out of the state.
    private struct Ended {
        let child: ChildProcess
        let writer: LineWriter?
        let waiters: [CheckedContinuation<BridgeReply, any Error>]
        let phase: Phase
    }

    private struct State {
        var child: ChildProcess?
        var writer: LineWriter?
        var generation = 0
        var phase = Phase.running
        var pending: [String: CheckedContinuation<BridgeReply, any Error>] = [:]
        var nextRequest: UInt64 = 0
        var crashes: [ContinuousClock.Instant] = []
        /// The restart waiting out its backoff or starting the program; ``stop()`` cancels it and waits for it.
        var restart: Task<Void, Never>?
    }

    let name: String
    let program: String
    let environment: ChildEnvironment
    let output: BridgeOutput
    let logger: Logger
    let policy: ExternalModule.RestartPolicy
    private let state = Mutex(State())

    init(
        name: String, program: String, environment: ChildEnvironment, output: BridgeOutput, logger: Logger,
        policy: ExternalModule.RestartPolicy
    ) {
        self.name = name
        self.program = program
        self.environment = environment
        self.output = output
        self.logger = logger
        self.policy = policy
    }

    /// Spawns the program and starts reading its answers. A program started as ``stop()`` came is ended at
    /// once: a stopped module has no child.
    func launch() async throws {
        let child = try ChildProcess.spawn(program, environment: environment)
        let generation = state.withLock { state -> Int? in
            guard state.phase == .running || state.phase == .restarting else { return nil }
            state.child = child
            state.writer = LineWriter(fileDescriptor: child.input) { _ in child.closeInput() }
            state.generation += 1
            state.phase = .running
            return state.generation
        }
        guard let generation else {
            child.send(SIGKILL)
            _ = await child.reap()
            return
        }
        child.read(name: "sclm-module-\(name)") { [self] descriptor in
            LineReader.read(descriptor, maximumLineBytes: 64 << 20) { frames in
                for case .line(let bytes) in frames { receive(bytes) }
            }
            // Handled off the reader, which ends now, so reaping can join it.
            Task { await exited(generation: generation) }
        }
    }

    /// Forwards `request` and waits for the answer (a notification returns at once).
    func call(_ request: BridgeRequest, timeout: Duration?) async throws -> BridgeReply {
        guard request.guid != nil else {
            try send(request, id: nil)
            return .ok()
        }
        let id = state.withLock { state -> String in
            state.nextRequest += 1
            return "m\(state.generation)-\(state.nextRequest)"
        }
        let deadline = timeout.map { timeout in
            Task {
                try await Task.sleep(for: timeout)
                fail(id, BridgeError(.timeout, "no answer within \(timeout.milliseconds) ms"))
            }
        }
        defer { deadline?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { $0.pending[id] = continuation }
                do {
                    try send(request, id: id)
                } catch {
                    fail(id, error)
                }
                if Task.isCancelled { fail(id, CancellationError()) }
            }
        } onCancel: {
            fail(id, CancellationError())
            try? send(BridgeRequest(command: "bridge.cancel", data: ["GUID": .string(id)]), id: nil)
        }
    }

    private func send(_ request: BridgeRequest, id: String?) throws {
        let writer = try state.withLock { state -> LineWriter in
            switch state.phase {
            case .running:
                guard let writer = state.writer else { break }
                return writer
            case .restarting:
                throw BridgeError(.badGateway, "module \(name) is restarting after a crash; retry shortly")
            case .gaveUp:
                throw BridgeError(
                    .badGateway, "module \(name) crashed \(policy.maximumCrashes) times and was stopped; see stderr")
            case .stopping, .stopped:
                break
            }
            throw BridgeError(.unavailable, "module \(name) is shutting down")
        }
        writer.writeLine { bytes in
            bytes.append(contentsOf: #"{"Command":"#.utf8)
            JSONWriter.write(request.command, to: &bytes)
            bytes.append(contentsOf: #","Data":"#.utf8)
            JSONWriter.write(request.data, to: &bytes)
            if let id {
                bytes.append(contentsOf: #","GUID":"#.utf8)
                JSONWriter.write(id, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Resumes the waiter of `id` with `error`, if it is still waiting.
    private func fail(_ id: String, _ error: any Error) {
        state.withLock { $0.pending.removeValue(forKey: id) }?.resume(throwing: error)
    }

    /// One line from the program: an answer to a waiting request, or an event to forward.
    private func receive(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes), let object = value.objectValue else {
            return logger.warning("module \(name) wrote a line that is not a JSON object; ignored")
        }
        if let event = object["Event"]?.stringValue {
            return output.emit(BridgeEvent(event, object["Data"] ?? .null))
        }
        guard let id = object["GUID"]?.stringValue,
            let waiter = state.withLock({ $0.pending.removeValue(forKey: id) })
        else { return logger.debug("module \(name) answered an unknown or finished request; ignored") }
        let code = object["ErrorCode"]?.intValue.map(Int.init) ?? 200
        waiter.resume(
            returning: BridgeReply(
                data: object["Data"] ?? .null, code: code, status: object["Status"]?.stringValue,
                message: object["ErrorMessage"]?.stringValue ?? ""))
    }

    /// The program's stdout ended: answer its waiters 502, reap it, restart or give up.
    private func exited(generation: Int) async {
        let ended = state.withLock { state -> Ended? in
            guard state.generation == generation, let child = state.child else { return nil }
            defer {
                state.pending.removeAll()
                state.child = nil
                state.writer = nil
            }
            return Ended(child: child, writer: state.writer, waiters: Array(state.pending.values), phase: state.phase)
        }
        guard let ended else { return }
        let (child, waiters, phase) = (ended.child, ended.waiters, ended.phase)
        child.send(SIGKILL)
        // The writer ends before the pipes close: no write lands on a reused descriptor.
        await ended.writer?.closeAndJoin()
        let how = await child.reap()
        guard phase != .stopping else {
            state.withLock { $0.phase = .stopped }
            for waiter in waiters { waiter.resume(throwing: BridgeError(.unavailable, "module \(name) stopped")) }
            return
        }
        for waiter in waiters {
            waiter.resume(
                throwing: BridgeError(
                    .badGateway, "module \(name) crashed (\(how)) before answering; it is being restarted"))
        }
        scheduleRestart(after: how)
    }

    /// Counts a crash and restarts the program after a backoff (a task ``stop()`` cancels and waits for), or
    /// gives it up; nothing once the module is stopping.
    private func scheduleRestart(after how: String) {
        let now = ContinuousClock.now
        let crashes = state.withLock { state -> Int? in
            guard state.phase != .stopping, state.phase != .stopped else {
                // A stop that came as the program crashed waits for this exit: it has now ended.
                if state.child == nil { state.phase = .stopped }
                return nil
            }
            state.crashes = state.crashes.filter { now - $0 < policy.window } + [now]
            guard state.crashes.count < policy.maximumCrashes else {
                state.phase = .gaveUp
                return state.crashes.count
            }
            state.phase = .restarting
            let backoff = min(policy.initialBackoff * (1 << min(state.crashes.count - 1, 20)), policy.maximumBackoff)
            state.restart = Task { [self] in await restart(after: backoff) }
            logger.warning("module \(name) crashed (\(how)); restarting in \(backoff.milliseconds) ms")
            return state.crashes.count
        }
        guard let crashes, crashes >= policy.maximumCrashes else { return }
        logger.error(
            "module \(name) ('\(program)') crashed \(crashes) times within \(policy.window.milliseconds / 1000) s (last: \(how)); giving up — its commands now answer 502. Fix the program and restart sclm bridge."
        )
    }

    /// Starts the program again after `backoff`, unless cancelled first.
    private func restart(after backoff: Duration) async {
        try? await Task.sleep(for: backoff)
        guard !Task.isCancelled else { return }
        do {
            try await launch()
        } catch {
            logger.error("module \(name): \(error.userMessage)")
            scheduleRestart(after: "could not start")
        }
    }

    /// Closes the program's stdin, waits up to 2 s for it to exit, then terminates it. A restart under way
    /// is cancelled and waited for: no program outlives the module.
    func stop() async {
        let restart = state.withLock { state in
            state.phase = .stopping
            defer { state.restart = nil }
            return state.restart
        }
        restart?.cancel()
        await restart?.value
        let (child, writer) = state.withLock { state in
            if state.child == nil { state.phase = .stopped }
            return (state.child, state.writer)
        }
        guard let child else { return }
        await writer?.drain(timeout: .seconds(2))
        writer?.close()
        for signal in [Int32(0), SIGTERM, SIGKILL] {
            if signal != 0 { child.send(signal) }
            for _ in 0..<100 where state.withLock({ $0.phase != .stopped }) {
                try? await Task.sleep(for: .milliseconds(20))
            }
            if state.withLock({ $0.phase == .stopped }) { return }
        }
    }
}

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

    /// Restarts the program after a crash, for the length of the bridge run (a child of its task group).
    package func supervise() async {
        await link.supervise()
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
///
/// Every wait is on the state: ``changes`` wakes its waiters after each change (the program's stdout
/// ended, a launch or reap finished, a stop came). The reader thread answers the waiting requests when the
/// program's stdout ends; ``supervise()`` — a child of the bridge run's task group — reaps it and starts it
/// again after a backoff; ``stop()`` ends the program and returns only once no launch or reap is under way,
/// so no program outlives the module.
private final class ChildLink: Sendable {
    private enum Phase {
        case running, restarting, gaveUp, stopping, stopped

        var isStopping: Bool { self == .stopping || self == .stopped }
    }

    private struct State {
        var child: ChildProcess?
        var writer: LineWriter?
        var generation = 0
        /// The current program's stdout ended (it exited or closed it).
        var exited = false
        var phase = Phase.running
        /// Launches and reaps under way outside the lock; ``stop()`` waits for none to be left.
        var busy = 0
        var pending: [String: CheckedContinuation<BridgeReply, any Error>] = [:]
        var nextRequest: UInt64 = 0
        var crashes: [ContinuousClock.Instant] = []
    }

    /// A program taken out of the state by whoever reaps it.
    private struct Taken {
        let child: ChildProcess
        let writer: LineWriter?
    }

    let name: String
    let program: String
    let environment: ChildEnvironment
    let output: BridgeOutput
    let logger: Logger
    let policy: ExternalModule.RestartPolicy
    private let state = Mutex(State())
    private let changes = Waiters()

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

    /// Spawns the program and starts reading its answers; `false` when the module is stopping (a program
    /// started as ``stop()`` came is ended at once: a stopped module has no child).
    @discardableResult
    func launch() async throws -> Bool {
        let claimed = state.withLock { state in
            guard !state.phase.isStopping && state.phase != .gaveUp else { return false }
            state.busy += 1
            return true
        }
        guard claimed else { return false }
        defer { release() }
        let child = try ChildProcess.spawn(program, environment: environment)
        let generation = state.withLock { state -> Int? in
            guard !state.phase.isStopping else { return nil }
            state.child = child
            state.writer = LineWriter(fileDescriptor: child.input) { _ in child.closeInput() }
            state.generation += 1
            state.exited = false
            state.phase = .running
            return state.generation
        }
        guard let generation else {
            child.send(SIGKILL)
            _ = await child.reap()
            return false
        }
        child.read(name: "sclm-module-\(name)") { [self] descriptor in
            LineReader.read(descriptor, maximumLineBytes: 64 << 20) { frames in
                for case .line(let bytes) in frames { receive(bytes) }
            }
            ended(generation: generation)
        }
        return true
    }

    /// Watches the program for the length of the bridge run: reaps it when it dies and starts it again after
    /// a backoff, until the crashes are too many or ``stop()`` came; then returns.
    func supervise() async {
        while let crashed = await nextExit() {
            var how = await reap(crashed)
            while true {
                guard let backoff = countCrash(how), await waitOut(backoff) else { return }
                do {
                    guard try await launch() else { return }
                    break
                } catch {
                    logger.error("module \(name): \(error.userMessage)")
                    how = "could not start"
                }
            }
        }
    }

    /// Closes the program's stdin, gives it 2 s to exit, then terminates it (2 s more), then kills it; returns
    /// once no launch or reap is under way. No restart follows.
    func stop() async {
        let running = state.withLock { state -> Taken? in
            if state.phase != .stopped { state.phase = .stopping }
            return state.child.map { Taken(child: $0, writer: state.writer) }
        }
        changes.wakeAll()
        if let running {
            await running.writer?.drain(timeout: .seconds(2))
            running.writer?.close()
            for signal in [0, SIGTERM, SIGKILL] {
                if signal != 0 { running.child.send(signal) }
                if await hasExited(running.child, within: .seconds(2)) { break }
            }
            if let taken = take(running.child) { _ = await reap(taken) }
        }
        await changes.wait { state.withLock { $0.child == nil && $0.busy == 0 } }
        state.withLock { $0.phase = .stopped }
    }

    /// Forwards `request` and waits for the answer (a notification returns at once); a `timeout` cancels
    /// the wait (the program is told with `bridge.cancel`) and answers 504.
    func call(_ request: BridgeRequest, timeout: Duration?) async throws -> BridgeReply {
        guard request.guid != nil else {
            try send(request, id: nil)
            return .ok()
        }
        guard let timeout else { return try await exchange(request) }
        let outcome = await withTimeout(timeout) { [self] () -> Result<BridgeReply, any Error> in
            do {
                return .success(try await exchange(request))
            } catch {
                return .failure(error)
            }
        }
        guard let outcome else { throw BridgeError(.timeout, "no answer within \(timeout.milliseconds) ms") }
        return try outcome.get()
    }

    /// Sends `request` under an id of its own and waits for the answer with that id.
    private func exchange(_ request: BridgeRequest) async throws -> BridgeReply {
        let id = state.withLock { state -> String in
            state.nextRequest += 1
            return "m\(state.generation)-\(state.nextRequest)"
        }
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
                guard state.exited else {
                    guard let writer = state.writer else { break }
                    return writer
                }
                fallthrough
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

    /// The program's stdout ended (on its reader thread): its waiters are answered at once — 502, or 503 when
    /// the module is stopping — and whoever waits for the exit is woken.
    private func ended(generation: Int) {
        let ended = state.withLock { state -> (waiters: [CheckedContinuation<BridgeReply, any Error>], phase: Phase)? in
            guard state.generation == generation else { return nil }
            state.exited = true
            defer { state.pending.removeAll() }
            return (Array(state.pending.values), state.phase)
        }
        if let ended {
            let error =
                ended.phase.isStopping
                ? BridgeError(.unavailable, "module \(name) stopped")
                : BridgeError(.badGateway, "module \(name) crashed before answering; it is being restarted")
            for waiter in ended.waiters { waiter.resume(throwing: error) }
        }
        changes.wakeAll()
    }

    /// Waits until the program's stdout ends and takes it to be reaped; `nil` once the module is stopping
    /// (``stop()`` reaps it then).
    private func nextExit() async -> Taken? {
        await changes.wait { state.withLock { $0.exited || $0.phase.isStopping } }
        return state.withLock { state in
            guard !state.phase.isStopping, state.exited, let child = state.child else { return nil }
            return Self.take(child, from: &state)
        }
    }

    /// Takes `child` out of the state to be reaped, unless someone else did.
    private func take(_ child: ChildProcess) -> Taken? {
        state.withLock { state in state.child === child ? Self.take(child, from: &state) : nil }
    }

    private static func take(_ child: ChildProcess, from state: inout State) -> Taken {
        defer {
            state.child = nil
            state.writer = nil
            state.busy += 1
        }
        return Taken(child: child, writer: state.writer)
    }

    /// Kills a taken program, ends its writer before the pipes close (no write lands on a reused
    /// descriptor), waits for it and says how it ended.
    private func reap(_ taken: Taken) async -> String {
        taken.child.send(SIGKILL)
        await taken.writer?.closeAndJoin()
        let how = await taken.child.reap()
        release()
        return how
    }

    /// Whether `child`'s stdout ended within `patience`.
    private func hasExited(_ child: ChildProcess, within patience: Duration) async -> Bool {
        await withTimeout(patience) { [self] in
            await changes.wait { hasExited(child) }
            return hasExited(child)
        } ?? false
    }

    private func hasExited(_ child: ChildProcess) -> Bool {
        state.withLock { $0.exited || $0.child !== child }
    }

    /// Counts a crash: the backoff before the next start, or `nil` when the module gives up or is stopping.
    private func countCrash(_ how: String) -> Duration? {
        let now = ContinuousClock.now
        let outcome = state.withLock { state -> (crashes: Int, backoff: Duration?)? in
            guard !state.phase.isStopping else { return nil }
            state.crashes = state.crashes.filter { now - $0 < policy.window } + [now]
            guard state.crashes.count < policy.maximumCrashes else {
                state.phase = .gaveUp
                return (state.crashes.count, nil)
            }
            state.phase = .restarting
            let doublings = min(state.crashes.count - 1, 20)
            return (state.crashes.count, min(policy.initialBackoff * (1 << doublings), policy.maximumBackoff))
        }
        guard let outcome else { return nil }
        guard let backoff = outcome.backoff else {
            logger.error(
                "module \(name) ('\(program)') crashed \(outcome.crashes) times within \(policy.window.milliseconds / 1000) s (last: \(how)); giving up — its commands now answer 502. Fix the program and restart sclm bridge."
            )
            return nil
        }
        logger.warning("module \(name) crashed (\(how)); restarting in \(backoff.milliseconds) ms")
        return backoff
    }

    /// Waits out `backoff`; `false` when the module started stopping meanwhile.
    private func waitOut(_ backoff: Duration) async -> Bool {
        let stopped = await withTimeout(backoff) { [self] in
            await changes.wait { isStopping }
            return true
        }
        return stopped == nil && !isStopping
    }

    private var isStopping: Bool { state.withLock { $0.phase.isStopping } }

    /// Ends a launch or reap under way and wakes ``stop()``.
    private func release() {
        state.withLock { $0.busy -= 1 }
        changes.wakeAll()
    }
}

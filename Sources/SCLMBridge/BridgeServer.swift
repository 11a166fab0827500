import Dispatch
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stdio bridge host: NDJSON requests in, responses and events out (docs/bridge.md).
///
/// Its input is any ``FrameSource`` — stdin (``DescriptorFrames``, a reader thread) or a browser page's
/// binding (``FrameInlet``, in-process) — and its output a ``BridgeOutput``. Each frame is dispatched at
/// once on the source's thread: transport commands (`bridge.ping`, `bridge.describe`, `bridge.cancel`) are
/// answered inline; module commands run as tasks keyed by GUID (or as jobs of their ordered lane) and
/// answer when they finish, in any order. Every message with a GUID gets exactly one response — success,
/// failure, 409 duplicate, 429 full, 499 cancelled, 504 timeout or 503 shutdown — and nothing but
/// protocol lines reaches the output. When input ends, running work has ``BridgeLimits/shutdownGrace`` to
/// finish; the rest is answered 503 and cancelled, and ``run(from:)`` returns once the cancelled work
/// ended (or another grace period passed) and the output drained.
///
/// ```swift
/// let output = BridgeOutput()
/// let server = BridgeServer(registry: try ModuleRegistry([MyModule()]), output: output)
/// await server.run(input: 0)   // until stdin ends
/// ```
package final class BridgeServer: Sendable {
    /// The modules and their commands.
    package let registry: ModuleRegistry
    /// Size, concurrency and time bounds.
    package let limits: BridgeLimits
    let output: BridgeOutput
    let logger: Logger
    let table = InFlightTable()
    private let lanes: [LaneWorker]
    /// Module commands launched (as a task or a lane job) and not yet ended.
    private let jobs = JobCount()
    private let timer = DeadlineTimer(label: "sclm.bridge.deadlines")
    private let serverInfo: JSONValue

    /// Creates a host routing through `registry` and writing to `output`.
    package init(
        registry: ModuleRegistry, output: BridgeOutput, limits: BridgeLimits = BridgeLimits(),
        logger: Logger = Logger(), serverInfo: JSONValue = [:]
    ) {
        self.registry = registry
        self.output = output
        self.limits = limits
        self.logger = logger
        self.serverInfo = serverInfo
        self.lanes = (0..<registry.laneCount).map { _ in LaneWorker() }
    }

    /// Serves `input` until it ends, then drains (docs/bridge.md) and returns; see ``run(from:)``.
    package func run(input fileDescriptor: Int32) async {
        await run(from: DescriptorFrames(fileDescriptor))
    }

    /// Serves the frames of `source` until it ends, then drains (docs/bridge.md) and returns. A server runs
    /// once: its lanes and deadline timer end with the run.
    ///
    /// Cancelling the calling task stops at once: nothing more is dispatched (a frame batch under way stops
    /// at its next frame), running work is answered 503 without the grace period, and the run still waits
    /// (up to ``BridgeLimits/shutdownGrace``) for the cancelled handlers and lane jobs to end, so nothing
    /// runs after it returns.
    package func run(from source: some FrameSource) async {
        signal(SIGPIPE, SIG_IGN)
        timer.start { [weak self] in self?.expireDeadlines() }
        for lane in lanes { lane.start() }
        let stopping = CancellationFlag()
        await withTaskCancellationHandler {
            await source.deliverFrames(maximumLineBytes: limits.maximumLineBytes) { [self] frames in
                output.batch {
                    for frame in frames where !stopping.isCancelled { dispatch(frame) }
                }
                output.waitWhileBackedUp { stopping.isCancelled }
            }
        } onCancel: {
            stopping.cancel()
            source.stop()
        }
        await withCancellationShield { [self] in await shutDown(graceful: !stopping.isCancelled) }
    }

    /// Finishes a run: waits for running work (up to the grace period), answers the rest 503 and cancels
    /// it, waits (up to the grace period) for the cancelled handlers to end, ends the lanes and the timer,
    /// flushes.
    private func shutDown(graceful: Bool) async {
        if graceful { await Self.wait(upTo: limits.shutdownGrace) { table.count == 0 } }
        for entry in table.takeAll() {
            entry.task?.cancel()
            answer(
                entry,
                BridgeError(
                    .unavailable,
                    "the host is shutting down (input ended) before \(entry.command) finished; retry in a new session"))
        }
        let jobs = self.jobs
        if !(await Self.wait(upTo: limits.shutdownGrace) { jobs.value.load(ordering: .acquiring) == 0 }) {
            logger.warning(
                "a module command did not end within \(limits.shutdownGrace.milliseconds) ms of being cancelled")
        }
        for lane in lanes { lane.finish() }
        timer.cancel()
        if !(await output.drain(timeout: limits.shutdownGrace)) {
            logger.warning("stdout is not being read; exiting with answers unwritten")
        }
    }

    /// Waits until `isDone` holds or `limit` passed; returns whether it holds.
    @discardableResult
    private static func wait(upTo limit: Duration, until isDone: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !isDone() {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    // MARK: - Answering

    /// Writes the failure of a taken entry (nothing for a notification, which is only logged).
    func answer(_ entry: InFlightTable.Entry, _ error: BridgeError) {
        if let guid = entry.guid {
            output.send(BridgeResponse(guid: guid, error: error))
        } else {
            logger.warning("notification \(entry.command): \(error.message)")
        }
    }

    /// Answers `guid` (or logs, for a notification) with `error`.
    func reject(guid: String?, command: String?, _ error: BridgeError, isNotification: Bool) {
        if isNotification {
            logger.warning("ignored notification\(command.map { " \($0)" } ?? ""): \(error.message)")
        } else {
            output.send(BridgeResponse(guid: guid, error: error))
        }
    }

    private func expireDeadlines() {
        timer.disarm()
        let (expired, next) = table.takeExpired(now: .now())
        for entry in expired {
            entry.task?.cancel()
            let timeout = registry.route(for: entry.command)?.timeout ?? limits.defaultTimeout
            answer(entry, BridgeError(.timeout, "\(entry.command) timed out after \(timeout.milliseconds) ms"))
        }
        if let next { timer.arm(at: next) }
    }

    // MARK: - Running module commands

    /// Answers a module command at once when its module can (and its lane is idle); `false` otherwise.
    func startImmediately(_ request: BridgeRequest, route: ModuleRegistry.Route) -> Bool {
        if let lane = route.lane, !lanes[lane].isIdle { return false }
        let reply: BridgeReply
        do {
            guard let immediate = try route.module.reply(immediatelyTo: request) else { return false }
            reply = immediate
        } catch {
            reply = BridgeReply(data: .null, code: BridgeError.Code(for: error).rawValue, message: error.userMessage)
        }
        guard let guid = request.guid else { return true }
        if table.isRunning(guid: guid) {
            output.send(
                BridgeResponse(
                    guid: guid, error: BridgeError.inFlight(guid)))
        } else {
            output.send(BridgeResponse(guid: guid, reply: reply))
        }
        return true
    }

    /// Admits and starts a module command.
    func start(_ request: BridgeRequest, route: ModuleRegistry.Route) {
        if startImmediately(request, route: route) { return }
        let timeout = route.timeout ?? limits.defaultTimeout
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: timeout.milliseconds * 1_000_000))
        let admission = table.admit(
            guid: request.guid, command: request.command, deadline: deadline, limit: limits.maximumInFlight)
        switch admission {
        case .duplicate:
            output.send(
                BridgeResponse(
                    guid: request.guid,
                    error: BridgeError.inFlight(request.guid ?? "")))
        case .full:
            reject(
                guid: request.guid, command: request.command,
                BridgeError(
                    .tooManyRequests,
                    "\(limits.maximumInFlight) requests are already in flight; wait for answers and retry"),
                isNotification: request.guid == nil)
        case .admitted(let key, let serial):
            timer.arm(at: deadline)
            if let task = launch(request, route: route, key: key, serial: serial),
                !table.attach(task, key: key, serial: serial)
            {
                task.cancel()
            }
        }
    }

    private func launch(_ request: BridgeRequest, route: ModuleRegistry.Route, key: String, serial: UInt64) -> Task<
        Void, Never
    >? {
        if let lane = route.lane {
            // Ordered commands share one long-lived task per lane: no task per request, no reordering.
            let context = BridgeContext(guid: request.guid, output: output, logger: logger) { [table] in
                !table.isRunning(key: key, serial: serial)
            }
            jobs.value.add(1, ordering: .relaxed)
            lanes[lane].submit { [self] in
                defer { jobs.value.subtract(1, ordering: .releasing) }
                guard table.isRunning(key: key, serial: serial) else { return }
                await run(request, module: route.module, context: context, key: key, serial: serial)
            }
            return nil
        }
        let context = BridgeContext(guid: request.guid, output: output, logger: logger)
        jobs.value.add(1, ordering: .relaxed)
        return Task { [jobs] in
            defer { jobs.value.subtract(1, ordering: .releasing) }
            await run(request, module: route.module, context: context, key: key, serial: serial)
        }
    }

    private func run(
        _ request: BridgeRequest, module: any BridgeModule, context: BridgeContext, key: String, serial: UInt64
    ) async {
        let result: Result<BridgeReply, any Error>
        if context.isCancelled {
            result = .failure(CancellationError())
        } else {
            do {
                result = .success(try await module.handle(request, context: context))
            } catch {
                result = .failure(error)
            }
        }
        complete(key: key, serial: serial, result: result)
    }

    private func complete(key: String, serial: UInt64, result: Result<BridgeReply, any Error>) {
        guard let entry = table.finish(key: key, serial: serial) else {
            logger.debug("dropped the late result of \(key.hasPrefix("\u{0}") ? "a notification" : key)")
            return
        }
        switch result {
        case .success(let reply):
            if let guid = entry.guid { output.send(BridgeResponse(guid: guid, reply: reply)) }
        case .failure(let error):
            let code = BridgeError.Code(for: error)
            if code == .internalError {
                logger.error("\(entry.command) failed: \(error.userMessage)")
            }
            answer(entry, BridgeError(code, error.userMessage))
        }
    }

    // MARK: - Transport commands

    /// `bridge.describe`: protocol version, limits, modules and their commands, the host's events.
    var describe: JSONValue {
        let transport: JSONValue = [
            "name": "bridge", "commands": ["bridge.cancel", "bridge.describe", "bridge.ping"],
        ]
        var object: [String: JSONValue] = serverInfo.objectValue ?? [:]
        object["protocolVersion"] = 1
        object["limits"] = limits.json
        object["modules"] = .array([transport] + registry.descriptions)
        object["events"] = .array(BridgeEventName.allCases.map { .string($0.rawValue) })
        return .object(object)
    }

    /// `bridge.cancel {"GUID":…}`: answers the target 499 and cancels its task.
    func cancel(_ request: BridgeRequest) {
        let target = request.data.objectValue?.first { $0.key.lowercased() == "guid" }?.value.stringValue
        guard let target else {
            return reject(
                guid: request.guid, command: request.command,
                BridgeError(.badRequest, "bridge.cancel needs {\"GUID\":\"<guid of the request to cancel>\"}"),
                isNotification: request.guid == nil)
        }
        let entry = table.take(guid: target)
        if let entry {
            entry.task?.cancel()
            answer(entry, BridgeError(.cancelled, "\(entry.command) was cancelled by bridge.cancel"))
        }
        if let guid = request.guid {
            output.send(BridgeResponse(guid: guid, reply: .ok(["cancelled": .bool(entry != nil)])))
        }
    }
}

/// The one task that runs an ordered lane's commands, one after another in arrival order.
///
/// A request that was cancelled or timed out while queued is skipped; one that is running sees
/// ``BridgeContext/isCancelled`` turn true (cancellation is cooperative) and its late result is dropped.
private final class LaneWorker: Sendable {
    typealias Job = @Sendable () async -> Void
    private let jobs: AsyncStream<Job>.Continuation
    private let queued = JobCount()

    private let stream: AsyncStream<Job>

    init() {
        (stream, jobs) = AsyncStream.makeStream(of: Job.self)
    }

    /// Starts the lane's task, which ends after ``finish()`` once the jobs queued before it ran.
    func start() {
        Task { [stream, queued] in
            for await job in stream {
                await job()
                queued.value.subtract(1, ordering: .releasing)
            }
        }
    }

    /// Whether no job is queued or running, so everything submitted so far has taken effect.
    var isIdle: Bool { queued.value.load(ordering: .acquiring) == 0 }

    func submit(_ job: @escaping Job) {
        queued.value.add(1, ordering: .relaxed)
        jobs.yield(job)
    }

    func finish() { jobs.finish() }
}

/// A count of jobs, shared with the tasks that run them.
private final class JobCount: Sendable {
    let value = Atomic<Int>(0)
}

import Dispatch
import SCLMCore
import Synchronization

/// One run of a ``BridgeServer``: the ``BridgeCore`` behind a lock, and the parts that carry out its
/// actions — the output, the modules, the handler tasks (children of ``serve(_:)``'s task group, started
/// through one stream) and the deadline timer.
final class BridgeRun: Sendable {
    private let core: Mutex<BridgeCore>
    private let registry: ModuleRegistry
    private let output: BridgeOutput
    private let logger: Logger
    private let timer = DeadlineTimer(label: "sclm.bridge.deadlines")
    /// The handlers to start, taken by the task that owns the group; finished at the core's end.
    private let starts: AsyncStream<BridgeCore.Job>.Continuation
    private let startStream: AsyncStream<BridgeCore.Job>
    /// The cancel switch of each started handler, by serial.
    private let switches = Mutex<[UInt64: CancelSwitch]>([:])

    init(core: BridgeCore, registry: ModuleRegistry, output: BridgeOutput, logger: Logger) {
        self.core = Mutex(core)
        self.registry = registry
        self.output = output
        self.logger = logger
        (startStream, starts) = AsyncStream.makeStream(of: BridgeCore.Job.self)
    }

    /// Reads `source` and runs handlers until the core ends, with each module's ``BridgeModule/supervise()``
    /// beside them; stops the modules then, and returns once the reader, every handler and every module's
    /// supervision ended.
    func serve(_ source: some FrameSource) async {
        timer.start { [weak self] in self?.feed(.deadline(now: .now())) }
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                await source.deliverFrames(maximumLineBytes: core.withLock { $0.limits.maximumLineBytes }) {
                    [self] frames in read(frames)
                }
                feed(.inputEnded(now: .now()))
            }
            for module in registry.modules {
                group.addTask { await module.supervise() }
            }
            for await job in startStream {
                group.addTask { [self] in await runHandler(job) }
            }
            // The core ended: nothing more is read, and no module is needed any more.
            source.stop()
            for module in registry.modules { await module.stop() }
        }
        timer.cancel()
    }

    /// The run was cancelled: running work is answered 503 and cancelled.
    func cancel() {
        feed(.cancelled(now: .now()))
        output.interruptWaits()
    }

    /// A batch of frames, on the source's thread: their answers leave together, then back-pressure. Each
    /// frame's actions are carried out before the next frame reaches the core, so an inline offer is answered
    /// while its lane is still idle for the frames after it (handled all at once, every frame after the first
    /// of a lane would queue behind the offer and run as a task: 8× slower for `getCurrentSlideName`).
    private func read(_ frames: [Frame]) {
        output.batch {
            var actions: [BridgeCore.Action] = []
            let now = DispatchTime.now()
            for frame in frames {
                core.withLock { core in
                    if core.isServing { core.handle(.frame(frame, now: now), into: &actions) }
                }
                perform(actions)
                actions.removeAll(keepingCapacity: true)
            }
        }
        output.waitWhileBackedUp { !core.withLock { $0.isServing } }
    }

    private func feed(_ event: BridgeCore.Event) {
        var actions: [BridgeCore.Action] = []
        core.withLock { $0.handle(event, into: &actions) }
        perform(actions)
    }

    private func perform(_ actions: [BridgeCore.Action]) {
        for action in actions {
            switch action {
            case .write(let response): output.send(response)
            case .log(let level, let message): logger.log(level, message)
            case .offer(let job): offer(job)
            case .start(let job):
                switches.withLock { $0[job.serial] = CancelSwitch() }
                starts.yield(job)
            case .cancel(let serial): switches.withLock { $0[serial] }?.fire()
            case .arm(let deadline): timer.arm(at: deadline)
            case .end:
                starts.finish()
                output.interruptWaits()
            }
        }
    }

    /// Asks the job's module for an inline answer (none once the run stops serving: the core answers 503).
    private func offer(_ job: BridgeCore.Job) {
        var reply: Result<BridgeReply, BridgeError>?
        if core.withLock({ $0.isServing }) {
            do {
                reply = try registry.modules[job.module].reply(immediatelyTo: job.request).map { .success($0) }
            } catch {
                reply = .failure(BridgeError(BridgeError.Code(for: error), error.userMessage))
            }
        }
        feed(.inline(job, reply: reply, now: .now()))
    }

    /// Runs one handler, cancellable by its switch, and reports its end.
    private func runHandler(_ job: BridgeCore.Job) async {
        let module = registry.modules[job.module]
        let context = BridgeContext(guid: job.request.guid, output: output, logger: logger)
        let cancel = switches.withLock { $0[job.serial] } ?? CancelSwitch()
        let result = await cancel.run { () -> Result<BridgeReply, BridgeError> in
            guard !Task.isCancelled else { return .failure(BridgeError(.cancelled, "cancelled")) }
            do {
                return .success(try await module.handle(job.request, context: context))
            } catch {
                return .failure(BridgeError(BridgeError.Code(for: error), error.userMessage))
            }
        }
        switches.withLock { _ = $0.removeValue(forKey: job.serial) }
        feed(.finished(serial: job.serial, result: result ?? .failure(BridgeError(.cancelled, "cancelled"))))
    }
}

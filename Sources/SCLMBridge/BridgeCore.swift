import Dispatch
import SCLMCore

/// Every decision of a bridge host, without I/O: events in (a frame read, a handler's result, a deadline
/// passed, the input's end, a cancel), actions out (write this answer, start this handler, cancel it, arm the
/// timer, end). It has no threads, tasks, locks or clocks — time arrives with the events — so its rules are
/// tested as tables of events and as random event orders (`BridgeCoreTests`); ``BridgeServer`` is the
/// driver that reads, runs handlers and writes.
///
/// The rules (docs/bridge.md): every message with a GUID gets exactly one response; transport commands
/// are answered at once; a module command is first offered to its module's inline answer (when its lane is
/// idle), else admitted (409 for a GUID in flight, 429 beyond ``BridgeLimits/maximumInFlight``) and started
/// — a laned one only after the earlier jobs of its lane ended; whoever takes an entry answers it: its
/// handler, its deadline (504), `bridge.cancel` (499) or the shutdown (503). When input ends, running
/// work has ``BridgeLimits/shutdownGrace``; then the rest is answered 503 and cancelled, and the core
/// ends once every started handler ended (or another grace period passed). Nothing is written after
/// ``Action/end``.
package struct BridgeCore {
    /// A module command on its way: admitted (``serial`` non-zero) or offered inline (``serial`` 0).
    package struct Job: Sendable, Equatable {
        /// Tells this admission apart from every other; 0 before admission.
        package let serial: UInt64
        /// The request as content sent it.
        package let request: BridgeRequest
        /// The index of its module in ``ModuleRegistry/modules``.
        package let module: Int
        /// Its ordered lane, if its module has one.
        let lane: Int?
    }

    /// What happened, as the driver tells it.
    package enum Event: Sendable {
        /// A line (or an overlong one) arrived at `now`.
        case frame(Frame, now: DispatchTime)
        /// A job offered inline was answered by its module (`reply`), or not (`nil`: admit and start it).
        case inline(Job, reply: Result<BridgeReply, BridgeError>?, now: DispatchTime)
        /// A started handler returned with `result`; its task has ended.
        case finished(serial: UInt64, result: Result<BridgeReply, BridgeError>)
        /// The timer fired at `now`.
        case deadline(now: DispatchTime)
        /// The input ended at `now`: running work gets the grace period.
        case inputEnded(now: DispatchTime)
        /// The run was cancelled at `now`: no grace, running work is answered 503 and cancelled.
        case cancelled(now: DispatchTime)
    }

    /// What the driver must do, in order.
    package enum Action: Sendable, Equatable {
        /// Write this line.
        case write(BridgeResponse)
        /// Log this diagnostic (stderr; never the protocol output).
        case log(Logger.Level, String)
        /// Ask the job's module for an inline answer now and report it with ``Event/inline(_:reply:now:)``.
        case offer(Job)
        /// Run the job's handler; report its end with ``Event/finished(serial:result:)``.
        case start(Job)
        /// Cancel the running handler of this job.
        case cancel(serial: UInt64)
        /// Make the timer fire no later than this.
        case arm(DispatchTime)
        /// Everything is answered and every handler ended (or was given up on): stop.
        case end
    }

    /// Where a command goes, from the registry.
    struct Route: Sendable {
        let module: Int
        let timeout: Duration?
        let lane: Int?
    }

    /// One admitted job, waiting for its answer.
    private struct Entry {
        let serial: UInt64
        let guid: String?
        let command: String
        let deadline: DispatchTime
    }

    /// One ordered lane: its jobs in arrival order; one runs when ``isBusy``, and none starts while its
    /// first job is offered inline (``isOffered``): declined, it goes first.
    private struct Lane {
        var queue: [Job] = []
        var head = 0
        var isBusy = false
        var isOffered = false
        var isIdle: Bool { !isBusy && !isOffered && head == queue.count }
    }

    private enum Phase: Equatable {
        case serving
        /// Input ended: running work may finish until then.
        case draining(until: DispatchTime)
        /// The rest was answered 503 and cancelled: handlers may end until then.
        case finishing(until: DispatchTime)
        case ended
    }

    let limits: BridgeLimits
    let routes: [String: Route]
    private let describe: JSONValue
    private var entries: [String: Entry] = [:]
    /// Admitted jobs by serial: the key of their entry (gone once answered).
    private var keys: [UInt64: String] = [:]
    /// Started handlers that have not finished, by serial, with their lane.
    private var running: [UInt64: Int?] = [:]
    /// Jobs offered inline whose answer has not come back.
    private var offers = 0
    private var lanes: [Lane]
    private var nextSerial: UInt64 = 0
    private var armed: DispatchTime?
    private var phase = Phase.serving

    /// A core routing by `registry` within `limits`; `serverInfo` joins `bridge.describe`'s answer.
    package init(registry: ModuleRegistry, limits: BridgeLimits, serverInfo: JSONValue = [:]) {
        self.limits = limits
        self.routes = registry.routes
        self.lanes = Array(repeating: Lane(), count: registry.laneCount)
        let transport: JSONValue = [
            "name": "bridge", "commands": ["bridge.cancel", "bridge.describe", "bridge.ping"],
        ]
        var object: [String: JSONValue] = serverInfo.objectValue ?? [:]
        object["protocolVersion"] = 1
        object["limits"] = limits.json
        object["modules"] = .array([transport] + registry.descriptions)
        object["events"] = .array(BridgeEventName.allCases.map { .string($0.rawValue) })
        self.describe = .object(object)
    }

    /// Whether the core has ended: no more actions come.
    package var hasEnded: Bool { phase == .ended }

    /// Whether the input is still read (serving): frames after the input ended or a cancel are ignored.
    package var isServing: Bool { phase == .serving }

    /// Applies `event`, appending what the driver must do to `actions`.
    package mutating func handle(_ event: Event, into actions: inout [Action]) {
        guard phase != .ended else { return }
        switch event {
        case .frame(let frame, let now):
            guard phase == .serving else { return }
            dispatch(frame, now: now, into: &actions)
        case .inline(let job, let reply, let now):
            inline(job, reply: reply, now: now, into: &actions)
        case .finished(let serial, let result):
            finished(serial: serial, result: result, into: &actions)
        case .deadline(let now):
            deadline(now: now, into: &actions)
        case .inputEnded(let now):
            guard phase == .serving else { return }
            phase = .draining(until: now + limits.shutdownGrace.dispatchInterval)
            settle(now: now, into: &actions)
        case .cancelled(let now):
            guard phase == .serving || isDraining else { return }
            answerRest(now: now, into: &actions)
        }
    }

    private var isDraining: Bool {
        if case .draining = phase { return true }
        return false
    }

    // MARK: - Module commands

    /// Offers a module command inline when its lane is idle, else admits it.
    mutating func start(_ request: BridgeRequest, route: Route, now: DispatchTime, into actions: inout [Action]) {
        let job = Job(serial: 0, request: request, module: route.module, lane: route.lane)
        if route.lane.map({ lanes[$0].isIdle }) ?? true {
            offers += 1
            if let lane = route.lane { lanes[lane].isOffered = true }
            actions.append(.offer(job))
        } else {
            admit(job, first: false, now: now, into: &actions)
        }
    }

    private mutating func inline(
        _ job: Job, reply: Result<BridgeReply, BridgeError>?, now: DispatchTime, into actions: inout [Action]
    ) {
        offers -= 1
        if let lane = job.lane { lanes[lane].isOffered = false }
        defer {
            if let lane = job.lane { startNext(lane: lane, into: &actions) }
            settle(now: nil, into: &actions)
        }
        guard let reply else {
            guard phase == .serving else {
                // Not offered to the module (the run stops): a request is answered 503, a notification dropped.
                guard let guid = job.request.guid else { return }
                let error = BridgeError(.unavailable, Self.shutdownMessage(job.request.command))
                return actions.append(.write(BridgeResponse(guid: guid, error: error)))
            }
            return admit(job, first: true, now: now, into: &actions)
        }
        guard let guid = job.request.guid else { return }
        if entries[guid] != nil {
            actions.append(.write(BridgeResponse(guid: guid, error: BridgeError.inFlight(guid))))
        } else {
            switch reply {
            case .success(let reply): actions.append(.write(BridgeResponse(guid: guid, reply: reply)))
            case .failure(let error): actions.append(.write(BridgeResponse(guid: guid, error: error)))
            }
        }
    }

    /// Admits `job`; a laned one joins its lane's queue at the end, or at its front when it was offered
    /// inline (`first`: it came before everything waiting there).
    private mutating func admit(_ job: Job, first: Bool, now: DispatchTime, into actions: inout [Action]) {
        let request = job.request
        if let guid = request.guid, entries[guid] != nil {
            return actions.append(.write(BridgeResponse(guid: guid, error: BridgeError.inFlight(guid))))
        }
        guard entries.count < limits.maximumInFlight else {
            return reject(
                request,
                BridgeError(
                    .tooManyRequests,
                    "\(limits.maximumInFlight) requests are already in flight; wait for answers and retry"),
                &actions)
        }
        nextSerial += 1
        let serial = nextSerial
        // A NUL can never appear in a valid GUID, so notification keys cannot collide with GUIDs.
        let key = request.guid ?? "\u{0}\(serial)"
        let timeout = routes[request.command]?.timeout ?? limits.defaultTimeout
        let deadline = now + timeout.dispatchInterval
        entries[key] = Entry(serial: serial, guid: request.guid, command: request.command, deadline: deadline)
        keys[serial] = key
        arm(deadline, into: &actions)
        let admitted = Job(serial: serial, request: request, module: job.module, lane: job.lane)
        guard let lane = job.lane else {
            running[serial] = .some(nil)
            return actions.append(.start(admitted))
        }
        if first {
            lanes[lane].queue.insert(admitted, at: lanes[lane].head)
        } else {
            lanes[lane].queue.append(admitted)
        }
        startNext(lane: lane, into: &actions)
    }

    /// Starts the first waiting job of `lane` whose entry is still open, unless one runs.
    private mutating func startNext(lane index: Int, into actions: inout [Action]) {
        var lane = lanes[index]
        defer { lanes[index] = lane }
        guard !lane.isBusy && !lane.isOffered else { return }
        while lane.head < lane.queue.count {
            let job = lane.queue[lane.head]
            lane.head += 1
            // A job answered (timed out, cancelled) while it waited is skipped.
            guard keys[job.serial] != nil else { continue }
            lane.isBusy = true
            running[job.serial] = index
            actions.append(.start(job))
            break
        }
        if lane.head == lane.queue.count { (lane.queue, lane.head) = ([], 0) }
    }

    private mutating func finished(
        serial: UInt64, result: Result<BridgeReply, BridgeError>, into actions: inout [Action]
    ) {
        guard let lane = running.removeValue(forKey: serial) else { return }
        if let entry = take(serial: serial) {
            answer(entry, result, into: &actions)
        } else {
            actions.append(.log(.debug, "dropped the late result of a request that was already answered"))
        }
        if let lane {
            lanes[lane].isBusy = false
            startNext(lane: lane, into: &actions)
        }
        settle(now: nil, into: &actions)
    }

    // MARK: - Answering

    private mutating func take(serial: UInt64) -> Entry? {
        guard let key = keys.removeValue(forKey: serial) else { return nil }
        return entries.removeValue(forKey: key)
    }

    private mutating func take(key: String) -> Entry? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        keys.removeValue(forKey: entry.serial)
        return entry
    }

    private func answer(_ entry: Entry, _ result: Result<BridgeReply, BridgeError>, into actions: inout [Action]) {
        switch result {
        case .success(let reply):
            if let guid = entry.guid { actions.append(.write(BridgeResponse(guid: guid, reply: reply))) }
        case .failure(let error):
            if error.code == .internalError {
                actions.append(.log(.error, "\(entry.command) failed: \(error.message)"))
            }
            answer(entry, error, into: &actions)
        }
    }

    /// Writes the failure of a taken entry (a notification's is only logged).
    private func answer(_ entry: Entry, _ error: BridgeError, into actions: inout [Action]) {
        if let guid = entry.guid {
            actions.append(.write(BridgeResponse(guid: guid, error: error)))
        } else {
            actions.append(.log(.warning, "notification \(entry.command): \(error.message)"))
        }
    }

    /// Answers `request` (or logs, for a notification) with `error`.
    func reject(_ request: BridgeRequest, _ error: BridgeError, _ actions: inout [Action]) {
        reject(guid: request.guid, command: request.command, error, isNotification: request.guid == nil, &actions)
    }

    /// Answers `guid` (or logs, for a notification) with `error`.
    func reject(
        guid: String?, command: String?, _ error: BridgeError, isNotification: Bool, _ actions: inout [Action]
    ) {
        if isNotification {
            actions.append(.log(.warning, "ignored notification\(command.map { " \($0)" } ?? ""): \(error.message)"))
        } else {
            actions.append(.write(BridgeResponse(guid: guid, error: error)))
        }
    }

    // MARK: - Transport commands

    /// `bridge.ping`, `bridge.describe` and `bridge.cancel`, answered at once.
    mutating func transport(_ request: BridgeRequest, into actions: inout [Action]) {
        if let guid = request.guid, entries[guid] != nil {
            return actions.append(.write(BridgeResponse(guid: guid, error: BridgeError.inFlight(guid))))
        }
        switch request.command {
        case "bridge.ping":
            if let guid = request.guid { actions.append(.write(BridgeResponse(guid: guid, reply: .ok()))) }
        case "bridge.describe":
            if let guid = request.guid { actions.append(.write(BridgeResponse(guid: guid, reply: .ok(describe)))) }
        case "bridge.cancel":
            cancel(request, into: &actions)
        default:
            reject(
                request,
                BridgeError.unknownCommand(
                    request.command, hint: "the host has bridge.ping, bridge.describe, bridge.cancel"),
                &actions)
        }
    }

    /// `bridge.cancel {"GUID":…}`: answers the target 499 and cancels its handler.
    private mutating func cancel(_ request: BridgeRequest, into actions: inout [Action]) {
        let target = request.data.objectValue?.first { $0.key.lowercased() == "guid" }?.value.stringValue
        guard let target else {
            return reject(
                request, BridgeError(.badRequest, "bridge.cancel needs {\"GUID\":\"<guid of the request to cancel>\"}"),
                &actions)
        }
        let entry = take(key: target)
        if let entry {
            if running[entry.serial] != nil { actions.append(.cancel(serial: entry.serial)) }
            answer(entry, BridgeError(.cancelled, "\(entry.command) was cancelled by bridge.cancel"), into: &actions)
        }
        if let guid = request.guid {
            actions.append(.write(BridgeResponse(guid: guid, reply: .ok(["cancelled": .bool(entry != nil)]))))
        }
    }

    // MARK: - Time and the end

    private mutating func arm(_ deadline: DispatchTime, into actions: inout [Action]) {
        if let armed, armed <= deadline { return }
        armed = deadline
        actions.append(.arm(deadline))
    }

    private mutating func deadline(now: DispatchTime, into actions: inout [Action]) {
        armed = nil
        var next: DispatchTime?
        for (key, entry) in entries {
            if entry.deadline <= now {
                _ = take(key: key)
                if running[entry.serial] != nil { actions.append(.cancel(serial: entry.serial)) }
                let timeout = routes[entry.command]?.timeout ?? limits.defaultTimeout
                answer(
                    entry, BridgeError(.timeout, "\(entry.command) timed out after \(timeout.milliseconds) ms"),
                    into: &actions)
            } else if next.map({ entry.deadline < $0 }) ?? true {
                next = entry.deadline
            }
        }
        if let next { arm(next, into: &actions) }
        settle(now: now, into: &actions)
    }

    /// Moves the shutdown on when its condition holds or its time passed (`now`, when known).
    private mutating func settle(now: DispatchTime?, into actions: inout [Action]) {
        switch phase {
        case .serving, .ended:
            return
        case _ where offers > 0:
            return
        case .draining(let until):
            if entries.isEmpty && running.isEmpty { return end(into: &actions) }
            if let now, now >= until { return answerRest(now: now, into: &actions) }
            arm(until, into: &actions)
        case .finishing(let until):
            if running.isEmpty { return end(into: &actions) }
            guard let now, now >= until else { return arm(until, into: &actions) }
            actions.append(
                .log(
                    .warning,
                    "a module command did not end within \(limits.shutdownGrace.milliseconds) ms of being cancelled"))
            end(into: &actions)
        }
    }

    /// Answers everything still open 503, cancels the handlers and waits for them to end.
    private mutating func answerRest(now: DispatchTime, into actions: inout [Action]) {
        for (key, entry) in entries.sorted(by: { $0.value.serial < $1.value.serial }) {
            _ = take(key: key)
            if running[entry.serial] != nil { actions.append(.cancel(serial: entry.serial)) }
            answer(entry, BridgeError(.unavailable, Self.shutdownMessage(entry.command)), into: &actions)
        }
        phase = .finishing(until: now + limits.shutdownGrace.dispatchInterval)
        settle(now: nil, into: &actions)
    }

    private mutating func end(into actions: inout [Action]) {
        phase = .ended
        actions.append(.end)
    }

    static func shutdownMessage(_ command: String) -> String {
        "the host is shutting down (input ended) before \(command) finished; retry in a new session"
    }
}

extension Duration {
    /// The duration as a libdispatch interval.
    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000))
    }
}

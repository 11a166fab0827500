import Dispatch
import SCLMBridge
import SCLMCore
import SCLMTestSupport
import Testing

/// Feeds a ``BridgeCore`` events on a clock of its own and keeps every action it returned.
struct CoreHarness {
    var core: BridgeCore
    /// Nanoseconds on the harness's clock.
    var clock: UInt64 = 1_000_000_000
    private(set) var actions: [BridgeCore.Action] = []

    init(limits: BridgeLimits = BridgeLimits()) throws {
        let registry = try ModuleRegistry([
            ScriptedModule(journal: Journal(), timeouts: ["sleep": .seconds(2)]),
            ScriptedModule(name: "Laned", prefix: "l.", lane: "one", journal: Journal()),
        ])
        core = BridgeCore(registry: registry, limits: limits)
    }

    var now: DispatchTime { DispatchTime(uptimeNanoseconds: clock) }

    /// Feeds `event`; returns its actions.
    @discardableResult
    mutating func feed(_ event: BridgeCore.Event) -> [BridgeCore.Action] {
        var new: [BridgeCore.Action] = []
        core.handle(event, into: &new)
        actions += new
        return new
    }

    /// Feeds one input line.
    @discardableResult
    mutating func line(_ text: String) -> [BridgeCore.Action] {
        feed(.frame(.line(Array(text.utf8)), now: now))
    }

    /// Sends a request and declines its inline offer (if any): returns every action, offer included.
    @discardableResult
    mutating func request(_ command: String, guid: String?, data: String = "{}") -> [BridgeCore.Action] {
        let guidMember = guid.map { #","GUID":"\#($0)""# } ?? ""
        var result = line(#"{"Command":"\#(command)","Data":\#(data)\#(guidMember)}"#)
        for job in result.offers { result += feed(.inline(job, reply: nil, now: now)) }
        return result
    }

    /// Moves the clock on by `milliseconds` and fires the timer.
    @discardableResult
    mutating func advance(_ milliseconds: UInt64) -> [BridgeCore.Action] {
        clock += milliseconds * 1_000_000
        return feed(.deadline(now: now))
    }
}

extension [BridgeCore.Action] {
    var offers: [BridgeCore.Job] { compactMap { if case .offer(let job) = $0 { job } else { nil } } }
    var starts: [BridgeCore.Job] { compactMap { if case .start(let job) = $0 { job } else { nil } } }
    var cancels: [UInt64] { compactMap { if case .cancel(let serial) = $0 { serial } else { nil } } }
    /// `GUID code` of each written response (`- code` for a null GUID).
    var answers: [String] {
        compactMap { if case .write(let response) = $0 { "\(response.guid ?? "-") \(response.code)" } else { nil } }
    }
    var ends: Bool { contains(.end) }
}

@Suite(.tags(.small)) struct BridgeCoreTests {
    static let ok = Result<BridgeReply, BridgeError>.success(.ok())

    @Test func transportCommandsAreAnsweredAtOnce() throws {
        var core = try CoreHarness()
        #expect(core.request("bridge.ping", guid: "p").answers == ["p 200"])
        #expect(core.request("bridge.nope", guid: "n").answers == ["n 404"])
        #expect(core.line(String(repeating: "{", count: 3)).answers == ["- 400"])
        #expect(core.feed(.frame(.overlong(byteCount: 99), now: core.now)).answers == ["- 413"])
        #expect(core.request("nope", guid: nil).answers.isEmpty, "a notification's failure is only logged")
    }

    @Test func aModuleCommandIsOfferedInlineThenStartedAndAnsweredOnce() throws {
        var core = try CoreHarness()
        let offered = core.line(#"{"Command":"note","GUID":"a"}"#)
        #expect(offered.offers.map(\.request.guid) == ["a"] && offered.answers.isEmpty)
        let inline = core.feed(.inline(try #require(offered.offers.first), reply: Self.ok, now: core.now))
        #expect(inline.answers == ["a 200"] && inline.starts.isEmpty)

        let started = core.request("note", guid: "b")
        let job = try #require(started.starts.first)
        #expect(started.contains(.arm(DispatchTime(uptimeNanoseconds: core.clock + 30_000_000_000))))
        #expect(core.feed(.finished(serial: job.serial, result: Self.ok)).answers == ["b 200"])
        #expect(core.feed(.finished(serial: job.serial, result: Self.ok)).isEmpty, "a second end is ignored")
    }

    @Test func aGUIDInFlightIs409AndAFullTableIs429() throws {
        var limits = BridgeLimits()
        limits.maximumInFlight = 2
        var core = try CoreHarness(limits: limits)
        core.request("sleep", guid: "a")
        #expect(core.request("note", guid: "a").answers == ["a 409"])
        #expect(core.request("bridge.ping", guid: "a").answers == ["a 409"])
        core.request("sleep", guid: "b")
        #expect(core.request("sleep", guid: "c").answers == ["c 429"])
        let reply = core.line(#"{"Command":"note","GUID":"a"}"#).offers
        #expect(core.feed(.inline(try #require(reply.first), reply: Self.ok, now: core.now)).answers == ["a 409"])
    }

    @Test func aDeadlineAnswers504CancelsTheHandlerAndDropsItsLateResult() throws {
        var core = try CoreHarness()
        let job = try #require(core.request("sleep", guid: "s").starts.first)
        #expect(core.advance(1999).answers.isEmpty)
        let expired = core.advance(1)
        #expect(expired.answers == ["s 504"] && expired.cancels == [job.serial])
        let late = core.feed(.finished(serial: job.serial, result: Self.ok))
        #expect(late.answers.isEmpty)
        #expect(core.request("note", guid: "s").starts.count == 1, "the GUID is free again")
    }

    @Test func bridgeCancelAnswersTheTarget499AndItself() throws {
        var core = try CoreHarness()
        let job = try #require(core.request("sleep", guid: "s").starts.first)
        let cancelled = core.request("bridge.cancel", guid: "c", data: #"{"guid":"s"}"#)
        #expect(cancelled.answers == ["s 499", "c 200"] && cancelled.cancels == [job.serial])
        #expect(core.request("bridge.cancel", guid: "d", data: #"{"GUID":"s"}"#).answers == ["d 200"])
        #expect(core.request("bridge.cancel", guid: "e").answers == ["e 400"])
    }

    @Test func aLaneStartsItsJobsOneAtATimeInArrivalOrder() throws {
        var core = try CoreHarness()
        let first = core.line(#"{"Command":"l.note","GUID":"1"}"#)
        let offered = try #require(first.offers.first)
        // While the first is offered inline, the second waits behind it, not offered itself.
        let second = core.request("l.note", guid: "2")
        #expect(second.offers.isEmpty && second.starts.isEmpty)
        let declined = core.feed(.inline(offered, reply: nil, now: core.now))
        #expect(declined.starts.map(\.request.guid) == ["1"])
        let third = core.request("l.note", guid: "3")
        #expect(third.starts.isEmpty)
        let one = try #require(declined.starts.first)
        let next = core.feed(.finished(serial: one.serial, result: Self.ok))
        #expect(next.answers == ["1 200"] && next.starts.map(\.request.guid) == ["2"])
        // A job cancelled while it waits is skipped.
        #expect(core.request("bridge.cancel", guid: "c", data: #"{"GUID":"3"}"#).answers == ["3 499", "c 200"])
        let two = try #require(next.starts.first)
        let last = core.feed(.finished(serial: two.serial, result: Self.ok))
        #expect(last.answers == ["2 200"] && last.starts.isEmpty)
        #expect(core.line(#"{"Command":"l.note","GUID":"4"}"#).offers.count == 1, "the idle lane offers again")
    }

    @Test func endOfInputWaitsForRunningWorkThenEnds() throws {
        var core = try CoreHarness()
        let job = try #require(core.request("sleep", guid: "s").starts.first)
        let ended = core.feed(.inputEnded(now: core.now))
        #expect(!ended.ends)
        #expect(core.request("note", guid: "late").isEmpty, "input after its end is not read")
        let finished = core.feed(.finished(serial: job.serial, result: Self.ok))
        #expect(finished.answers == ["s 200"] && finished.ends)
        #expect(core.feed(.deadline(now: core.now)).isEmpty && core.core.hasEnded)
    }

    @Test func afterTheGraceTheRestIs503AndTheCoreEndsWhenHandlersDid() throws {
        var limits = BridgeLimits()
        limits.defaultTimeout = .seconds(60)
        var core = try CoreHarness(limits: limits)
        let job = try #require(core.request("l.sleep", guid: "s").starts.first)
        core.request("l.note", guid: "queued")
        core.feed(.inputEnded(now: core.now))
        let rest = core.advance(5000)
        #expect(rest.answers == ["s 503", "queued 503"] && rest.cancels == [job.serial] && !rest.ends)
        let finished = core.feed(.finished(serial: job.serial, result: .failure(BridgeError(.cancelled, "x"))))
        #expect(finished.answers.isEmpty && finished.starts.isEmpty && finished.ends)
    }

    @Test func aHandlerThatNeverEndsIsGivenUpOnAfterASecondGrace() throws {
        var core = try CoreHarness()
        core.request("sleep", guid: "s")
        let cancelled = core.feed(.cancelled(now: core.now))
        #expect(cancelled.answers == ["s 503"] && !cancelled.ends)
        #expect(!core.advance(4999).ends)
        let end = core.advance(1)
        #expect(end.ends && end.contains { if case .log(.warning, _) = $0 { true } else { false } })
        #expect(core.feed(.finished(serial: 1, result: Self.ok)).isEmpty, "nothing after the end")
    }

    @Test func aCancelWhileAnOfferIsOutAnswersIt503OnceItComesBack() throws {
        var core = try CoreHarness()
        let offer = try #require(core.line(#"{"Command":"note","GUID":"o"}"#).offers.first)
        #expect(!core.feed(.cancelled(now: core.now)).ends, "the offer is still out")
        let back = core.feed(.inline(offer, reply: nil, now: core.now))
        #expect(back.answers == ["o 503"] && back.starts.isEmpty && back.ends)
    }

    /// Random orders of everything that can happen. Invariants: each GUID'd request is answered exactly
    /// once, nothing comes after `end`, a lane never runs two jobs and starts them in arrival order, cancels
    /// name running handlers only, and once input ends and handlers return, the core ends.
    @Test(arguments: 0..<Soak.iterations(200, soak: 20_000))
    func randomEventOrdersKeepTheRules(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        var limits = BridgeLimits()
        limits.maximumInFlight = Int.random(in: 1...6, using: &random)
        var core = try CoreHarness(limits: limits)
        var sim = CoreSimulation()
        let stop = Int.random(in: 5...60, using: &random)
        for step in 0..<80 {
            if step == stop {
                sim.absorb(core.feed(random.next() % 3 == 0 ? .cancelled(now: core.now) : .inputEnded(now: core.now)))
            }
            sim.absorb(sim.randomEvent(&core, using: &random))
        }
        if stop >= 80 { sim.absorb(core.feed(.inputEnded(now: core.now))) }
        // Handlers return (cancelled or not), the clock runs out: the core must end.
        for _ in 0..<200 where !core.core.hasEnded {
            sim.absorb(sim.finishOne(&core, using: &random) ?? core.advance(10_000))
        }
        #expect(core.core.hasEnded, "seed \(seed): the core did not end")
        #expect(sim.violations.isEmpty, "seed \(seed): \(sim.violations)")
        let unanswered = sim.sent.subtracting(sim.answered.keys)
        #expect(unanswered.isEmpty, "seed \(seed): never answered: \(unanswered.sorted())")
        #expect(sim.answered.filter { $0.value != 1 }.isEmpty, "seed \(seed): answered twice: \(sim.answered)")
    }
}

/// The driver's side of the property test: what was sent, started and answered.
struct CoreSimulation {
    var sent = Set<String>()
    var answered: [String: Int] = [:]
    var running: [UInt64: BridgeCore.Job] = [:]
    var laneOrder: [String] = []
    var laneRunning = 0
    var ended = false
    var violations: [String] = []
    private var nextGUID = 0

    mutating func absorb(_ actions: [BridgeCore.Action]) {
        for action in actions {
            if ended { violations.append("\(action) after end") }
            switch action {
            case .write(let response):
                if let guid = response.guid { answered[guid, default: 0] += 1 }
            case .start(let job):
                running[job.serial] = job
                if job.request.command.hasPrefix("l.") {
                    laneRunning += 1
                    if laneRunning > 1 { violations.append("two lane jobs at once") }
                    let guid = job.request.guid ?? ""
                    guard let index = laneOrder.firstIndex(of: guid) else { continue }
                    if laneOrder[..<index].contains(where: { answered[$0] == nil }) {
                        violations.append("lane job \(guid) overtook \(laneOrder[..<index])")
                    }
                }
            case .cancel(let serial):
                if running[serial] == nil { violations.append("cancel of \(serial), which is not running") }
            case .end:
                ended = true
            case .log, .arm, .offer:
                break
            }
        }
    }

    /// A new request (module, laned, transport or a cancel), a handler's return, or time passing.
    mutating func randomEvent(_ core: inout CoreHarness, using random: inout SeededRandom) -> [BridgeCore.Action] {
        switch random.next() % 8 {
        case 0, 1, 2:
            return send(
                ["note", "sleep", "l.note", "l.sleep", "fail"].randomElement(using: &random) ?? "note", &core, &random)
        case 3:
            let target = sent.randomElement(using: &random) ?? "x"
            return send("bridge.cancel", &core, &random, data: #"{"GUID":"\#(target)"}"#)
        case 4:
            return send(Bool.random(using: &random) ? "bridge.ping" : "unknown", &core, &random)
        case 5, 6:
            return finishOne(&core, using: &random) ?? []
        default:
            return core.advance(UInt64.random(in: 1...3000, using: &random))
        }
    }

    private mutating func send(
        _ command: String, _ core: inout CoreHarness, _ random: inout SeededRandom, data: String = "{}"
    ) -> [BridgeCore.Action] {
        let notification = random.next() % 5 == 0
        nextGUID += 1
        let guid = notification ? nil : "g\(nextGUID)"
        let accepted = core.core.isServing
        if let guid, accepted {
            sent.insert(guid)
            if command.hasPrefix("l.") { laneOrder.append(guid) }
        }
        let guidMember = guid.map { #","GUID":"\#($0)""# } ?? ""
        var actions = core.line(#"{"Command":"\#(command)","Data":\#(data)\#(guidMember)}"#)
        absorb(actions)
        for job in actions.offers {
            let reply: Result<BridgeReply, BridgeError>? = random.next() % 3 == 0 ? .success(.ok()) : nil
            let more = core.feed(.inline(job, reply: reply, now: core.now))
            absorb(more)
            actions += more
        }
        return []
    }

    /// Returns one running handler (successfully or not); `nil` when none runs.
    mutating func finishOne(_ core: inout CoreHarness, using random: inout SeededRandom) -> [BridgeCore.Action]? {
        guard let serial = running.keys.sorted().randomElement(using: &random), let job = running[serial] else {
            return nil
        }
        running.removeValue(forKey: serial)
        if job.request.command.hasPrefix("l.") { laneRunning -= 1 }
        let result: Result<BridgeReply, BridgeError> =
            random.next() % 4 == 0 ? .failure(BridgeError(.internalError, "boom")) : .success(.ok())
        return core.feed(.finished(serial: serial, result: result))
    }
}

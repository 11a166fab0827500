import Foundation
import SCLMCore
import SCLMPolicy
import SCLMStore

/// OSAM's public calls for one home: fetch, decide with ``SCLMPolicy``, persist, log analytics.
///
/// The state of each package lives in the `preferences` table, per platform (`osam:<package>:<PLATFORM>`)
/// but for the language and topic history (`osam:<package>`); only changed keys are written. Analytics failures are logged as warnings and never change an outcome. Used by `sclm osam …`
/// and the bridge's OSAM module.
package struct OSAMService: Sendable {
    /// Whether to reach for the backend.
    package enum Connectivity: Sendable {
        /// Ask the backend whether it is reachable, then fetch (or use the cache when it is not).
        case probe
        /// Treat the device as offline: use the cache only.
        case offline
    }

    let store: ContentStore
    let backend: (any OSAMBackend)?
    let analytics: any AnalyticsProvider
    let messaging: any MessagingProvider
    let clock: any WallClock
    let logger: Logger
    /// The platform that state written before states were per platform (`osam.platform`) belongs to.
    let unplatformedStateOwner: Platform?

    /// Creates a service; without a backend every check behaves as offline.
    package init(
        store: ContentStore, backend: (any OSAMBackend)?, analytics: any AnalyticsProvider,
        messaging: any MessagingProvider,
        clock: any WallClock, logger: Logger, unplatformedStateOwner: Platform? = nil
    ) {
        self.unplatformedStateOwner = unplatformedStateOwner
        self.store = store
        self.backend = backend
        self.analytics = analytics
        self.messaging = messaging
        self.clock = clock
        self.logger = logger
    }

    /// The device clock in ms.
    package var now: Int64 { Timestamp.epochMilliseconds(clock.now) }

    // MARK: - Version control

    /// `versionControl`: fetch (or use the cache), decide, persist the new state and log analytics.
    ///
    /// - Throws: `StoreError` when the state cannot be read or written; `CancellationError`.
    package func versionControl(
        app: InstalledApp, platform: Platform, language: Language, connectivity: Connectivity,
        isAlertShowing: Bool = false
    ) async throws -> VersionControlDecision {
        let now = self.now
        // Row 1 of §3.8: an alert still waiting for its answer is an ERROR without a fetch.
        let fetch = try await fetch(isAlertShowing ? .offline : connectivity) { backend in
            try await backend.version(
                package: app.packageName, platform: platform, versionCode: app.versionCode, deviceNow: now)
        }
        let input = VersionControlPolicy.Input(
            now: now, fetch: fetch, app: app, language: language, isAlertShowing: isAlertShowing)
        let decision = try await update(app.packageName, platform: platform) { state in
            let decision = VersionControlPolicy.decide(input, state: state)
            return (decision.state, decision)
        }
        if let failure = decision.failure { logger.warning("version control for \(app.packageName): \(failure)") }
        await log(decision.events, package: app.packageName)
        return decision
    }

    /// `versionControlAnswer`: apply the user's choice to the alert last shown for `packageName`.
    ///
    /// - Throws: `SCLMError` (`.notFound`) when no alert awaits an answer, (`.usage`) when the choice does
    ///   not fit it; `StoreError`.
    package func answer(package packageName: String, platform: Platform, choice: AlertChoice, dontShowAgain: Bool)
        async throws -> AlertAnswer
    {
        let now = self.now
        let answer = try await update(packageName, platform: platform) { state in
            do {
                let answer = try VersionControlPolicy.answer(
                    choice, dontShowAgain: dontShowAgain, now: now, state: state)
                return (answer.state, answer)
            } catch let error as AnswerError where error.isMissingAlert {
                throw SCLMError(
                    .notFound,
                    "no version-control alert of \(packageName) is waiting for an answer; run a version-control check first"
                )
            } catch let error as AnswerError {
                throw SCLMError(.usage, error.message)
            }
        }
        await log(answer.events, package: packageName)
        return answer
    }

    // MARK: - Rating

    /// `rating`: count this opening, fetch (or use the cache), decide whether to request a review prompt.
    ///
    /// - Throws: `StoreError`; `CancellationError`.
    package func rating(package packageName: String, platform: Platform, connectivity: Connectivity) async throws
        -> RatingDecision
    {
        let fetch = try await fetch(connectivity) { backend in
            try await backend.rating(package: packageName, platform: platform)
        }
        let now = self.now
        let decision = try await update(packageName, platform: platform) { state in
            let decision = RatingPolicy.decide(now: now, fetch: fetch, state: state)
            return (decision.state, decision)
        }
        if let failure = decision.failure { logger.warning("rating for \(packageName): \(failure)") }
        await log(decision.events, package: packageName)
        return decision
    }

    /// Whether the backend answers (false without a backend).
    package func isOnline() async -> Bool {
        await backend?.isOnline() ?? false
    }

    // MARK: - Shared

    /// Reads the state of `packageName` on `platform`, applies `body` and writes the changed keys, in one
    /// transaction; state written before states were per platform first becomes ``unplatformedStateOwner``'s.
    func update<T: Sendable>(
        _ packageName: String, platform: Platform, _ body: @escaping @Sendable (OSAMState) throws -> (OSAMState, T)
    ) async throws -> T {
        let (date, owner) = (clock.now, unplatformedStateOwner)
        return try await store.write { db in
            if let owner { try db.adoptUnplatformedOSAMState(package: packageName, as: owner, now: date) }
            let old = try db.osamState(package: packageName, platform: platform)
            let (new, result) = try body(old)
            try db.saveOSAMState(new, since: old, package: packageName, platform: platform, now: date)
            return result
        }
    }

    /// The state of `packageName`.
    ///
    /// - Throws: `StoreError`.
    func state(of packageName: String) async throws -> OSAMState {
        try await store.read { db in try db.osamState(package: packageName) }
    }

    func log(_ events: [OSAMEvent], package packageName: String) async {
        guard !events.isEmpty else { return }
        do {
            try await analytics.log(events, package: packageName, at: clock.now)
        } catch {
            logger.warning(
                "could not record OSAM analytics (\(events.map(\.name).joined(separator: ", "))): \(error.userMessage)")
        }
    }

    /// What `body` fetches from the backend, or `.offline` when asked to be, without a backend, or when
    /// the backend does not answer the reachability probe.
    private func fetch<Record>(
        _ connectivity: Connectivity, _ body: (any OSAMBackend) async throws -> FetchResult<Record>
    ) async throws -> FetchResult<Record> {
        guard case .probe = connectivity, let backend, await backend.isOnline() else { return .offline }
        return try await body(backend)
    }
}

import CCurl
import Foundation
import SCLMCore
import Synchronization

/// The one libcurl engine of a process: a dedicated thread driving every transfer of every
/// ``CurlTransport`` built on it with one libcurl multi handle.
///
/// Tasks hand transfers over through a locked inbox and wake the thread with `curl_multi_wakeup`; the
/// thread runs `curl_multi_perform`/`curl_multi_poll`, so blocking network work never occupies the
/// cooperative thread pool. Each transport is a view with its own ``CurlSession`` (cookies, DNS, TLS and
/// connection caches) and its own policy, so the API's cookies never reach a slide's requests and a
/// network rule never meets a connection it did not admit. Cancelled transfers are removed at the next
/// turn of the loop, which a wake-up triggers at once.
///
/// The owner stops the engine with ``shutdown()`` when its scope ends; transfers started after that fail
/// with `CancellationError`.
///
/// ```swift
/// let engine = CurlEngine()
/// let api = CurlTransport(engine: engine, configuration: .init(cookieJarPath: home.cookieJarPath))
/// let slides = CurlTransport(engine: engine, configuration: .init(networkRule: .publicOnly))
/// let response = try await api.send(HTTPRequest(url: apiURL))
/// await engine.shutdown()  // sclm's commands leave this to `withServices`
/// ```
package final class CurlEngine: @unchecked Sendable {
    // Invariant: `active` and the handles' transfers are touched only on the engine thread; `inbox` is
    // guarded by its mutex; `multi` is shared only through `curl_multi_wakeup`, which libcurl allows from
    // any thread and which is called under the inbox lock only while the thread has not cleaned it up.
    private struct Inbox {
        var pending: [(CurlTransfer, CurlSession)] = []
        var sessions: [CurlSession] = []
        var isStopping = false
        var isFinished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The name of the engine thread (as `/proc/<pid>/task/<tid>/comm` shows it).
    package static let threadName = "sclm.curl"

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: (transfer: CurlTransfer, session: CurlSession)] = [:]

    /// Starts the engine thread.
    package init() {
        CurlGlobal.initialize()
        guard let multi = curl_multi_init() else {
            preconditionFailure("libcurl could not allocate its multi handle (out of memory)")
        }
        self.multi = multi
        let thread = Thread { [self] in
            // Named by the kernel's own call: a thread starts with its creator's name (a pool thread's), and
            // Foundation's `Thread.name` did not reliably replace it; `/proc/<pid>/task/<tid>/comm` (a test,
            // `top -H`) counts engines by this name.
            _ = sclm_curl_name_thread(Self.threadName)
            run()
        }
        thread.start()
    }

    /// A new session for one transport: its own cookies (read once from `cookieJar` and written back
    /// there), DNS, TLS and connection caches. The engine frees it when it stops.
    func makeSession(cookieJar: CookieJar?) -> CurlSession {
        let session = CurlSession(cookieJar: cookieJar)
        inbox.withLock { $0.sessions.append(session) }
        return session
    }

    /// Runs `transfer` in `session` and returns its completion; cancelling the task aborts it promptly.
    ///
    /// - Throws: what the transfer failed with, or `CancellationError` (also once the engine has stopped).
    func perform(_ transfer: CurlTransfer, in session: CurlSession) async throws -> CurlTransfer.Completion {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                let isAccepted = inbox.withLock { inbox in
                    guard !inbox.isStopping else { return false }
                    inbox.pending.append((transfer, session))
                    curl_multi_wakeup(multi)
                    return true
                }
                if !isAccepted { transfer.complete(.abortedByCallback, cancelled: true) }
            }
        } onCancel: {
            transfer.cancel()
            wake()
        }
    }

    /// Stops the engine and returns once its thread has ended; transfers still running fail with
    /// `CancellationError`. Calling it again returns at once.
    package func shutdown() async {
        await withCheckedContinuation { continuation in
            let isFinished = inbox.withLock { inbox in
                guard !inbox.isFinished else { return true }
                inbox.isStopping = true
                inbox.waiters.append(continuation)
                curl_multi_wakeup(multi)
                return false
            }
            if isFinished { continuation.resume() }
        }
    }

    /// Ends the thread once its current turn is over without waiting for it (for a transport that owns
    /// its engine and goes away).
    func stop() {
        inbox.withLock { inbox in
            guard !inbox.isFinished else { return }
            inbox.isStopping = true
            curl_multi_wakeup(multi)
        }
    }

    private func wake() {
        inbox.withLock { inbox in
            if !inbox.isFinished { curl_multi_wakeup(multi) }
        }
    }

    // MARK: - Engine thread

    private func run() {
        while true {
            let (incoming, isStopping) = inbox.withLock { inbox in
                defer { inbox.pending = [] }
                return (inbox.pending, inbox.isStopping)
            }
            for (transfer, session) in incoming { start(transfer, in: session) }
            if isStopping { break }
            for (easy, entry) in active where entry.transfer.isCancelled {
                finish(easy, code: .abortedByCallback)
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        for (easy, entry) in active {
            entry.transfer.cancel()
            finish(easy, code: .abortedByCallback)
        }
        let (late, sessions, waiters) = inbox.withLock { inbox in
            inbox.isFinished = true
            defer { (inbox.pending, inbox.waiters) = ([], []) }
            return (inbox.pending, inbox.sessions, inbox.waiters)
        }
        for (transfer, _) in late { transfer.complete(.abortedByCallback, cancelled: true) }
        curl_multi_cleanup(multi)
        for session in sessions { session.close() }
        for waiter in waiters { waiter.resume() }
    }

    private func start(_ transfer: CurlTransfer, in session: CurlSession) {
        guard let easy = transfer.easy else { return transfer.complete(.abortedByCallback) }
        _ = sclm_curl_easy_setopt_pointer(easy, CURLOPT_SHARE, session.share)
        // Reading the jar file once is enough: the share handle keeps the cookies for later transfers.
        let cookieFile = session.cookieJar?.pathToLoad() ?? ""
        _ = cookieFile.withCString { sclm_curl_easy_setopt_string(easy, CURLOPT_COOKIEFILE, $0) }
        active[easy] = (transfer, session)
        if curl_multi_add_handle(multi, easy) != CURLM_OK {
            finish(easy, code: .failedInit)
        }
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            finish(easy, code: CurlCode(sclm_curl_msg_result(message)))
        }
    }

    private func finish(_ easy: UnsafeMutableRawPointer, code: CurlCode) {
        guard let (transfer, session) = active.removeValue(forKey: easy) else { return }
        curl_multi_remove_handle(multi, easy)
        if let cookieJar = session.cookieJar, transfer.receivedCookies { cookieJar.persist(transfer.cookieLines()) }
        transfer.complete(code)
    }
}

/// `curl_global_init`, run once per process before any handle is made.
enum CurlGlobal {
    private static let code: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// Initializes libcurl if this process has not yet.
    static func initialize() {
        precondition(code == CURLE_OK, "curl_global_init failed: \(CurlCode(code))")
    }
}

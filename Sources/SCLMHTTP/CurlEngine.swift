import CCurl
import Foundation
import SCLMCore
import Synchronization

/// Drives every transfer of one ``CurlTransport`` on a dedicated thread with a libcurl multi handle.
///
/// Tasks hand transfers over through a locked inbox and wake the thread with `curl_multi_wakeup`; the
/// thread runs `curl_multi_perform`/`curl_multi_poll` (reference/sync.md §1.1), so blocking network work
/// never occupies the cooperative thread pool. One multi handle gives connection reuse across requests;
/// a share handle gives all of them one cookie store, DNS cache and TLS session cache. Cancelled
/// transfers are removed at the next turn of the loop, which a wake-up triggers at once.
final class CurlEngine: @unchecked Sendable {
    // Invariant: `active`, `cookieJar` and the handles' transfers are touched only on the engine thread;
    // `inbox` is guarded by its mutex; `multi` is only shared through `curl_multi_wakeup`, which libcurl
    // allows from any thread.
    private struct Inbox {
        var pending: [CurlTransfer] = []
        var isStopping = false
    }

    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let cookieJar: CookieJar?

    /// Starts the engine thread.
    init(cookieJar: CookieJar?) {
        CurlGlobal.initialize()
        guard let multi = curl_multi_init(), let share = curl_share_init() else {
            preconditionFailure("libcurl could not allocate its handles (out of memory)")
        }
        self.multi = multi
        self.share = share
        self.cookieJar = cookieJar
        for data in [CURL_LOCK_DATA_COOKIE, CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION] {
            _ = sclm_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(data.rawValue))
        }
        let thread = Thread { [self] in run() }
        thread.name = "sclm.curl"
        thread.start()
    }

    /// Runs `transfer` and returns its completion; cancelling the task aborts it promptly.
    ///
    /// - Throws: what the transfer failed with, or `CancellationError`.
    func perform(_ transfer: CurlTransfer) async throws -> CurlTransfer.Completion {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                inbox.withLock { $0.pending.append(transfer) }
                curl_multi_wakeup(multi)
            }
        } onCancel: {
            transfer.cancel()
            curl_multi_wakeup(multi)
        }
    }

    /// Ends the thread once its current turn is over; transfers still running fail with `CancellationError`.
    func stop() {
        inbox.withLock { $0.isStopping = true }
        curl_multi_wakeup(multi)
    }

    // MARK: - Engine thread

    private func run() {
        while true {
            let (incoming, isStopping) = inbox.withLock { inbox in
                defer { inbox.pending = [] }
                return (inbox.pending, inbox.isStopping)
            }
            for transfer in incoming { start(transfer) }
            if isStopping { break }
            for (easy, transfer) in active where transfer.isCancelled {
                finish(easy, code: .abortedByCallback)
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        for (easy, _) in active { finish(easy, code: .abortedByCallback) }
        curl_multi_cleanup(multi)
        curl_share_cleanup(share)
    }

    private func start(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy else { return transfer.complete(.abortedByCallback) }
        _ = sclm_curl_easy_setopt_pointer(easy, CURLOPT_SHARE, share)
        // Reading the jar file once is enough: the share handle keeps the cookies for later transfers.
        let cookieFile = cookieJar?.pathToLoad() ?? ""
        _ = cookieFile.withCString { sclm_curl_easy_setopt_string(easy, CURLOPT_COOKIEFILE, $0) }
        active[easy] = transfer
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
        guard let transfer = active.removeValue(forKey: easy) else { return }
        curl_multi_remove_handle(multi, easy)
        if let cookieJar, transfer.receivedCookies { cookieJar.persist(transfer.cookieLines()) }
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

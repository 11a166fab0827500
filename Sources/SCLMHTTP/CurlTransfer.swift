import CCurl
import Foundation
import SCLMCore
import Synchronization

/// One HTTP exchange on a libcurl easy handle: its options, its callbacks and what they collected.
///
/// Created on the caller's task, then handed to ``CurlEngine``, whose thread alone touches it until it
/// completes; only the cancellation flag is shared (atomically). The callbacks find the transfer through
/// an unretained pointer; the engine keeps it alive while libcurl may call them.
final class CurlTransfer: @unchecked Sendable {
    /// What a finished transfer hands back.
    struct Completion: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        let url: URL
        /// Where a redirect points (`CURLINFO_REDIRECT_URL`), when libcurl did not follow it itself.
        let redirectURL: URL?
    }

    /// How much of an error response body is kept when the body is not wanted (for ``HTTPResponse/serverReason``).
    private static let errorBodyLimit = 16 << 10

    let request: HTTPRequest
    private(set) var easy: UnsafeMutableRawPointer?
    var continuation: CheckedContinuation<Completion, any Error>?
    /// Whether the response carried `Set-Cookie`, so the engine knows when to persist the jar.
    private(set) var receivedCookies = false
    private let cancelFlag = Atomic<Bool>(false)
    private let file: DownloadFile?
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var headerFields: [HTTPHeader] = []
    private var body = Data()
    private var isBodyStarted = false
    private var bodyGoesToFile = false
    private var failure: (any Error)?
    private var lastProgress: ContinuousClock.Instant?
    /// What this transfer's connections must satisfy; `nil` when the transport has no ``NetworkRule``.
    private let admission: NetworkRule.Admission?
    /// The first address the rule refused, for the error (set on the engine thread).
    private var refusedEndpoint: String?

    /// Prepares an easy handle for `request`; with `file`, the body streams into it.
    ///
    /// With `admission`, libcurl follows no redirects (the transport checks each hop itself) and every
    /// address it is about to connect to must pass ``NetworkRule/Admission/permitsConnection(to:port:)``.
    ///
    /// - Throws: ``HTTPError`` for a URL that is not http(s), a header that is unsafe to send, or an
    ///   option libcurl refuses.
    init(
        _ request: HTTPRequest, file: DownloadFile? = nil, progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        admission: NetworkRule.Admission? = nil, configuration: CurlTransport.Configuration
    ) throws {
        self.request = request
        self.file = file
        self.progress = progress
        self.admission = admission
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        guard request.url.isHTTP else {
            throw HTTPError(.unsupportedScheme, method: request.method, url: request.url)
        }
        guard let easy = curl_easy_init() else {
            throw HTTPError(.transport, method: request.method, url: request.url, detail: "libcurl could not start")
        }
        self.easy = easy
        try configure(configuration)
    }

    deinit {
        releaseHandle()
        errorBuffer.deallocate()
    }

    // MARK: - Cancellation

    /// Asks the transfer to stop; the callbacks and the engine notice at their next turn.
    func cancel() { cancelFlag.store(true, ordering: .releasing) }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelFlag.load(ordering: .acquiring) }

    // MARK: - Options

    private func configure(_ configuration: CurlTransport.Configuration) throws {
        try set(CURLOPT_URL, request.url.absoluteString)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_FOLLOWLOCATION, admission == nil ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
        // Only http and https, also for redirects: libcurl 7.88 would otherwise follow to ftp(s).
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_USERAGENT, configuration.userAgent)
        try set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.milliseconds)
        // A stall detector instead of a total timeout: below 1 byte/s for that long fails the transfer.
        try set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try set(CURLOPT_LOW_SPEED_TIME, max(1, Int(configuration.stallTimeout.components.seconds)))
        if let timeout = request.timeout { try set(CURLOPT_TIMEOUT_MS, timeout.milliseconds) }
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        if let bundle = configuration.caBundlePath {
            try set(CURLOPT_CAINFO, bundle)
            try set(CURLOPT_PROXY_CAINFO, bundle)
        }
        try configureProxy(configuration.proxy)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try check(sclm_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        if file == nil {
            // Compressed API responses; never for downloads, whose byte ranges refer to the stored bytes.
            try set(CURLOPT_ACCEPT_ENCODING, "")
        } else {
            try set(CURLOPT_BUFFERSIZE, 256 << 10)
        }
        try configureMethod()
        try configureHeaders()
        try installCallbacks()
    }

    /// Applies an explicit proxy choice; with ``ProxyChoice/environment`` libcurl reads the variables itself.
    private func configureProxy(_ choice: ProxyChoice) throws {
        switch choice {
        case .environment:
            return
        case .direct:
            // An empty CURLOPT_PROXY turns proxies off, including those set by the environment (curl_easy_setopt(3)).
            try set(CURLOPT_PROXY, "")
        case .server(let proxy):
            try set(CURLOPT_PROXY, proxy.url)
            // Set, CURLOPT_NOPROXY replaces the no_proxy variable; "" means every host uses the proxy.
            try set(CURLOPT_NOPROXY, proxy.noProxy)
            if let credentials = proxy.credentials { try set(CURLOPT_PROXYUSERPWD, credentials) }
        }
    }

    private func configureMethod() throws {
        switch request.method {
        case .get: try set(CURLOPT_HTTPGET, 1)
        case .head: try set(CURLOPT_NOBODY, 1)
        case .post: try set(CURLOPT_POST, 1)
        default: try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        guard let body = request.body ?? (request.method == .post ? Data() : nil) else { return }
        try check(sclm_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        try body.withUnsafeBytes { buffer in
            // COPYPOSTFIELDS copies the bytes, so the body need not outlive this call.
            // An empty body still needs a valid pointer; libcurl reads zero bytes from it.
            let pointer = UnsafeMutableRawPointer(mutating: buffer.baseAddress ?? UnsafeRawPointer(errorBuffer))
            try check(sclm_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, pointer))
        }
    }

    private func configureHeaders() throws {
        // A second line of defence behind the callers' own checks: libcurl sends each line as given, so a
        // CR or LF in a value (a token from a hostile server, say) would add header lines of its own.
        for field in request.headers where !HTTPHeaders.isToken(field.name) || !HTTPHeaders.isSafeValue(field.value) {
            throw HTTPError(
                .unsafeHeader, method: request.method, url: request.url,
                detail: "header \(field.name.debugDescription)")
        }
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if request.body != nil { lines.append("Expect:") }  // no 100-continue round trip
        // A range rather than RESUME_FROM: with If-Range, a 200 answer then delivers the whole body (which
        // `DownloadFile` writes from offset 0) instead of failing with CURLE_RANGE_ERROR.
        if let file, file.resumeOffset > 0 { try set(CURLOPT_RANGE, "\(file.resumeOffset)-") }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        if let headerList { try check(sclm_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)) }
    }

    private func installCallbacks() throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(
            sclm_curl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let length = size * count
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
            })
        try check(sclm_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        try check(
            sclm_curl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context, let data else { return 0 }
                let length = size * count
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length))
                return length
            })
        try check(sclm_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        try set(CURLOPT_NOPROGRESS, 0)
        try check(
            sclm_curl_easy_setopt_xferinfo_callback(easy, CURLOPT_XFERINFOFUNCTION) { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().transferInfo() ? 0 : 1
            })
        try check(sclm_curl_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, context))
        if admission != nil { try installConnectionCheck(context) }
    }

    /// Vetoes each connection the rule does not permit, before libcurl connects.
    ///
    /// `CURLOPT_OPENSOCKETFUNCTION` runs for every address libcurl tries (each Happy Eyeballs candidate,
    /// each address of a name, a proxy's), after its own name resolution and before any packet leaves, so
    /// the address judged is the address connected and a refused service never sees a SYN. The other
    /// ways libcurl 7.88 offers are weaker: `CURLOPT_PREREQFUNCTION` (7.80) runs only after the TCP and TLS
    /// handshakes, when the service has already been reached; pinning with `CURLOPT_RESOLVE` means
    /// resolving the name ourselves, beside libcurl's resolver, and trusting that the two agree.
    private func installConnectionCheck(_ context: UnsafeMutableRawPointer) throws {
        try check(
            sclm_curl_easy_setopt_opensocket_callback(easy, CURLOPT_OPENSOCKETFUNCTION) { context, _, address in
                guard let context, let address else { return sclm_curl_socket_bad() }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().openSocket(address)
            })
        try check(sclm_curl_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context))
    }

    private func set(_ option: CURLoption, _ value: Int) throws {
        try check(sclm_curl_easy_setopt_long(easy, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws {
        try check(value.withCString { sclm_curl_easy_setopt_string(easy, option, $0) })
    }

    private func check(_ code: CURLcode) throws {
        guard code != CURLE_OK else { return }
        throw HTTPError(
            .transport, method: request.method, url: request.url, detail: CurlCode(code).description,
            curlCode: CurlCode(code))
    }

    // MARK: - Callbacks (engine thread)

    /// A socket for `address` when the rule permits connecting there, else `CURL_SOCKET_BAD` (libcurl then
    /// tries the next address, or fails with `CURLE_COULDNT_CONNECT`).
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let offset = MemoryLayout<curl_sockaddr>.offset(of: \.addr) ?? 0
        let endpoint = IPAddress.endpoint(at: UnsafeRawPointer(address) + offset)
        guard let admission, let endpoint, admission.permitsConnection(to: endpoint.address, port: endpoint.port) else {
            if refusedEndpoint == nil {
                refusedEndpoint = endpoint.map { "\($0.address) port \($0.port)" } ?? "an address that is not IP"
            }
            return sclm_curl_socket_bad()
        }
        let kind = address.pointee
        return socket(kind.family, kind.socktype | Int32(SOCK_CLOEXEC.rawValue), kind.protocol)
    }

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        switch HTTPHeader.line(bytes) {
        case .statusLine:
            headerFields = []  // a new response (after a redirect or 100 Continue) starts
        case .field(let field):
            if HTTPHeaders.same(field.name, "Set-Cookie") { receivedCookies = true }
            headerFields.append(field)
        case .ignored:
            break
        }
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !isCancelled else { return false }
        do {
            if !isBodyStarted { try startBody() }
            if bodyGoesToFile, let file {
                try file.append(bytes)
                reportProgress(final: false)
            } else if file != nil {
                let room = max(0, CurlTransfer.errorBodyLimit - body.count)
                body.append(contentsOf: bytes.prefix(room))
                // Only the reason is read from an answer that is not the file: past it, stop the transfer
                // (a hostile server's error body may never end).
                if bytes.count > room { throw HTTPError(response: unwantedResponse, method: request.method) }
            } else {
                guard body.count + bytes.count <= request.maxResponseBytes else {
                    throw HTTPError(
                        .budgetExceeded, method: request.method, url: request.url,
                        detail: "more than \(request.maxResponseBytes) bytes")
                }
                body.append(contentsOf: bytes)
            }
            return true
        } catch {
            failure = error
            return false
        }
    }

    private func transferInfo() -> Bool {
        guard !isCancelled else { return false }
        reportProgress(final: false)
        return true
    }

    /// Called at the first body byte of the final response (or at completion for an empty body).
    private func startBody() throws {
        isBodyStarted = true
        guard let file else { return }
        var length: curl_off_t = -1
        _ = sclm_curl_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        bodyGoesToFile = try file.begin(
            status: responseStatus, headers: HTTPHeaders(headerFields), contentLength: length >= 0 ? Int64(length) : nil
        )
    }

    private func reportProgress(final: Bool) {
        guard let progress, let file, bodyGoesToFile else { return }
        let now = ContinuousClock.now
        if !final, let lastProgress, now - lastProgress < .milliseconds(100) { return }
        lastProgress = now
        progress(
            DownloadProgress(
                fileBytes: file.size, expectedFileBytes: file.expectedSize, receivedBytes: file.received,
                entityTag: file.entityTag))
    }

    /// The answer received so far, for a status that is not the file's content.
    private var unwantedResponse: HTTPResponse {
        HTTPResponse(status: responseStatus, headers: HTTPHeaders(headerFields), body: body, url: request.url)
    }

    private var responseStatus: Int {
        var status = 0
        _ = sclm_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return status
    }

    // MARK: - Completion (engine thread)

    /// The jar lines of the cookies libcurl holds now (`CURLINFO_COOKIELIST`).
    func cookieLines() -> [String] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard sclm_curl_easy_getinfo_slist(easy, CURLINFO_COOKIELIST, &list) == CURLE_OK else { return [] }
        defer { curl_slist_free_all(list) }
        var lines: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }

    /// Finishes the transfer with libcurl's result (or, `cancelled`, with `CancellationError`), frees the
    /// handle and resumes the waiting task.
    func complete(_ code: CurlCode, cancelled: Bool = false) {
        if cancelled { cancel() }
        let result: Result<Completion, any Error>
        if isCancelled {
            result = .failure(CancellationError())
        } else if let failure {
            result = .failure(failure)
        } else if let refusedEndpoint, code == .couldNotConnect {
            result = .failure(
                HTTPError(
                    .destinationRefused, method: request.method, url: request.url,
                    detail: "\(request.url.hostDescription) leads to \(refusedEndpoint)"))
        } else if code != .ok {
            result = .failure(transportError(code))
        } else {
            result = Result { try finishedResponse() }
        }
        file?.closeFile()
        releaseHandle()
        let waiting = continuation
        continuation = nil
        waiting?.resume(with: result)
    }

    private func finishedResponse() throws -> Completion {
        if !isBodyStarted { try startBody() }
        reportProgress(final: true)
        var effective: UnsafeMutablePointer<CChar>?
        _ = sclm_curl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let url = effective.flatMap { URL(string: String(cString: $0)) } ?? request.url
        var redirect: UnsafeMutablePointer<CChar>?
        _ = sclm_curl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect)
        let completion = Completion(
            status: responseStatus, headers: HTTPHeaders(headerFields), body: body, url: url,
            redirectURL: redirect.flatMap { URL(string: String(cString: $0)) })
        if file != nil, ![200, 206, 416].contains(completion.status) {
            let response = HTTPResponse(
                status: completion.status, headers: completion.headers, body: completion.body, url: url)
            throw HTTPError(response: response, method: request.method)
        }
        return completion
    }

    private func transportError(_ code: CurlCode) -> HTTPError {
        let message = String(cString: errorBuffer)
        return HTTPError(
            code.errorCode, method: request.method, url: request.url,
            detail: message.isEmpty ? code.description : message, curlCode: code)
    }

    private func releaseHandle() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        curl_slist_free_all(headerList)
        headerList = nil
    }
}

extension Duration {
    /// The duration in whole milliseconds (at least 1 for a positive duration), as libcurl's `_MS` options take.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        let total = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        return total == 0 && self > .zero ? 1 : total
    }
}

import CCurl

/// A libcurl result code (`CURLcode`), with the ones sclm tells apart named.
public struct CurlCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    init(_ code: CURLcode) { self.rawValue = Int32(bitPattern: code.rawValue) }

    public static let ok = CurlCode(rawValue: 0)
    public static let unsupportedProtocol = CurlCode(rawValue: 1)
    public static let failedInit = CurlCode(rawValue: 2)
    public static let urlMalformed = CurlCode(rawValue: 3)
    public static let couldNotResolveProxy = CurlCode(rawValue: 5)
    public static let couldNotResolveHost = CurlCode(rawValue: 6)
    public static let couldNotConnect = CurlCode(rawValue: 7)
    public static let weirdServerReply = CurlCode(rawValue: 8)
    public static let http2 = CurlCode(rawValue: 16)
    public static let partialFile = CurlCode(rawValue: 18)
    public static let writeError = CurlCode(rawValue: 23)
    public static let operationTimedOut = CurlCode(rawValue: 28)
    public static let rangeError = CurlCode(rawValue: 33)
    public static let sslConnectError = CurlCode(rawValue: 35)
    public static let abortedByCallback = CurlCode(rawValue: 42)
    public static let tooManyRedirects = CurlCode(rawValue: 47)
    public static let gotNothing = CurlCode(rawValue: 52)
    public static let sslEngineNotFound = CurlCode(rawValue: 53)
    public static let sslEngineSetFailed = CurlCode(rawValue: 54)
    public static let sendError = CurlCode(rawValue: 55)
    public static let receiveError = CurlCode(rawValue: 56)
    public static let sslCertificateProblem = CurlCode(rawValue: 58)
    public static let sslCipher = CurlCode(rawValue: 59)
    public static let peerFailedVerification = CurlCode(rawValue: 60)
    public static let badContentEncoding = CurlCode(rawValue: 61)
    public static let sslCACertificateBadFile = CurlCode(rawValue: 77)
    public static let sslShutdownFailed = CurlCode(rawValue: 80)
    public static let sslCRLBadFile = CurlCode(rawValue: 82)
    public static let sslIssuerError = CurlCode(rawValue: 83)
    public static let http2Stream = CurlCode(rawValue: 92)
    public static let sslPinnedPublicKeyMismatch = CurlCode(rawValue: 90)
    public static let sslInvalidCertificateStatus = CurlCode(rawValue: 91)

    /// libcurl's fixed text for the code (`curl_easy_strerror`), which holds no request data.
    public var description: String {
        String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(bitPattern: rawValue))))
    }

    /// The failure class this code belongs to.
    var errorCode: HTTPError.Code {
        switch self {
        case .couldNotResolveHost, .couldNotResolveProxy: .offline
        case .couldNotConnect: .connectFailed
        case .operationTimedOut: .timedOut
        case .sslConnectError, .sslEngineNotFound, .sslEngineSetFailed, .sslCertificateProblem, .sslCipher,
            .peerFailedVerification, .sslCACertificateBadFile, .sslShutdownFailed, .sslCRLBadFile, .sslIssuerError,
            .sslPinnedPublicKeyMismatch, .sslInvalidCertificateStatus:
            .tls
        case .partialFile, .gotNothing, .sendError, .receiveError, .http2, .http2Stream: .connectionLost
        case .tooManyRedirects: .tooManyRedirects
        case .unsupportedProtocol: .unsupportedScheme
        case .urlMalformed: .invalidURL
        case .weirdServerReply, .badContentEncoding, .rangeError: .badResponse
        default: .transport
        }
    }
}

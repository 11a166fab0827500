import CCurl

/// A libcurl result code (`CURLcode`), with the ones sclm tells apart named.
package struct CurlCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    init(_ code: CURLcode) { self.rawValue = Int32(bitPattern: code.rawValue) }

    package static let ok = CurlCode(rawValue: 0)
    package static let unsupportedProtocol = CurlCode(rawValue: 1)
    package static let failedInit = CurlCode(rawValue: 2)
    package static let urlMalformed = CurlCode(rawValue: 3)
    package static let couldNotResolveProxy = CurlCode(rawValue: 5)
    package static let couldNotResolveHost = CurlCode(rawValue: 6)
    package static let couldNotConnect = CurlCode(rawValue: 7)
    package static let weirdServerReply = CurlCode(rawValue: 8)
    package static let http2 = CurlCode(rawValue: 16)
    package static let partialFile = CurlCode(rawValue: 18)
    package static let writeError = CurlCode(rawValue: 23)
    package static let operationTimedOut = CurlCode(rawValue: 28)
    package static let rangeError = CurlCode(rawValue: 33)
    package static let sslConnectError = CurlCode(rawValue: 35)
    package static let abortedByCallback = CurlCode(rawValue: 42)
    package static let tooManyRedirects = CurlCode(rawValue: 47)
    package static let gotNothing = CurlCode(rawValue: 52)
    package static let sslEngineNotFound = CurlCode(rawValue: 53)
    package static let sslEngineSetFailed = CurlCode(rawValue: 54)
    package static let sendError = CurlCode(rawValue: 55)
    package static let receiveError = CurlCode(rawValue: 56)
    package static let sslCertificateProblem = CurlCode(rawValue: 58)
    package static let sslCipher = CurlCode(rawValue: 59)
    package static let peerFailedVerification = CurlCode(rawValue: 60)
    package static let badContentEncoding = CurlCode(rawValue: 61)
    package static let sslCACertificateBadFile = CurlCode(rawValue: 77)
    package static let sslShutdownFailed = CurlCode(rawValue: 80)
    package static let sslCRLBadFile = CurlCode(rawValue: 82)
    package static let sslIssuerError = CurlCode(rawValue: 83)
    package static let http2Stream = CurlCode(rawValue: 92)
    package static let sslPinnedPublicKeyMismatch = CurlCode(rawValue: 90)
    package static let sslInvalidCertificateStatus = CurlCode(rawValue: 91)

    /// libcurl's fixed text for the code (`curl_easy_strerror`), which holds no request data.
    package var description: String {
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

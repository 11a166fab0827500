import Foundation

/// A complete HTTP response held in memory (API calls; downloads stream to disk instead).
package struct HTTPResponse: Sendable, Equatable {
    /// The status code of the final response (after redirects).
    package var status: Int
    /// The header fields of the final response.
    package var headers: HTTPHeaders
    /// The body, decoded if it was sent compressed.
    package var body: Data
    /// The URL that answered (after redirects).
    package var url: URL

    /// Creates a response.
    package init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The delay the server asked for in `Retry-After` (seconds or an HTTP date), if any.
    package func retryAfter(now: Date = Date()) -> Duration? {
        headers["Retry-After"].flatMap { RetryAfter.parse($0, now: now) }
    }

    /// A short machine reason from an error body: a JSON `error` code (OAuth, StoryCLM) or an Azure XML
    /// `<Code>`. Only identifier-like text is returned, so nothing the server echoes can leak into messages.
    package var serverReason: String? { ServerReason.extract(from: body) }
}

/// Parsing of the `Retry-After` header (RFC 9110 §10.2.3).
package enum RetryAfter {
    /// The delay in `value`: delta-seconds or an IMF-fixdate relative to `now` (a past date is zero).
    package static func parse(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }
}

/// Extraction of a short, safe failure reason from an error response body.
enum ServerReason {
    static func extract(from body: Data) -> String? {
        guard !body.isEmpty, body.count <= 64 << 10 else { return nil }
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let code = object["error"] as? String
        {
            return sanitized(code)
        }
        let text = String(decoding: body, as: UTF8.self)
        guard let open = text.range(of: "<Code>"),
            let close = text.range(of: "</Code>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return sanitized(String(text[open.upperBound..<close.lowerBound]))
    }

    private static func sanitized(_ text: String) -> String? {
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_-. ".unicodeScalars.contains(scalar))
        }
        return allowed && !text.isEmpty && text.count <= 64 ? text : nil
    }
}

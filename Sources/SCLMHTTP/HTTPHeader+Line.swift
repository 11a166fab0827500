extension HTTPHeader {
    /// What one received header line is.
    package enum Line: Sendable, Equatable {
        /// `HTTP/…`: a new response starts (after a redirect or 100 Continue).
        case statusLine
        /// A header field.
        case field(HTTPHeader)
        /// A line without a colon, or a field whose value holds a bare CR.
        case ignored
    }

    /// Reads one header line as libcurl hands it over, on its bytes (this runs for every header line of every
    /// response).
    ///
    /// libcurl hands over a bare CR inside a value as it came; such a field is ignored, so no header value
    /// built from a response (an ETag sent back as If-Range, say) can carry one into a request.
    package static func line(_ bytes: UnsafeRawBufferPointer) -> Line {
        let line = trimmed(bytes[...])
        if line.starts(with: "HTTP/".utf8) { return .statusLine }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .ignored }
        let name = String(decoding: trimmed(line[..<colon]), as: UTF8.self)
        let value = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
        guard HTTPHeaders.isSafeValue(value) else { return .ignored }
        return .field(HTTPHeader(name: name, value: value))
    }

    /// `bytes` without leading and trailing spaces, tabs, CR and LF (HTTP's optional whitespace and line end).
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }
}

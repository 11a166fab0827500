/// One header field as sent or received.
package struct HTTPHeader: Sendable, Hashable {
    /// The field name as written (lookups ignore case).
    package var name: String
    /// The field value, without surrounding whitespace.
    package var value: String

    /// Creates a header field.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of header fields with case-insensitive lookup; repeated fields (`Set-Cookie`) are kept.
package struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    package private(set) var fields: [HTTPHeader]

    /// Creates headers from fields.
    package init(_ fields: [HTTPHeader] = []) { self.fields = fields }

    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name`, or `nil`.
    package subscript(name: String) -> String? {
        fields.first { HTTPHeaders.same($0.name, name) }?.value
    }

    /// Replaces every field named `name` with one field holding `value`.
    package mutating func set(name: String, value: String) {
        fields.removeAll { HTTPHeaders.same($0.name, name) }
        fields.append(HTTPHeader(name: name, value: value))
    }

    package func makeIterator() -> IndexingIterator<[HTTPHeader]> { fields.makeIterator() }

    /// The symbols a token may hold besides ASCII letters and digits.
    package static let tokenSymbols = "!#$%&'*+-.^_`|~"

    /// Whether `name` is an HTTP field-name token (RFC 9110 §5.6.2: ASCII letters, digits and the symbols ``tokenSymbols``).
    package static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: tokenSymbols.utf8.contains(byte)
                }
            }
    }

    /// Whether `value` can be sent as one header line: no CR, LF or NUL, which would end the line early and
    /// let the rest forge header fields (libcurl sends ``CURLOPT_HTTPHEADER`` lines as given).
    package static func isSafeValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// Whether two field names are the same (ASCII case-insensitive, as header names are).
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
    }
}

import SCLMCore

/// An entry name as stored in a package (raw bytes), checked against the path rules and normalised.
///
/// Normalising drops empty and `.` components and a trailing `/`; the result (``path``) is what the
/// entry is called inside the package (`img/logo.png`). Names that break a path rule still get a
/// best-effort ``path`` so later rules can refer to them, but nothing is ever written under a name that
/// has findings.
struct EntryName {
    /// The raw bytes, exactly as stored.
    let raw: [UInt8]
    /// The name for messages: printable, with control characters and invalid UTF-8 bytes escaped.
    let display: String
    /// The normalised relative path; empty for the package root itself (`./`).
    let path: String
    /// The normalised components.
    let components: [String]
    /// Whether the name ends with `/` (a folder entry).
    let isDirectory: Bool
    /// Path-rule violations of this name.
    private(set) var findings: [Finding] = []

    /// The longest name accepted, in bytes.
    static let maxLength = 1024
    /// The longest component accepted, in bytes (the limit of every common file system).
    static let maxComponentLength = 255

    /// Checks `raw` against the path rules and the depth budget of `policy`.
    init(raw: [UInt8], policy: Policy) {
        self.raw = raw
        let isValidUTF8 = EntryName.isValidUTF8(raw)
        let hasControlCharacter = EntryName.hasControlCharacter(raw)
        self.display = EntryName.displayString(raw, isValidUTF8: isValidUTF8, hasControlCharacter: hasControlCharacter)
        self.isDirectory = raw.last == UInt8(ascii: "/")
        let parts = raw.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .filter { !($0.count == 1 && $0.first == UInt8(ascii: ".")) }
        self.components = parts.map { String(decoding: $0, as: UTF8.self) }
        self.path = components.joined(separator: "/")
        check(parts: parts, policy: policy, isValidUTF8: isValidUTF8, hasControlCharacter: hasControlCharacter)
    }

    private mutating func check(
        parts: [ArraySlice<UInt8>], policy: Policy, isValidUTF8: Bool, hasControlCharacter: Bool
    ) {
        if hasControlCharacter {
            add(
                .pathControlCharacter,
                "the name contains a control, line-separator or text-direction character (shown escaped)")
        }
        if !isValidUTF8 {
            add(.pathInvalidUTF8, "the name is not valid UTF-8")
        }
        if raw.contains(UInt8(ascii: "\\")) {
            add(.pathBackslash, "the name contains a backslash, which players read as part of the file name")
        }
        if raw.first == UInt8(ascii: "/") || EntryName.hasDriveLetter(raw) {
            add(.pathAbsolute, "the name is an absolute path")
        }
        if parts.contains(where: { $0.elementsEqual("..".utf8) }) {
            add(.pathTraversal, "the name contains '..' and would be written outside the package folder")
        }
        if raw.count > EntryName.maxLength || parts.contains(where: { $0.count > EntryName.maxComponentLength }) {
            add(.pathTooLong, "the name is \(raw.count) bytes long (limits: 1,024 per name, 255 per component)")
        }
        if components.count > policy.maxDepth {
            add(
                .budgetDepth, "the entry is nested \(components.count) levels deep (budget \(policy.maxDepth))",
                fix: "Flatten the folder structure to at most \(policy.maxDepth) levels.")
        }
    }

    private mutating func add(_ rule: Rule, _ message: String, fix: String? = nil) {
        findings.append(Finding(rule, path: display, message: message, fix: fix))
    }

    /// `C:` or `c:/…` at the start: a Windows drive path.
    private static func hasDriveLetter(_ raw: [UInt8]) -> Bool {
        raw.count >= 2 && raw[1] == UInt8(ascii: ":")
            && ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(raw[0])
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(raw[0]))
    }

    /// Whether `bytes` are well-formed UTF-8.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var validator = UTF8Validator()
        validator.consume(bytes)
        return validator.isValid
    }

    /// `bytes` as printable text: valid UTF-8 is kept, ASCII control characters become `\n`, `\t`, `\xNN`,
    /// the other unsafe characters (``TerminalText/isUnsafe(_:)``: C1 controls, U+2028/U+2029, bidirectional
    /// controls) `\u{…}`, and in a name that is not valid UTF-8 every non-ASCII byte becomes `\xNN`.
    static func displayString(_ bytes: [UInt8]) -> String {
        displayString(bytes, isValidUTF8: isValidUTF8(bytes), hasControlCharacter: hasControlCharacter(bytes))
    }

    /// Whether `bytes` hold a character ``TerminalText/isUnsafe(_:)`` (C0 and C1 controls, DEL, U+2028/U+2029,
    /// bidirectional controls): such a name can forge lines or disguise a file's name (`gpj.exe` shown as
    /// `exe.jpg`). Invalid UTF-8 sequences decode as U+FFFD, which is safe; they are refused as invalid UTF-8.
    private static func hasControlCharacter(_ bytes: [UInt8]) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.contains { $0 < 0x20 || $0 == 0x7F } }
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.contains(where: TerminalText.isUnsafe)
    }

    private static func displayString(_ bytes: [UInt8], isValidUTF8 valid: Bool, hasControlCharacter: Bool) -> String {
        if valid, !hasControlCharacter { return String(decoding: bytes, as: UTF8.self) }
        var text = ""
        if valid {
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    text += escape(UInt8(scalar.value))
                } else if TerminalText.isUnsafe(scalar) {
                    text += TerminalText.escaping(String(scalar))
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
            return text
        }
        for byte in bytes {
            text += byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : escape(byte)
        }
        return text
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "\\x" + (byte < 0x10 ? "0" : "") + hex
        }
    }
}

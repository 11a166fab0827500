import Foundation

/// Which destinations a transport may reach: every hop of a request (redirects included) and every
/// address it connects to.
///
/// Without a list, the rule is a browser's private-network rule: public hosts only, never a loopback,
/// private, link-local or unspecified address (``IPAddress/isPublic``), whatever name leads there. With a
/// list, only what it names: host names, `*.domain` (its subdomains), IP addresses and CIDR ranges,
/// each optionally with a port. A listed entry allows its destination even when it is private: an
/// exactly listed name may resolve anywhere, a listed address or range allows connecting there. A name
/// matched only by `*.domain` must still lead to a public or a listed address, so a subdomain that an
/// attacker points at `127.0.0.1` stays refused. Ranges never admit names: `127.0.0.1` listed does not
/// let a URL to `localhost` through.
///
/// The rule is decided in two steps, because a name says nothing about where it leads until libcurl
/// resolves it: ``admission(for:)`` judges a URL before its hop starts and says what its connections
/// must then satisfy (``Admission/permitsConnection(to:port:)``).
///
/// ```swift
/// let rule = try NetworkRule(parsing: "api.example.com, *.cdn.example.com, 127.0.0.1:8080, 10.0.0.0/8")
/// ```
package struct NetworkRule: Sendable, Equatable, CustomStringConvertible {
    /// One allowlist entry: a destination and, optionally, the only port it may be reached on.
    package struct Entry: Sendable, Equatable, CustomStringConvertible {
        /// What an entry names.
        package enum Target: Sendable, Equatable {
            /// Exactly this host name (lowercased, without a trailing dot).
            case name(String)
            /// Any subdomain of this domain (`*.example.com`: `a.example.com`, not `example.com`).
            case subdomains(of: String)
            /// Any address of this range (a single address is a full-length range).
            case range(IPRange)
        }

        /// The destination.
        package let target: Target
        /// The only port allowed; `nil` allows any.
        package let port: Int?

        /// Creates an entry.
        package init(_ target: Target, port: Int? = nil) {
            self.target = target
            self.port = port
        }

        /// Whether the entry names `host` (a name) on `port`.
        func matches(name host: String, port: Int) -> Bool {
            guard self.port == nil || self.port == port else { return false }
            switch target {
            case .name(let name): return host == name
            case .subdomains(let domain): return host.hasSuffix("." + domain)
            case .range: return false
            }
        }

        /// Whether the entry's range holds `address` on `port`.
        func matches(address: IPAddress, port: Int) -> Bool {
            guard self.port == nil || self.port == port, case .range(let range) = target else { return false }
            return range.contains(address)
        }

        package var description: String {
            let host: String
            switch target {
            case .name(let name): host = name
            case .subdomains(let domain): host = "*." + domain
            case .range(let range):
                let full = range.prefixLength == range.network.bytes.count * 8
                let text = full ? range.network.description : range.description
                host = range.network.isIPv4 || port == nil ? text : "[\(text)]"
            }
            return port.map { "\(host):\($0)" } ?? host
        }
    }

    /// What connections of one admitted hop must satisfy.
    package struct Admission: Sendable, Equatable {
        fileprivate enum Requirement: Sendable, Equatable {
            /// The host itself is listed: wherever it resolves is allowed.
            case anyAddress
            /// The private-network rule: public addresses only.
            case publicAddress
            /// A public address, or one a listed range holds.
            case publicOrListedAddress
        }
        fileprivate let requirement: Requirement
        fileprivate let entries: [Entry]

        /// Whether the hop may connect to `address` on `port` (the address libcurl is about to connect to,
        /// which is a proxy's when one is used).
        package func permitsConnection(to address: IPAddress, port: Int) -> Bool {
            switch requirement {
            case .anyAddress: true
            case .publicAddress: address.isPublic
            case .publicOrListedAddress:
                address.isPublic || entries.contains { $0.matches(address: address, port: port) }
            }
        }
    }

    /// The allowlist; `nil` for the private-network rule.
    package let entries: [Entry]?

    /// The private-network rule: public hosts only.
    package static let publicOnly = NetworkRule(entries: nil)

    /// A rule that allows only `entries`, or the private-network rule for `nil`.
    package init(entries: [Entry]?) { self.entries = entries }

    /// Parses a comma-separated allowlist (`bridge.httpAllowedHosts`); an empty one is ``publicOnly``.
    ///
    /// - Throws: ``NetworkRule/ParseError`` naming the first entry that is not a host name, `*.domain`,
    ///   IP address (IPv6 in brackets when a port follows) or CIDR range, or whose port is not 1–65535.
    package init(parsing list: String) throws {
        let texts = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var entries: [Entry] = []
        for text in texts {
            guard let entry = NetworkRule.entry(text) else { throw ParseError(entry: text) }
            entries.append(entry)
        }
        self.init(entries: entries.isEmpty ? nil : entries)
    }

    /// An allowlist entry that could not be parsed.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The entry as written.
        package let entry: String

        package var description: String {
            "'\(entry.prefix(80))' is not a host name, *.domain, IP address or CIDR range (each optionally with"
                + " :PORT, an IPv6 address in brackets then)"
        }
    }

    // MARK: - Decisions

    /// Whether a hop to `url` may start, and if so what its connections must satisfy; `nil` refuses it
    /// (also a URL libcurl cannot parse).
    ///
    /// The host and port are libcurl's reading of the URL, the one it connects by.
    package func admission(for url: URL) -> Admission? {
        CurlURL.authority(of: url).flatMap { admission(forHost: $0.host, port: $0.port) }
    }

    /// Whether a hop to `host` (a name or an IP literal, IPv6 with or without brackets) on `port` may
    /// start, and if so what its connections must satisfy; `nil` refuses it.
    package func admission(forHost host: String, port: Int) -> Admission? {
        let host = NetworkRule.normalizedHost(host)
        guard !host.isEmpty else { return nil }
        guard let entries else {
            if let address = IPAddress(host), !address.isPublic { return nil }
            return Admission(requirement: .publicAddress, entries: [])
        }
        let isListed: Bool
        if let address = IPAddress(host) {
            isListed = entries.contains { $0.matches(address: address, port: port) }
        } else {
            if entries.contains(where: { $0.target == .name(host) && $0.matches(name: host, port: port) }) {
                return Admission(requirement: .anyAddress, entries: entries)
            }
            isListed = entries.contains { $0.matches(name: host, port: port) }
        }
        return isListed ? Admission(requirement: .publicOrListedAddress, entries: entries) : nil
    }

    package var description: String {
        entries.map { $0.map(\.description).joined(separator: ",") } ?? "public hosts only"
    }

    // MARK: - Parsing

    /// One entry: `NAME`, `*.DOMAIN`, `IPv4[/LEN]`, `[IPv6[/LEN]]` or bare `IPv6[/LEN]`, then an optional
    /// `:PORT` (not after a bare IPv6 address, whose colons would make it ambiguous).
    private static func entry(_ text: String) -> Entry? {
        let (host, portText) = splitPort(text)
        var port: Int?
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText),
                (1...65_535).contains(number)
            else { return nil }
            port = number
        }
        if host.hasPrefix("[") || host.contains(":") || host.first?.isNumber == true, let range = IPRange(host) {
            return Entry(.range(range), port: port)
        }
        let name = normalizedHost(host)
        if name.hasPrefix("*.") {
            let domain = String(name.dropFirst(2))
            return isHostName(domain) ? Entry(.subdomains(of: domain), port: port) : nil
        }
        return isHostName(name) && IPAddress(name) == nil && !name.contains("/") ? Entry(.name(name), port: port) : nil
    }

    /// `text` split into host and port: `[v6]:port`, `host:port`; a bare IPv6 address keeps its colons.
    private static func splitPort(_ text: String) -> (host: String, port: String?) {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let rest = text[text.index(after: close)...]
            let host = String(text[...close])
            return rest.isEmpty ? (host, nil) : (rest.hasPrefix(":") ? (host, String(rest.dropFirst())) : (text, nil))
        }
        let colons = text.count { $0 == ":" }
        guard colons == 1, let colon = text.firstIndex(of: ":") else { return (text, nil) }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// Whether `name` is a DNS host name: dot-separated labels of letters, digits, `-` and `_`.
    private static func isHostName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        // A numeric last label is a mistyped address (`10.0.0.256`), not a name.
        return !name.isEmpty && name.utf8.count <= 253 && labels.last?.allSatisfy(\.isNumber) == false
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            }
    }

    /// A host as compared: lowercased, without brackets or a trailing dot.
    static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}

import SCLMHTTP

/// The network allowlist (`NetworkRule(parsing:)`, `sclm config set network.allow`), then admissions
/// asked of it, and the input read as an address and a range as the rule's parts read them.
enum NetworkRuleTarget {
    private static let hosts = [
        "127.0.0.1", "localhost", "example.com", "::1", "10.1.2.3", "[fe80::1]", "xn--bcher-kva.de",
    ]

    static func fuzz(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = IPAddress(text)
        _ = IPRange(text)
        guard let rule = try? NetworkRule(parsing: text) else { return }
        _ = rule.description
        for host in hosts + [text] {
            for port in [80, 443, 8080] { _ = rule.admission(forHost: host, port: port) }
        }
    }
}

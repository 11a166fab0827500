import Foundation
import SCLMHTTP
import SCLMTestSupport
import Testing

/// ``IPAddress``, ``IPRange`` and ``NetworkRule``: parsing, classification and decisions, no I/O.
@Suite(.tags(.small)) struct NetworkRuleTests {
    // MARK: - Addresses

    @Test func addressesParseWithInetPtonOnly() throws {
        #expect(IPAddress("127.0.0.1")?.bytes == [127, 0, 0, 1])
        #expect(IPAddress("::1")?.bytes == Array(repeating: 0, count: 15) + [1])
        #expect(IPAddress("[::1]") == IPAddress("::1"))
        // The shorthand forms a URL parser may accept are not literals here; the connection check sees
        // the address they lead to.
        for text in ["127.1", "0x7f.0.0.1", "2130706433", "127.0.0.1.", "fe80::1%eth0", "localhost", "1.2.3.4.5", ""] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }

    @Test func anIPv4MappedIPv6AddressIsItsIPv4Address() throws {
        let mapped = try #require(IPAddress("::ffff:127.0.0.1"))
        #expect(mapped == IPAddress("127.0.0.1"))
        #expect(mapped.isIPv4)
        #expect(IPAddress("[::ffff:7f00:1]") == IPAddress("127.0.0.1"))
        #expect(IPAddress("::ffff:10.1.2.3")?.description == "10.1.2.3")
        #expect(IPAddress("::1")?.description == "::1")
    }

    struct Classification: Sendable, CustomTestStringConvertible {
        let address: String
        let isPublic: Bool
        var testDescription: String { "\(address) \(isPublic ? "public" : "not public")" }
    }

    @Test(arguments: [
        Classification(address: "127.0.0.1", isPublic: false),
        Classification(address: "127.255.255.254", isPublic: false),
        Classification(address: "10.0.0.0", isPublic: false),
        Classification(address: "10.255.255.255", isPublic: false),
        Classification(address: "172.15.255.255", isPublic: true),
        Classification(address: "172.16.0.0", isPublic: false),
        Classification(address: "172.31.255.255", isPublic: false),
        Classification(address: "172.32.0.0", isPublic: true),
        Classification(address: "192.167.255.255", isPublic: true),
        Classification(address: "192.168.0.1", isPublic: false),
        Classification(address: "169.254.169.254", isPublic: false),
        Classification(address: "169.255.0.1", isPublic: true),
        Classification(address: "0.0.0.0", isPublic: false), Classification(address: "8.8.8.8", isPublic: true),
        Classification(address: "::", isPublic: false), Classification(address: "::1", isPublic: false),
        Classification(address: "::2", isPublic: true), Classification(address: "fc00::1", isPublic: false),
        Classification(address: "fdff:ffff::1", isPublic: false), Classification(address: "fe00::1", isPublic: true),
        Classification(address: "fe80::1", isPublic: false), Classification(address: "febf::1", isPublic: false),
        Classification(address: "fec0::1", isPublic: true), Classification(address: "2001:db8::1", isPublic: true),
        Classification(address: "::ffff:127.0.0.1", isPublic: false),
        Classification(address: "::ffff:192.168.1.1", isPublic: false),
        Classification(address: "::ffff:0.0.0.0", isPublic: false),
        Classification(address: "::ffff:8.8.8.8", isPublic: true),
    ])
    func loopbackPrivateLinkLocalAndUnspecifiedAreNotPublic(_ example: Classification) throws {
        #expect(try #require(IPAddress(example.address)).isPublic == example.isPublic)
    }

    // MARK: - Ranges

    @Test func rangeEdgesAreExact() throws {
        let range = try #require(IPRange("172.16.0.0/12"))
        #expect(range.contains(try #require(IPAddress("172.16.0.0"))))
        #expect(range.contains(try #require(IPAddress("172.31.255.255"))))
        #expect(!range.contains(try #require(IPAddress("172.15.255.255"))))
        #expect(!range.contains(try #require(IPAddress("172.32.0.0"))))
        let everything = try #require(IPRange("0.0.0.0/0"))
        #expect(everything.contains(try #require(IPAddress("255.255.255.255"))))
        #expect(!everything.contains(try #require(IPAddress("::1"))))
        let one = try #require(IPRange("192.0.2.7/32"))
        #expect(one.contains(try #require(IPAddress("192.0.2.7"))))
        #expect(!one.contains(try #require(IPAddress("192.0.2.6"))))
        let unique = try #require(IPRange("[fc00::]/7"))
        #expect(unique.contains(try #require(IPAddress("fdff::1"))))
        #expect(!unique.contains(try #require(IPAddress("fe00::"))))
        #expect(IPRange("10.1.2.3/8") == IPRange("10.0.0.0/8"))
        #expect(IPRange("::ffff:10.0.0.0/104") == IPRange("10.0.0.0/8"))
        #expect(IPRange("::1/128")?.contains(try #require(IPAddress("::1"))) == true)
    }

    @Test(arguments: [
        "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/", "10.0.0.0/8x", "10.0.0.0/+8", "::/129", "::ffff:10.0.0.0/95",
        "10.0.0/8", "x/8",
    ])
    func malformedRangesAreRefused(_ text: String) {
        #expect(IPRange(text) == nil)
    }

    // MARK: - Allowlist syntax

    struct EntryCase: Sendable, CustomTestStringConvertible {
        let text: String
        let entry: NetworkRule.Entry
        var testDescription: String { text }
    }

    static func range(_ text: String) -> NetworkRule.Entry.Target {
        IPRange(text).map { .range($0) } ?? .name("invalid range \(text)")
    }

    static let entries: [EntryCase] = [
        .init(text: "api.example.com", entry: .init(.name("api.example.com"))),
        .init(text: "API.Example.COM.", entry: .init(.name("api.example.com"))),
        .init(text: "localhost:8080", entry: .init(.name("localhost"), port: 8080)),
        .init(text: "*.cdn.example.com", entry: .init(.subdomains(of: "cdn.example.com"))),
        .init(text: "*.example.com:443", entry: .init(.subdomains(of: "example.com"), port: 443)),
        .init(text: "127.0.0.1", entry: .init(range("127.0.0.1/32"))),
        .init(text: "127.0.0.1:8080", entry: .init(range("127.0.0.1/32"), port: 8080)),
        .init(text: "10.0.0.0/8", entry: .init(range("10.0.0.0/8"))),
        .init(text: "10.0.0.0/8:443", entry: .init(range("10.0.0.0/8"), port: 443)),
        .init(text: "::1", entry: .init(range("::1/128"))),
        .init(text: "[::1]", entry: .init(range("::1/128"))),
        .init(text: "[::1]:8080", entry: .init(range("::1/128"), port: 8080)),
        .init(text: "fc00::/7", entry: .init(range("fc00::/7"))),
        .init(text: "[fd00::/8]:65535", entry: .init(range("fd00::/8"), port: 65535)),
        .init(text: "::ffff:127.0.0.1", entry: .init(range("127.0.0.1/32"))),
        .init(text: "1password.com", entry: .init(.name("1password.com"))),
    ]

    @Test(arguments: entries) func allowlistEntriesParse(_ example: EntryCase) throws {
        let rule = try NetworkRule(parsing: example.text)
        #expect(rule.entries == [example.entry])
    }

    @Test(arguments: [
        "a b", "http://example.com", "example.com/path", "*", "*.", "*.*.example.com", "ex*ample.com", "example.com:0",
        "example.com:65536", "example.com:", "example.com:80:81", ":8080", "[::1]x", "[::1]:", "[::1]:http",
        "10.0.0.256", "10.0.0.0/33", "[127.0.0.1/8", "exa_mple..com", "user@example.com",
    ])
    func malformedEntriesAreRefusedByName(_ text: String) {
        let error = #expect(throws: NetworkRule.ParseError.self) { try NetworkRule(parsing: "ok.example, \(text)") }
        #expect(error?.entry == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func anEmptyListIsThePrivateNetworkRule() throws {
        #expect(try NetworkRule(parsing: "") == .publicOnly)
        #expect(try NetworkRule(parsing: " , ,") == .publicOnly)
        #expect(
            try NetworkRule(parsing: "a.example, [::1]:80, 10.0.0.0/8").description == "a.example,[::1]:80,10.0.0.0/8")
    }

    // MARK: - Decisions

    private func admission(_ rule: NetworkRule, _ url: String) -> NetworkRule.Admission? {
        URL(string: url).flatMap { rule.admission(for: $0) }
    }

    private func address(_ text: String) -> IPAddress { IPAddress(text) ?? IPAddress("0.0.0.0").unsafelyUnwrapped }

    @Test func withoutAListNamesPassButOnlyToPublicAddresses() throws {
        let hop = try #require(admission(.publicOnly, "http://localhost:8080/"))
        #expect(!hop.permitsConnection(to: address("127.0.0.1"), port: 8080))
        #expect(!hop.permitsConnection(to: address("::1"), port: 8080))
        #expect(!hop.permitsConnection(to: address("::ffff:192.168.0.10"), port: 8080))
        #expect(hop.permitsConnection(to: address("93.184.216.34"), port: 8080))
        #expect(admission(.publicOnly, "http://127.0.0.1/") == nil)
        #expect(admission(.publicOnly, "http://[::1]:8080/") == nil)
        #expect(admission(.publicOnly, "http://[::ffff:127.0.0.1]/") == nil)
        #expect(admission(.publicOnly, "https://93.184.216.34/") != nil)
    }

    /// The hop is judged on libcurl's reading of the URL, which turns numeric IPv4 forms into the address
    /// it would connect to; what libcurl cannot parse is refused.
    @Test(arguments: [
        "http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://0177.0.0.1/", "http://127.0.0.1./",
        "http://[0:0:0:0:0:0:0:1]/", "http://[::FFFF:127.0.0.1]/", "http://LOCALHOST:8080@127.0.0.1/",
    ])
    func numericAndUnusualSpellingsOfLoopbackAreRefusedWithoutAList(_ url: String) {
        #expect(admission(.publicOnly, url) == nil)
    }

    @Test func aListedAddressDoesNotAdmitANameLeadingThere() throws {
        let rule = try NetworkRule(parsing: "127.0.0.1")
        let hop = try #require(admission(rule, "http://127.0.0.1:5000/redir"))
        #expect(hop.permitsConnection(to: address("127.0.0.1"), port: 5000))
        #expect(!hop.permitsConnection(to: address("127.0.0.2"), port: 5000))
        #expect(admission(rule, "http://localhost:5001/leak") == nil)
        #expect(admission(rule, "http://[::1]:5001/leak") == nil)
        #expect(admission(rule, "http://[::ffff:127.0.0.1]:5001/") != nil)
    }

    @Test func portsRestrictTheirEntry() throws {
        let rule = try NetworkRule(parsing: "127.0.0.1:8080, [::1]:8081, api.example.com:443, *.example.org:8443")
        #expect(admission(rule, "http://127.0.0.1:8080/") != nil)
        #expect(admission(rule, "http://127.0.0.1:8081/") == nil)
        #expect(admission(rule, "http://127.0.0.1/") == nil)
        #expect(admission(rule, "http://[::1]:8081/") != nil)
        #expect(admission(rule, "http://[::1]:8080/") == nil)
        #expect(admission(rule, "https://api.example.com/") != nil)
        #expect(admission(rule, "http://api.example.com/") == nil)
        #expect(admission(rule, "https://a.example.org:8443/") != nil)
        #expect(admission(rule, "https://a.example.org/") == nil)
    }

    @Test func anExactlyListedNameMayBePrivateAWildcardNameMayNot() throws {
        let rule = try NetworkRule(parsing: "localhost:8080, *.example.com, 10.0.0.0/8")
        let exact = try #require(admission(rule, "http://LOCALHOST.:8080/"))
        #expect(exact.permitsConnection(to: address("127.0.0.1"), port: 8080))
        let wildcard = try #require(admission(rule, "https://evil.example.com/"))
        #expect(!wildcard.permitsConnection(to: address("127.0.0.1"), port: 443))
        #expect(wildcard.permitsConnection(to: address("10.1.2.3"), port: 443))
        #expect(wildcard.permitsConnection(to: address("93.184.216.34"), port: 443))
        #expect(admission(rule, "https://example.com/") == nil)
        #expect(admission(rule, "http://other.test/") == nil)
        #expect(admission(rule, "http://10.9.9.9:1234/") != nil)
    }
}

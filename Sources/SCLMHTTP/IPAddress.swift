import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address as its network-order bytes, parsed and printed with `inet_pton`/`inet_ntop`.
///
/// An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is stored as the IPv4 address it stands for, so the
/// two spellings of one destination compare, match ranges and classify alike.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 bytes (IPv6).
    package let bytes: [UInt8]

    /// Whether this is an IPv4 address.
    package var isIPv4: Bool { bytes.count == 4 }

    /// Parses an IPv4 literal (`127.0.0.1`, dotted quad only, as `inet_pton` takes it) or an IPv6 literal
    /// (`::1`, optionally in brackets); `nil` for anything else, names and zone ids (`fe80::1%eth0`) included.
    package init?(_ text: String) {
        var literal = Substring(text)
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        if let bytes = Self.parse(String(literal), family: AF_INET, count: 4) {
            self.init(bytes: bytes)
        } else if let bytes = Self.parse(String(literal), family: AF_INET6, count: 16) {
            self.init(bytes: bytes)
        } else {
            return nil
        }
    }

    /// An address from 4 or 16 network-order bytes; an IPv4-mapped IPv6 address becomes its IPv4 address.
    init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self.bytes = bytes
        case 16 where bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF:
            self.bytes = Array(bytes[12...])
        case 16: self.bytes = bytes
        default: return nil
        }
    }

    private static func parse(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let parsed = bytes.withUnsafeMutableBytes { buffer in inet_pton(family, text, buffer.baseAddress) }
        return parsed == 1 ? bytes : nil
    }

    /// The address and port of a socket address (`sockaddr_in` or `sockaddr_in6`), or `nil` for another family.
    ///
    /// `pointer` must point at storage as large as its family's structure (libcurl's `curl_sockaddr`
    /// holds a `sockaddr_storage`, although its field is declared `struct sockaddr`).
    static func endpoint(at pointer: UnsafeRawPointer) -> (address: IPAddress, port: Int)? {
        switch Int32(pointer.load(as: sockaddr.self).sa_family) {
        case AF_INET:
            let inet = pointer.load(as: sockaddr_in.self)
            let bytes = withUnsafeBytes(of: inet.sin_addr) { Array($0) }
            return IPAddress(bytes: bytes).map { ($0, Int(UInt16(bigEndian: inet.sin_port))) }
        case AF_INET6:
            let inet6 = pointer.load(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: inet6.sin6_addr) { Array($0) }
            return IPAddress(bytes: bytes).map { ($0, Int(UInt16(bigEndian: inet6.sin6_port))) }
        default:
            return nil
        }
    }

    // MARK: - Classification

    /// The ranges a browser's private-network rule keeps content away from: loopback, private,
    /// link-local and unspecified addresses (RFC 1122, 1918, 3927, 4291, 4193).
    static let nonPublicRanges: [IPRange] = [
        "0.0.0.0/8", "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
        "::/128", "::1/128", "fc00::/7", "fe80::/10",
    ].compactMap { IPRange($0) }

    /// Whether the address is outside every loopback, private, link-local and unspecified range.
    package var isPublic: Bool { !Self.nonPublicRanges.contains { $0.contains(self) } }

    /// The address as `inet_ntop` writes it (`127.0.0.1`, `::1`).
    package var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { buffer in
            inet_ntop(isIPv4 ? AF_INET : AF_INET6, buffer.baseAddress, &text, socklen_t(text.count))
        }
        return written == nil
            ? "?" : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A CIDR range of addresses (`10.0.0.0/8`, `fc00::/7`); a single address is a range of its full length.
package struct IPRange: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the range (host bits cleared).
    package let network: IPAddress
    /// How many leading bits every address of the range shares with ``network``.
    package let prefixLength: Int

    /// A range of one address.
    package init(_ address: IPAddress) {
        network = address
        prefixLength = address.bytes.count * 8
    }

    /// Parses `ADDRESS` or `ADDRESS/LENGTH` (IPv6 optionally in brackets: `[fc00::]/7`, `[fc00::/7]`);
    /// host bits are cleared, so
    /// `10.1.2.3/8` is `10.0.0.0/8`. A mapped IPv6 range of at least 96 bits becomes its IPv4 range.
    package init?(_ text: String) {
        let unbracketed = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        let parts = unbracketed.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        var literal = String(parts[0])
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        guard let written = IPAddress(literal) else { return nil }
        let isMapped = written.isIPv4 && literal.contains(":")
        guard parts.count == 2 else {
            self.init(written)
            return
        }
        guard parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber), var length = Int(parts[1]) else {
            return nil
        }
        if isMapped {
            guard length >= 96 else { return nil }
            length -= 96
        }
        guard length <= written.bytes.count * 8 else { return nil }
        self.init(network: IPRange.masked(written, to: length), prefixLength: length)
    }

    private init(network: IPAddress, prefixLength: Int) {
        self.network = network
        self.prefixLength = prefixLength
    }

    /// Whether `address` is in the range (always false across IPv4 and IPv6).
    package func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && IPRange.masked(address, to: prefixLength) == network
    }

    /// `address` with every bit after the first `length` cleared.
    private static func masked(_ address: IPAddress, to length: Int) -> IPAddress {
        let bytes = address.bytes.enumerated().map { index, byte -> UInt8 in
            let kept = min(8, max(0, length - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
        return IPAddress(bytes: bytes) ?? address
    }

    package var description: String { "\(network)/\(prefixLength)" }
}

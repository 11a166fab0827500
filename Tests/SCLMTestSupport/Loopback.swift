import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the machine's loopback interface offers, for tests that need both address families.
package enum Loopback {
    /// Whether a socket can bind `[::1]` (a kernel without IPv6, or with it disabled, cannot).
    package static let hasIPv6: Bool = {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()
}

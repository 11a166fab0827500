import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A socket on 127.0.0.1 that a test owns and hostile content aims at; afterwards it says whether
/// anything reached it.
///
/// Nothing is accepted or read while the run goes on: a TCP connection waits in the listen backlog and a
/// UDP datagram in the receive buffer, so one look after the run sees everything that arrived.
package final class LoopbackTrap: Sendable {
    /// TCP (a listener) or UDP.
    package enum Kind: Sendable {
        case tcp, udp
    }

    /// The port it is bound to.
    package let port: Int
    private let descriptor: Int32
    private let kind: Kind

    /// Binds 127.0.0.1:`port` (0: any free port).
    ///
    /// - Throws: `POSIXError` when the socket cannot be bound.
    package init(_ kind: Kind, port: Int = 0) throws {
        self.kind = kind
        let type = kind == .tcp ? SOCK_STREAM : SOCK_DGRAM
        let descriptor = socket(AF_INET, Int32(type.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard descriptor >= 0, bound, kind == .udp || listen(descriptor, 64) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            if descriptor >= 0 { close(descriptor) }
            throw POSIXError(code)
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// Whether a connection (TCP) or a datagram (UDP) arrived.
    package var wasReached: Bool {
        switch kind {
        case .tcp:
            let connection = accept(descriptor, nil, nil)
            if connection >= 0 { close(connection) }
            return connection >= 0
        case .udp:
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0
        }
    }
}

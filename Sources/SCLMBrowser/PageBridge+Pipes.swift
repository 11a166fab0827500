import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pipes between a page bridge and its ``BridgeServer``.
extension PageBridge {
    /// Reads `fileDescriptor` on a thread of its own and yields each line (without its newline) until it ends.
    func readLines(_ fileDescriptor: Int32, into continuation: AsyncStream<[UInt8]>.Continuation) {
        let thread = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in buffer[0..<count] {
                    if byte == 0x0A {
                        continuation.yield(pending)
                        pending.removeAll(keepingCapacity: true)
                    } else {
                        pending.append(byte)
                    }
                }
            }
            continuation.finish()
        }
        thread.name = "sclm-page-bridge"
        thread.start()
    }
}

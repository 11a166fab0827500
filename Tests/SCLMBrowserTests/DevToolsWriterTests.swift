import Foundation
import SCLMCore
import Testing

@testable import SCLMBrowser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The DevTools writer stops before its pipe closes, so a late command never lands on a reused descriptor.
@Suite struct DevToolsWriterTests {
    /// Everything readable now from `descriptor` (made non-blocking).
    static func available(_ descriptor: Int32) -> String {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(descriptor, &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aCommandSentAfterStopWritingReachesNoDescriptor() throws {
        var first: [Int32] = [0, 0]
        try #require(pipe(&first) == 0)
        defer { close(first[0]) }
        let connection = DevToolsConnection(commands: first[1])
        connection.send("Before.stop")
        connection.stopWriting()
        connection.send("After.stop")
        close(first[1])
        // The lowest free number is the one just closed: a late write would land in this pipe.
        var reused: [Int32] = [0, 0]
        try #require(pipe(&reused) == 0)
        defer { close(reused[0]); close(reused[1]) }
        connection.stopWriting()
        let written = Self.available(first[0])
        #expect(written.contains("Before.stop") && !written.contains("After.stop"), "\(written)")
        #expect(Self.available(reused[0]).isEmpty)
    }
}

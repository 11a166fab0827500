import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMAnalytics

/// `s-m-ns` from a fake `/sys/class/net`: loopback and interfaces that are down never count; a wireless
/// interface that is up wins over a wired one, whatever the listing order.
@Suite(.tags(.small)) struct NetworkStatusTests {
    /// Interfaces as (name, operstate, wireless).
    typealias Interface = (name: String, state: String, wireless: Bool)

    static func status(_ interfaces: [Interface]) throws -> String {
        let root = TemporaryDirectory()
        for interface in interfaces {
            try root.write(interface.state + "\n", to: "\(interface.name)/operstate")
            if interface.wireless {
                try FileSystem.makeDirectory(root.appending("\(interface.name)/wireless"), mode: 0o755)
            }
        }
        return NetworkStatus.current(root: root.path)
    }

    @Test func reportsNoneWithOnlyLoopbackOrInterfacesThatAreDown() throws {
        #expect(try Self.status([]) == "none")
        #expect(try Self.status([("lo", "up", false), ("eth0", "down", false), ("wlan0", "dormant", true)]) == "none")
    }

    @Test func reportsLANForAWiredInterfaceThatIsUp() throws {
        #expect(try Self.status([("lo", "up", false), ("eth0", "up", false), ("wlan0", "down", true)]) == "LAN")
    }

    @Test func aWirelessInterfaceThatIsUpWinsWhateverTheOrder() throws {
        #expect(try Self.status([("aa0", "up", false), ("wlan0", "up", true), ("zz0", "up", false)]) == "Wi-Fi")
    }
}

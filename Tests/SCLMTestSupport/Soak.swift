import Foundation

/// How long seeded property and fault runs go on: short in `make test`, long under `make soak`
/// (`SCLM_SOAK=1`), so that the everyday run stays within its time budget and the long one still exists.
package enum Soak {
    /// Whether this is a soak run (`SCLM_SOAK=1` in the environment).
    package static let isOn: Bool = ProcessInfo.processInfo.environment["SCLM_SOAK"] == "1"

    /// The number of iterations to run: `quick` normally, `soak` in a soak run.
    package static func iterations(_ quick: Int, soak: Int) -> Int { isOn ? soak : quick }
}

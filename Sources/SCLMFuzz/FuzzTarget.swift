/// One parser of untrusted bytes as a fuzz target: a name (the folder of its corpus under `Tests/Fuzz/`)
/// and a plain function of bytes that must return, whatever the bytes, without trapping.
///
/// `make test` replays every corpus and crash file through ``fuzz``; `make fuzz` links the same function
/// into a libFuzzer harness (`scripts/fuzz.sh`).
package struct FuzzTarget: Sendable {
    /// The target's name: `json`, `zip`, `http`, …
    package let name: String
    /// Runs the parser on one input.
    package let fuzz: @Sendable ([UInt8]) -> Void

    /// Creates a target.
    package init(_ name: String, _ fuzz: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.fuzz = fuzz
    }

    /// Every target, in the order `make fuzz` runs them.
    package static let all: [FuzzTarget] = [
        FuzzTarget("json", JSONParserTarget.fuzz),
        FuzzTarget("config", ConfigurationTarget.fuzz),
        FuzzTarget("bridge", BridgeLineTarget.fuzz),
        FuzzTarget("devtools", DevToolsTarget.fuzz),
        FuzzTarget("http", HTTPHeadersTarget.fuzz),
        FuzzTarget("resume", ResumeRecordTarget.fuzz),
        FuzzTarget("network-rule", NetworkRuleTarget.fuzz),
        FuzzTarget("content", ContentTarget.fuzz),
        FuzzTarget("slide-meta", SlideMetaTarget.fuzz),
        FuzzTarget("folder", PackageFolderTarget.fuzz),
        FuzzTarget("zip", ZipReaderTarget.fuzz),
        FuzzTarget("delta-directory", DeltaDirectoryTarget.fuzz),
        FuzzTarget("png", PNGTarget.fuzz),
    ]

    /// The target called `name`, if there is one.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

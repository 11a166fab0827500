import Foundation

/// Metrics in the Prometheus text exposition format (version 0.0.4), for node_exporter's textfile collector.
///
/// node_exporter rejects samples with timestamps, so none carries one; times are gauges in Unix seconds or
/// seconds. Every metric is a gauge with `# HELP` and `# TYPE`, label values escaped as the format wants.
package struct PrometheusText: Sendable {
    /// One sample: its labels (name, value) and value.
    package typealias Sample = (labels: [(String, String)], value: Double)

    /// One metric family: its name, help and samples.
    private struct Family: Sendable {
        let name: String
        let help: String
        let samples: [Sample]
    }

    private var families: [Family] = []

    /// No metrics yet.
    package init() {}

    /// Adds family `name` (a gauge) with `help` and `samples` (none: only its help and type).
    package mutating func add(_ name: String, _ help: String, _ samples: [([(String, String)], Double)]) {
        families.append(Family(name: name, help: help, samples: samples.map { (labels: $0.0, value: $0.1) }))
    }

    /// The text format: `# HELP`, `# TYPE … gauge` and the samples of each family, ending in a line break.
    package var text: String {
        families.map { family in
            var lines = ["# HELP \(family.name) \(Self.escapedHelp(family.help))", "# TYPE \(family.name) gauge"]
            lines += family.samples.map { sample in
                let labels = sample.labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }.joined(separator: ",")
                return family.name + (labels.isEmpty ? "" : "{\(labels)}") + " " + Self.number(sample.value)
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n") + "\n"
    }

    /// Writes ``text`` to `path` through a temporary file and a rename
    /// (``FileSystem/writeAtomically(_:to:mode:durable:)``), mode 0644 so that node_exporter can read it;
    /// `durable: false` skips the flushes to disk, for a file rewritten every few seconds.
    ///
    /// - Throws: `SCLMError` (`.storage`) when it cannot be written.
    package func write(to path: String, durable: Bool = true) throws {
        try FileSystem.writeAtomically(Data(text.utf8), to: path, mode: 0o644, durable: durable)
    }

    // MARK: - Escaping

    /// A value as the format writes it: an integer without a fraction, else the shortest decimal form.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A label value with `\`, `"` and line breaks escaped.
    private static func escapedLabel(_ text: String) -> String {
        escapedHelp(text).replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// A help text with `\` and line breaks escaped.
    private static func escapedHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}

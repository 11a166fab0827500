import Foundation
import SCLMCore

/// Aligned plain-text output: key/value blocks and column tables for human-readable results.
///
/// Cells are data (names, paths, messages from a server or a package): each is escaped with
/// ``TerminalText/escaping(_:)`` before the columns are measured, so the table stays aligned and no cell can
/// steer the terminal.
package enum TextTable {
    /// `key: value` lines with the values aligned; the keys are sclm's own words.
    package static func keyValues(_ pairs: [(String, TerminalText)]) -> TerminalText {
        let width = (pairs.map(\.0.count).max() ?? 0) + 2
        return pairs.map { key, value in
            TerminalText(trusted: (key + ":").padding(toLength: width, withPad: " ", startingAt: 0)) + value
        }.joined(separator: "\n")
    }

    /// Columns padded to the widest cell; the last column is not padded.
    package static func columns(header: [String], rows: [[String]]) -> TerminalText {
        let all = ([header] + rows).map { $0.map(TerminalText.escaping) }
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        let text = all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] + 2 - cell.count)
            }.joined()
        }.joined(separator: "\n")
        return TerminalText(trusted: text)
    }
}

import Foundation

/// Aligned plain-text output: key/value blocks and column tables for human-readable results.
public enum TextTable {
    /// `key: value` lines with the values aligned.
    public static func keyValues(_ pairs: [(String, String)]) -> String {
        let width = (pairs.map(\.0.count).max() ?? 0) + 2
        return pairs.map { key, value in
            (key + ":").padding(toLength: width, withPad: " ", startingAt: 0) + value
        }.joined(separator: "\n")
    }

    /// Columns padded to the widest cell; the last column is not padded.
    public static func columns(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n")
    }
}

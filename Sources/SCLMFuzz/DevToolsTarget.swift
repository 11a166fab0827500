import SCLMBrowser

/// DevTools message decoding (`DevToolsMessage`): the input split at NUL bytes as the pipe frames it.
enum DevToolsTarget {
    static func fuzz(_ bytes: [UInt8]) {
        for message in bytes.split(separator: 0, omittingEmptySubsequences: false) {
            _ = DevToolsMessage(Array(message))
        }
    }
}

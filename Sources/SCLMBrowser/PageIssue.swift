import SCLMCore

/// Something a page did that a render reports or `sclm play --json` prints.
package enum PageIssue: Sendable, Equatable {
    /// The page asked for a file the package lacks (answered 404).
    case missingFile(url: String, path: String)
    /// The page asked for another host (refused, as on an offline tablet).
    case remoteRequest(url: String)
    /// An uncaught exception or unhandled rejection.
    case uncaughtError(message: String, url: String?, line: Int?)
    /// `console.error`.
    case consoleError(message: String, url: String?, line: Int?)
    /// A bridge call answered with an error code.
    case bridgeError(command: String, code: Int, message: String)
    /// A navigation or `open` the page asked for (noted by renders, which do not follow it).
    case navigation(command: String, data: JSONValue)
    /// The page's renderer crashed.
    case crashed(reason: String)
    /// The page asked without `Range` for a file above the whole-answer limit (answered 413).
    case tooLarge(url: String, path: String, size: Int64, limit: Int64)
    /// The page opened a dialog (`alert`, `confirm`, `prompt`, `beforeunload`); `answered` when sclm
    /// answered it (headless: OK, or the prompt's default), not the person at the screen.
    case dialog(type: String, message: String, answered: Bool)
    /// Console messages and errors of one slide beyond the per-slide limit were left out.
    case messagesCut(count: Int, bytes: Int)

    /// `{"Page":kind,…}` for `--json` output.
    package var json: JSONValue {
        switch self {
        case .missingFile(let url, let path): ["Page": "missingFile", "url": .string(url), "path": .string(path)]
        case .remoteRequest(let url): ["Page": "remoteRequest", "url": .string(url)]
        case .uncaughtError(let message, let url, let line):
            [
                "Page": "uncaughtError", "message": .string(message), "url": url.map { .string($0) } ?? .null,
                "line": Self.json(line),
            ]
        case .consoleError(let message, let url, let line):
            [
                "Page": "consoleError", "message": .string(message), "url": url.map { .string($0) } ?? .null,
                "line": Self.json(line),
            ]
        case .bridgeError(let command, let code, let message):
            [
                "Page": "bridgeError", "command": .string(command), "code": .int(Int64(code)),
                "message": .string(message),
            ]
        case .navigation(let command, let data): ["Page": "navigation", "command": .string(command), "data": data]
        case .crashed(let reason): ["Page": "crashed", "reason": .string(reason)]
        case .tooLarge(let url, let path, let size, let limit):
            [
                "Page": "tooLarge", "url": .string(url), "path": .string(path), "size": .int(size),
                "limit": .int(limit),
            ]
        case .dialog(let type, let message, let answered):
            ["Page": "dialog", "type": .string(type), "message": .string(message), "answered": .bool(answered)]
        case .messagesCut(let count, let bytes):
            ["Page": "messagesCut", "count": .int(Int64(count)), "bytes": .int(Int64(bytes))]
        }
    }

    /// Why `--fail-on-error` ends a run on this issue: an uncaught error or a failed load; `nil` for the
    /// rest (bridge error answers, refused requests, dialogs are warnings, not errors).
    package var failure: String? {
        switch self {
        case .uncaughtError: summary
        case .missingFile(_, let path): "failed load: \(path) (the package lacks it)"
        default: nil
        }
    }

    /// One line for a person: what the page did (unescaped; the printer escapes it).
    package var summary: String {
        switch self {
        case .missingFile(_, let path): "missing file: \(path) (answered 404)"
        case .remoteRequest(let url): "refused request to another host: \(url)"
        case .uncaughtError(let message, let url, let line):
            "uncaught page error: \(message) (\(Self.place(url, line)))"
        case .consoleError(let message, let url, let line): "console.error: \(message) (\(Self.place(url, line)))"
        case .bridgeError(let command, let code, let message): "bridge: \(command) answered \(code): \(message)"
        case .navigation(let command, _): "navigation: \(command)"
        case .crashed(let reason): "crashed: \(reason)"
        case .tooLarge(_, let path, let size, let limit):
            "too large: \(path) (\(PackageSite.mebibytes(size))) asked whole, without Range; answered 413 "
                + "(whole answers stop at \(PackageSite.mebibytes(limit)))"
        case .dialog(let type, let message, let answered):
            "dialog \(type): \(message)\(answered ? " (answered OK)" : "")"
        case .messagesCut(let count, let bytes): "\(count) more page messages of this slide (\(bytes) bytes) were cut"
        }
    }

    private static func place(_ url: String?, _ line: Int?) -> String {
        "\(url ?? "?"):\(line.map(String.init) ?? "?")"
    }

    private static func json(_ line: Int?) -> JSONValue { line.map { .int(Int64($0)) } ?? .null }
}

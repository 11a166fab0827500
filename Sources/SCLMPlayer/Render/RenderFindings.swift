import SCLMArchive
import SCLMBrowser
import SCLMCore

/// Turns what a page did while it rendered into findings of the `RENDER-*` rules, located at the slide.
enum RenderFindings {
    /// The finding for `issue` on `slide`.
    ///
    /// - Parameters:
    ///   - issue: what the page did.
    ///   - slide: the slide being rendered.
    ///   - source: the package path of a script URL, when it is one of the package's files.
    /// - Returns: the finding, or `nil` for what is only noted (navigation requests) or said elsewhere (a crash).
    static func finding(for issue: PageIssue, slide: String, source: (String?) -> String?) -> Finding? {
        switch issue {
        case .uncaughtError(let message, let url, let line):
            return located(.renderJSError, slide: slide, file: source(url), line: line, message: message)
        case .consoleError(let message, let url, let line):
            return located(
                .renderConsoleError, slide: slide, file: source(url), line: line, message: "console.error: \(message)")
        case .missingFile(_, let path):
            return Finding(
                .renderLoadFailed, path: slide, message: "requested \(path), which the package lacks (404)",
                subject: path)
        case .remoteRequest(let url):
            return Finding(.renderRemote, path: slide, message: "requested \(url); refused (no network on a tablet)")
        case .bridgeError(let command, let code, let message):
            return Finding(
                .renderBridgeError, path: slide,
                message: "\(command) answered \(code): \(RenderSettings.renderAdvice(message))")
        case .tooLarge(_, let path, let size, let limit):
            return Finding(
                .renderTooLarge, path: slide,
                message: "requested \(path) (\(PackageSite.mebibytes(size))) without Range; whole answers stop at "
                    + "\(PackageSite.mebibytes(limit)), so it was answered 413")
        case .dialog(let type, let message, _):
            return Finding(.renderDialog, path: slide, message: "\(type): \(message) (answered OK)")
        case .messagesCut(let count, let bytes):
            return Finding(
                .renderConsoleError, path: slide,
                message: "\(count) more page messages (\(bytes) bytes) were cut: a slide reports at most "
                    + "\(MessageBudget.maximumIssues) messages and \(MessageBudget.maximumBytes >> 10) KiB")
        case .navigation, .crashed:
            // A crash is the slide's status (`RENDER-CRASHED`), said once by the renderer.
            return nil
        }
    }

    /// A finding at the slide's own line, or at the slide with the script file and line named.
    private static func located(_ rule: Rule, slide: String, file: String?, line: Int?, message: String) -> Finding {
        guard let file, file != slide else { return Finding(rule, path: slide, line: line, message: message) }
        return Finding(rule, path: slide, message: "\(message) (at \(file)\(line.map { ":\($0)" } ?? ""))")
    }
}

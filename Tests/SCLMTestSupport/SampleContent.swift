import Foundation
import SCLMCore

/// The demo decks of `sample-content/`, assembled into complete, self-contained packages.
///
/// A deck folder in `sample-content/` holds only its own files. `sample-content/tools/assemble.py` (also run
/// by `make samples`, and by the dev-server when it starts on its default content) copies every deck into one
/// build folder and adds the shared files the deck lists in its `presentation.json`: `js/storyclm.js` from
/// `bridge-js/`, `js/deck.js` from `sample-content/shared/`. A test that validates, serves, installs or renders
/// a sample deck reads it from ``assembledPath``, never from `sample-content/` itself:
///
/// ```swift
/// let cardiora = try SampleContent.assembledPath + "/cardiora-detail-aid"
/// let result = try await ProcessRunner.sclm(["validate", "--strict", cardiora])
/// ```
package enum SampleContent {
    /// The assembled content folder, `.build/sample-content`: `clients.json` and one complete folder per deck
    /// (a folder with a `presentation.json`), in the dev-server's content layout.
    ///
    /// The first read in a process runs the assembler, which copies only what changed and takes turns with
    /// other processes running it; later reads return the first one's outcome.
    ///
    /// - Throws: `SCLMError` when the assembler fails; its message names the source to fix.
    package static var assembledPath: String {
        get throws { try assembled.get() }
    }

    private static let assembled = Result(catching: runAssembler)

    private static func runAssembler() throws(SCLMError) -> String {
        let script = ProcessRunner.packageRoot + "/sample-content/tools/assemble.py"
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(ProcessRunner.python, [script])
        } catch {
            throw SCLMError(.internal, "cannot run python3 \(script): \(error)")
        }
        guard result.status == 0, let path = result.stdoutLines.last else {
            throw SCLMError(.internal, "assembling the sample decks failed (python3 \(script)): \(result.stderr)")
        }
        return path
    }
}

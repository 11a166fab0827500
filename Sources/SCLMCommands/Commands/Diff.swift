import Foundation
import SCLMArchive
import SCLMCore

extension SCLM {
    /// `sclm diff OLD NEW`: what changed between two revisions of a deck, slide by slide, for reviewers.
    package struct Diff: Command {
        package static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show what changed between two revisions of a package (zip files or folders), slide by slide.",
            discussion: """
                Both revisions are read as `sclm validate` reads them (a zip streamed, never unpacked; a
                package breaking a safety rule is refused) and nothing is written to disk. The slides are
                the HTML files at the package root. Each is added, removed, renamed (the same HTML and the
                same files under another name), changed or unchanged: a slide is unchanged when its
                closure, the slide and every file it loads (stylesheets and their @import and url(), scripts,
                images, srcset, fonts, media), is byte-identical (SHA-256). A changed slide lists the files
                of its closure added, removed or changed, with their sizes, and the words of its static
                text (the text nodes of the HTML file, not what scripts write) deleted and inserted, with
                the element they sit in. Files that changed outside every closure are listed apart, and the
                static validation findings new in NEW and gone from OLD (compared by rule, path and message,
                so a finding that only moved to another line is neither).

                Pictures: each changed and renamed slide (never an unchanged one) is rendered from both
                revisions in headless Chromium (found as `validate --render` finds it, or --browser) at
                1024x768, deterministically: time frozen, Math.random seeded, animations and transitions run
                to their end, the caret hidden, fonts loaded. The two pictures are compared pixel by pixel:
                a pixel changes when its colour distance (YIQ, 0-1) exceeds --threshold (default 0.1, as
                pixelmatch), unless anti-aliasing explains it; changed pixels are grouped into regions and a
                region of fewer than --min-pixels (default 1) is not reported. Each such slide reports its
                changed pixels and the regions' boxes; --images DIR keeps the renders (DIR/renders/) and a
                diff image per slide with a change, its regions outlined (DIR/diff/). A slide whose files
                changed is changed even when no pixel did. --no-render compares files, text and findings
                only, without a browser.

                --format html prints one self-contained page for a reviewer (the pictures inline, no network):
                the summary, then each slide with its renders side by side, overlaid and behind a swipe, the
                diff image, the words and the files; "changed only" and j/k navigation.

                --format junit gives each slide a test case (a change is a failure), plus one for the files
                outside every slide and one for the new findings: a gate for content CI. --accept-changes FILE
                lets the changes a review accepted through: one entry a line, a slide's name, a file outside
                every slide, or `finding RULE-ID`; `#` starts a comment. Their cases pass, and an entry that
                names nothing that changed is reported on stderr.

                Exit codes (as diff(1)): 0 no changes (with --accept-changes: none but accepted ones), 1
                changes, 2 a package was refused (it breaks a safety rule), 64 usage, 66 a path is not a file
                or folder, 69 no browser (use --no-render), 74 a path could not be read, 130 interrupted.
                """,
            arguments: [
                ArgumentSpec("old", help: "The old revision: a package zip or an unpacked package folder.", path: true),
                ArgumentSpec("new", help: "The new revision: a package zip or an unpacked package folder.", path: true),
            ],
            options: [
                formatOption, acceptOption, Validate.maxSizeOption, Validate.maxEntriesOption, noRenderFlag,
                thresholdOption, minPixelsOption, imagesOption, browserOption,
            ]
        )

        /// `--format text|json|markdown|junit|html`.
        static let formatOption: CommandOption<String?> = .choice(
            "--format", help: "Output format (default text; --json means json).",
            choices: ["text", "json", "markdown", "junit", "html"])
        /// `--accept-changes FILE`.
        static let acceptOption: CommandOption<String?> = .text(
            "--accept-changes", value: "file",
            help: "The changes a review accepted (slide names, other files, 'finding RULE-ID'): they do not fail.")

        /// `--no-render`.
        static let noRenderFlag: CommandOption<Bool> = .flag(
            "--no-render", help: "Compare files, text and findings only: no browser, no pictures.")
        /// `--threshold 0-1`.
        static let thresholdOption: CommandOption<Double?> = .option(
            "--threshold", value: "0-1", help: "The colour distance at which a pixel counts as changed (default 0.1)."
        ) { text in
            guard let value = Double(text), (0...1).contains(value) else {
                throw ValidationError("--threshold needs a number from 0 to 1 such as 0.1, got '\(text)'")
            }
            return value
        }
        /// `--min-pixels n`.
        static let minPixelsOption: CommandOption<Int?> = .integer(
            "--min-pixels", value: "n", help: "The fewest changed pixels a reported region has (default 1).",
            in: 1...Int.max)
        /// `--images dir`.
        static let imagesOption: CommandOption<String?> = .text(
            "--images", value: "dir", help: "Keep the renders and the diff images (regions outlined) in this folder.")
        /// `--browser path`.
        static let browserOption: CommandOption<String?> = .text(
            "--browser", value: "path",
            help: "The Chromium executable (default $SCLM_BROWSER, else chromium-headless-shell, else chromium).")

        /// The exit status of a refused package: diff(1)'s "trouble", since 1 means the revisions differ.
        static let refusedStatus: Int32 = 2

        enum Format: String {
            case text, json, markdown, junit, html
        }

        let old: String
        let new: String
        let format: Format?
        /// Where the accepted changes are listed (`--accept-changes`).
        let acceptedPath: String?
        /// The policy both revisions are read under (`--max-size`, `--max-entries`).
        let policy: Policy
        /// How pictures are compared; `nil` with `--no-render`.
        let pictures: DiffPictures?
        /// Where the renders and diff images are kept (`--images`); `nil` keeps none.
        let imagesFolder: String?

        package init(parsing arguments: ParsedArguments) throws {
            guard arguments.positionals.count == 2 else {
                throw ValidationError(
                    "diff needs two packages, OLD and NEW, got \(arguments.positionals.count) path(s)")
            }
            old = arguments.positionals[0]
            new = arguments.positionals[1]
            format = try arguments.read(Self.formatOption).flatMap(Format.init)
            acceptedPath = try arguments.read(Self.acceptOption)
            policy = try Validate.policy(arguments)
            imagesFolder = try arguments.read(Self.imagesOption)
            pictures = try Self.pictures(arguments)
        }

        /// The picture comparison `--threshold`, `--min-pixels` and `--browser` ask for; `nil` with `--no-render`
        /// (which none of them may come with).
        private static func pictures(_ arguments: ParsedArguments) throws -> DiffPictures? {
            guard try !arguments.read(noRenderFlag) else {
                let pictureOptions: [any OptionDeclaration] = [
                    thresholdOption, minPixelsOption, imagesOption, browserOption,
                ]
                if let given = pictureOptions.first(where: { arguments.isGiven($0) }) {
                    throw ValidationError("\(given.spec.canonicalName) compares pictures, which --no-render turns off")
                }
                return nil
            }
            return DiffPictures(
                threshold: try arguments.read(thresholdOption) ?? 0.1,
                minPixels: try arguments.read(minPixelsOption) ?? 1,
                browser: try arguments.read(browserOption))
        }

        package func run(_ context: CommandContext) async throws {
            let format = try OutputFormat.resolve(
                self.format, json: .json, fallback: .text, wantsJSON: context.wantsJSON)
            let accepted = try acceptedPath.map(AcceptedChanges.init(path:)) ?? AcceptedChanges(text: "")
            let contents: (old: PackageContents, new: PackageContents)
            do {
                // Each revision is read on a thread of its own, both at once.
                async let oldContents = PackageContents.read(old, policy: policy)
                async let newContents = PackageContents.read(new, policy: policy)
                contents = (try await oldContents, try await newContents)
            } catch let error as ArchiveError where error.code == .refused {
                CommandRunner.report(
                    failure: error.message, category: error.category, status: Self.refusedStatus, context: context)
                throw ExitCode(Self.refusedStatus)
            }
            let diff = PackageDiff(old: contents.old, new: contents.new)
            try await withImagesFolder { folder in
                let pictures = try await compare(
                    diff, old: contents.old.report, new: contents.new.report, folder: folder, context: context)
                try print(
                    format, diff: diff, contents: contents, accepted: accepted, pictures: pictures, folder: folder,
                    context: context)
            }
            if let acceptedPath {
                for entry in accepted.unused(by: diff) {
                    context.logger.warning("\(acceptedPath) accepts '\(entry)', which did not change: remove the line")
                }
            }
            if !accepted.acceptsAll(of: diff) { throw ExitCode.failure }
        }

        /// Prints the report in `format`; `folder` holds the pictures (`nil` with `--no-render`).
        private func print(
            _ format: Format, diff: PackageDiff, contents: (old: PackageContents, new: PackageContents),
            accepted: AcceptedChanges, pictures: [String: SlidePictures], folder: String?, context: CommandContext
        ) throws {
            switch format {
            case .text: context.print(DiffTextReport(diff: diff, pictures: pictures, imagesFolder: imagesFolder).text)
            case .json:
                context.printJSON(
                    DiffJSONReport(
                        diff, old: contents.old.report, new: contents.new.report, pictures: pictures,
                        imagesFolder: imagesFolder))
            case .markdown: context.print(DiffMarkdownReport(diff: diff, old: old, new: new, pictures: pictures).text)
            case .junit:
                context.stdout.write(
                    DiffJUnitReport(diff: diff, old: old, new: new, accepted: accepted, pictures: pictures).xml)
            case .html:
                context.stdout.write(
                    try DiffHTMLReport(diff: diff, old: old, new: new, pictures: pictures, imagesFolder: folder).html())
            }
        }

        /// Runs `body` with the folder the pictures go to: `--images`, else a scratch folder removed afterwards;
        /// `nil` with `--no-render`.
        private func withImagesFolder(_ body: (String?) async throws -> Void) async throws {
            guard pictures != nil else { return try await body(nil) }
            guard let imagesFolder else {
                let scratch = try ScratchFolder.make(prefix: "sclm-diff-")
                defer { try? FileManager.default.removeItem(atPath: scratch) }
                return try await body(scratch)
            }
            try FileManager.default.createDirectory(atPath: imagesFolder, withIntermediateDirectories: true)
            try await body(imagesFolder)
        }

        /// The pictures of the changed and renamed slides, compared in `folder`; none with `--no-render`.
        private func compare(
            _ diff: PackageDiff, old: PackageReport, new: PackageReport, folder: String?, context: CommandContext
        ) async throws -> [String: SlidePictures] {
            guard let pictures, let folder else { return [:] }
            return try await pictures.compare(
                diff, old: old, new: new, policy: policy, folder: folder, context: context)
        }
    }
}

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

                --format junit gives each slide a test case (a change is a failure), plus one for the files
                outside every slide and one for the new findings: a gate for content CI. --accept-changes FILE
                lets the changes a review accepted through: one entry a line, a slide's name, a file outside
                every slide, or `finding RULE-ID`; `#` starts a comment. Their cases pass, and an entry that
                names nothing that changed is reported on stderr.

                Exit codes (as diff(1)): 0 no changes (with --accept-changes: none but accepted ones), 1
                changes, 2 a package was refused (it breaks a safety rule), 64 usage, 66 a path is not a file
                or folder, 74 a path could not be read, 130 interrupted.
                """,
            arguments: [
                ArgumentSpec("old", help: "The old revision: a package zip or an unpacked package folder.", path: true),
                ArgumentSpec("new", help: "The new revision: a package zip or an unpacked package folder.", path: true),
            ],
            options: [formatOption, acceptOption, Validate.maxSizeOption, Validate.maxEntriesOption]
        )

        /// `--format text|json|markdown|junit`.
        static let formatOption: CommandOption<String?> = .choice(
            "--format", help: "Output format (default text; --json means json).",
            choices: ["text", "json", "markdown", "junit"])
        /// `--accept-changes FILE`.
        static let acceptOption: CommandOption<String?> = .text(
            "--accept-changes", value: "file",
            help: "The changes a review accepted (slide names, other files, 'finding RULE-ID'): they do not fail.")

        /// The exit status of a refused package: diff(1)'s "trouble", since 1 means the revisions differ.
        static let refusedStatus: Int32 = 2

        enum Format: String {
            case text, json, markdown, junit
        }

        let old: String
        let new: String
        let format: Format?
        /// Where the accepted changes are listed (`--accept-changes`).
        let acceptedPath: String?
        /// The policy both revisions are read under (`--max-size`, `--max-entries`).
        let policy: Policy

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
            switch format {
            case .text: context.print(DiffTextReport(diff: diff).text)
            case .json:
                context.printJSON(DiffJSONReport(diff, old: contents.old.report, new: contents.new.report))
            case .markdown: context.print(DiffMarkdownReport(diff: diff, old: old, new: new).text)
            case .junit: context.stdout.write(DiffJUnitReport(diff: diff, old: old, new: new, accepted: accepted).xml)
            }
            if let acceptedPath {
                for entry in accepted.unused(by: diff) {
                    context.logger.warning("\(acceptedPath) accepts '\(entry)', which did not change: remove the line")
                }
            }
            if !accepted.acceptsAll(of: diff) { throw ExitCode.failure }
        }
    }
}

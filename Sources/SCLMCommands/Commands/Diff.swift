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

                Exit codes (as diff(1)): 0 no changes, 1 changes, 2 a package was refused (it breaks a
                safety rule), 64 usage, 66 a path is not a file or folder, 74 a path could not be read,
                130 interrupted.
                """,
            arguments: [
                ArgumentSpec("old", help: "The old revision: a package zip or an unpacked package folder.", path: true),
                ArgumentSpec("new", help: "The new revision: a package zip or an unpacked package folder.", path: true),
            ],
            options: [formatOption, Validate.maxSizeOption, Validate.maxEntriesOption]
        )

        /// `--format text|json|markdown`.
        static let formatOption: CommandOption<String?> = .choice(
            "--format", help: "Output format (default text; --json means json).",
            choices: ["text", "json", "markdown"])

        /// The exit status of a refused package: diff(1)'s "trouble", since 1 means the revisions differ.
        static let refusedStatus: Int32 = 2

        enum Format: String {
            case text, json, markdown
        }

        let old: String
        let new: String
        let format: Format?
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
            policy = try Validate.policy(arguments)
        }

        package func run(_ context: CommandContext) async throws {
            let format = try OutputFormat.resolve(
                self.format, json: .json, fallback: .text, wantsJSON: context.wantsJSON)
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
            }
            if !diff.hasNoChanges { throw ExitCode.failure }
        }
    }
}

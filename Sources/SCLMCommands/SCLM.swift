import Foundation
import SCLMCore

/// The root `sclm` command.
package struct SCLM: Command {
    package static let configuration = CommandConfiguration(
        commandName: "sclm",
        abstract: "Keep StoryCLM content in sync on Linux, host it headlessly and validate packages.",
        discussion: """
            sclm logs in to a StoryCLM-compatible backend, keeps clients and presentations in SQLite,
            downloads and safely unpacks presentation packages, hosts HTML5 content through a JSON
            command bridge and validates content packages in CI.

            Data lives in the sclm home: --home, else $SCLM_HOME, else $XDG_DATA_HOME/sclm.
            Exit codes: 0 ok, 1 some work failed (`diff`: the revisions differ), 2 `diff` refused a
            package, 64 usage, 66 not a file or folder, 69 service (or Chromium) unavailable, 70 internal,
            74 I/O, 75 temporary failure, 77 login needed, 124 `play --timeout` reached, 130 cancelled.
            """,
        subcommands: [
            Login.self, Logout.self, Whoami.self, Sync.self, List.self, Show.self, Content.self, Status.self,
            Config.self, Validate.self, Diff.self, Bridge.self, Play.self, Osam.self, Events.self, Completions.self,
            Manpage.self,
        ]
    )

    package init(parsing arguments: ParsedArguments) throws {}

    /// Runs sclm with the process's arguments and environment, then exits with the command's status.
    package static func main() async -> Never {
        let argv = Array(CommandLine.arguments.dropFirst())
        let status = await CommandRunner.run(
            root: SCLM.self, argv: argv, environment: ProcessInfo.processInfo.environment)
        exit(status)
    }
}

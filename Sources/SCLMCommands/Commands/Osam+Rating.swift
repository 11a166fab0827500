import SCLMCore
import SCLMOSAM
import SCLMPolicy

extension SCLM.Osam {
    /// `sclm osam rating`: count an app opening and tell whether to request the review prompt.
    package struct Rating: Command {
        package static let configuration = CommandConfiguration(
            commandName: "rating",
            abstract: "Count one app opening and tell whether the review prompt is due.",
            discussion: """
                Call it once per app opening. Fetches GET {endpoint}/api/rating/{package}/{PLATFORM} (minutes,
                numAperture; cached for offline use, defaults 2880 and 5). ACCEPTED means "request the review
                prompt now": at least numAperture openings and minutes since the first call or the last prompt;
                the counter then restarts. Exit 0 for ACCEPTED and DISMISSED, 69 for ERROR (the opening still
                counts). JSON: {"response":"ACCEPTED"|"DISMISSED"|"ERROR"}
                """,
            options: [
                OsamOptions.endpoint, OsamOptions.package, OsamOptions.platform, OsamOptions.offline, OsamOptions.now,
            ])

        let options: OsamOptions

        package init(parsing arguments: ParsedArguments) throws {
            options = try OsamOptions(parsing: arguments)
        }

        package func run(_ context: CommandContext) async throws {
            let configuration = try context.configuration()
            let packageName = try options.package(configuration)
            let platform = try options.platform(configuration)
            let decision = try await context.withOSAMService(
                options, configuration: configuration, needsBackend: true
            ) {
                try await $0.rating(package: packageName, platform: platform, connectivity: options.connectivity)
            }
            if context.wantsJSON {
                context.printJSON(decision.jsonValue)
            } else {
                context.print("\(decision.response.rawValue) (\(decision.failure ?? decision.reason.rawValue))")
            }
            if decision.response == .error { throw ExitCode(ErrorCategory.network.exitCode) }
        }
    }
}

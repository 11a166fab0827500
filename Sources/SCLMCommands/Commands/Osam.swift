import SCLMCore

extension SCLM {
    /// `sclm osam`: OSAM version-control and rating checks, topic events and device facts.
    package struct Osam: Command {
        package static let configuration = CommandConfiguration(
            commandName: "osam",
            abstract: "Run OSAM version-control and rating checks, topic events and device/app information.",
            discussion: """
                The checks follow the OSAM common module: the backend answers per package, platform and
                installed build; sclm decides what to show and keeps OSAM's state per package in the home's
                database, so "don't show again", the throttle and the rating counters survive between runs.
                Settings: osam.endpoint, osam.package, osam.platform, osam.versionCode, osam.versionName,
                osam.username, osam.password (flags override them). --now EPOCH_MS fixes the device clock.
                """,
            subcommands: [
                VersionControl.self, VersionControlAnswer.self, Rating.self, Topics.self, DeviceInfo.self, AppInfo.self,
            ]
        )

        package init(parsing arguments: ParsedArguments) throws {}
    }
}

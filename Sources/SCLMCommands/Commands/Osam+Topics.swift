import SCLMCore
import SCLMOSAM
import SCLMPolicy

extension SCLM.Osam {
    /// `sclm osam topics`: OSAM's push-topic and language events.
    package struct Topics: Command {
        package static let configuration = CommandConfiguration(
            commandName: "topics",
            abstract: "Send OSAM's topic and language events (subscriptions are recorded in the home).",
            discussion: """
                Version topics are <last package segment>_<versionName>_<versionCode>_<LANGUAGE>, each with the
                bare language topic (CA, ES, EN). Subscriptions are recorded in the database and, when
                osam.topicsWebhook is set, POSTed there first. Exit 1 when a subscription could not be made.
                JSON: {"response":"SUCCESS"|"UNCHANGED"|"ERROR","subscribed":[…],"unsubscribed":[…]}
                """,
            subcommands: [FirstTimeOrUpdate.self, ChangeLanguage.self, Subscribe.self, Unsubscribe.self])

        package init(parsing arguments: ParsedArguments) throws {}
    }
}

/// One `sclm osam topics` subcommand: which event it sends, with the options and topic it parsed.
protocol OsamTopicCommand: Command {
    /// The event the command sends.
    static var event: OsamTopicEvent { get }
    var options: OsamOptions { get }
    var topic: String { get }
    init(options: OsamOptions, topic: String)
}

/// The OSAM topic events.
enum OsamTopicEvent {
    case firstTimeOrUpdate, changeLanguage, subscribe, unsubscribe

    /// Whether the event names a custom topic (a positional argument).
    var takesTopic: Bool { self == .subscribe || self == .unsubscribe }

    /// The options of a command sending this event.
    var options: [any OptionDeclaration] {
        takesTopic
            ? [OsamOptions.package, OsamOptions.now]
            : [
                OsamOptions.package, OsamOptions.versionCode, OsamOptions.versionName, OsamOptions.language,
                OsamOptions.now,
            ]
    }
}

extension OsamTopicCommand {
    init(parsing arguments: ParsedArguments) throws {
        self.init(
            options: try OsamOptions(parsing: arguments),
            topic: Self.event.takesTopic ? try arguments.positional(0, named: "topic") : "")
    }

    func run(_ context: CommandContext) async throws {
        let configuration = try context.configuration()
        let outcome = try await context.withOSAMService(options, configuration: configuration) {
            try await send(to: $0, configuration: configuration, environment: context.environment)
        }
        if context.wantsJSON {
            context.printJSON(outcome.jsonValue)
        } else {
            var text = outcome.response.rawValue
            if !outcome.subscribed.isEmpty { text += "; subscribed: " + outcome.subscribed.joined(separator: ", ") }
            if !outcome.unsubscribed.isEmpty {
                text += "; unsubscribed: " + outcome.unsubscribed.joined(separator: ", ")
            }
            context.print("\(text)")
        }
        if outcome.response == .error { throw ExitCode.failure }
    }

    private func send(to service: OSAMService, configuration: Configuration, environment: [String: String]) async throws
        -> TopicOutcome
    {
        let deviceLanguage = DeviceInformation.language(environment: environment)
        switch Self.event {
        case .firstTimeOrUpdate:
            let app = try options.installedApp(configuration, osVersion: "", model: "")
            return try await service.firstTimeOrUpdate(
                app: app, language: options.language, deviceLanguage: deviceLanguage)
        case .changeLanguage:
            let app = try options.installedApp(configuration, osVersion: "", model: "")
            return try await service.changeLanguage(
                app: app, language: options.language, deviceLanguage: deviceLanguage)
        case .subscribe, .unsubscribe:
            do {
                return try await service.customTopic(
                    topic, subscribe: Self.event == .subscribe, package: try options.package(configuration))
            } catch let error as SCLMError where error.category == .usage {
                throw ValidationError(error.message)
            }
        }
    }
}

extension SCLM.Osam.Topics {
    /// `sclm osam topics first-time-or-update`.
    struct FirstTimeOrUpdate: OsamTopicCommand {
        static let configuration = CommandConfiguration(
            commandName: "first-time-or-update",
            abstract: "Follow the topics of the installed build (call once per launch).",
            options: event.options)
        static let event = OsamTopicEvent.firstTimeOrUpdate
        let options: OsamOptions
        let topic: String
    }

    /// `sclm osam topics change-language`.
    struct ChangeLanguage: OsamTopicCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-language",
            abstract: "Record a language change, log language_change and move the topics to it.",
            options: event.options)
        static let event = OsamTopicEvent.changeLanguage
        let options: OsamOptions
        let topic: String
    }

    /// `sclm osam topics subscribe TOPIC`.
    struct Subscribe: OsamTopicCommand {
        static let configuration = CommandConfiguration(
            commandName: "subscribe", abstract: "Subscribe to a custom topic.",
            arguments: [ArgumentSpec("topic", help: "Topic name: a-z A-Z 0-9 - _ . ~ %.")], options: event.options)
        static let event = OsamTopicEvent.subscribe
        let options: OsamOptions
        let topic: String
    }

    /// `sclm osam topics unsubscribe TOPIC`.
    struct Unsubscribe: OsamTopicCommand {
        static let configuration = CommandConfiguration(
            commandName: "unsubscribe", abstract: "Unsubscribe from a custom topic.",
            arguments: [ArgumentSpec("topic", help: "Topic name.")], options: event.options)
        static let event = OsamTopicEvent.unsubscribe
        let options: OsamOptions
        let topic: String
    }
}

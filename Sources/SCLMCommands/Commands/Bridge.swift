import Foundation
import SCLMBridge
import SCLMBridgeModules
import SCLMCore
import SCLMStore

extension SCLM {
    /// `sclm bridge`: hosts an installed presentation headlessly over stdin/stdout (docs/bridge.md).
    package struct Bridge: Command {
        package static let configuration = CommandConfiguration(
            commandName: "bridge",
            abstract:
                "Host an installed presentation headlessly: StoryCLM commands on stdin, answers and events on stdout.",
            discussion: """
                Reads newline-delimited JSON messages {"Command":…,"Data":…,"GUID":…} (keys in any case, or an
                array of up to 100 of them) and answers each message that has a GUID with exactly one line
                {"GUID":…,"Status":…,"ErrorCode":…,"ErrorMessage":…,"Data":…}, in any order. What a screen would
                do is written as {"Event":…,"Data":…}. Nothing else is written to stdout; logs go to stderr.
                Codes: 200 ok, 400 bad input, 404 unknown command, 409 GUID in flight, 413 line too long,
                429 too many in flight, 499 cancelled (bridge.cancel), 500 handler failed, 502 external module
                crashed, 503 shutting down, 504 timeout. bridge.ping, bridge.describe and bridge.cancel are
                built in. When stdin ends, running commands get 5 s to finish, then sclm exits 0 and the
                session stays unfinished (the next run restores it).

                HTTP commands reach public hosts only (no loopback, private, link-local or unspecified address,
                on any redirect hop or behind any name) unless bridge.httpAllowedHosts lists what they may reach.

                With bridge.flushInterval N (seconds) and StoryIoT configured (iot.*), completed sessions are
                published every N seconds while the bridge runs, as by `sclm events flush`.

                --module NAME=PROGRAM starts PROGRAM (run with /bin/sh -c) as a long-running child speaking
                the same protocol, asks it bridge.describe and routes its commands to it; a crash answers its
                running requests 502 and restarts it with backoff.
                """,
            options: [
                presentationOption, slideOption, moduleOption, timeoutOption, maxInFlightOption, maxLineBytesOption,
            ]
        )

        /// `--presentation id` (required).
        static let presentationOption: CommandOption<Int64> = .presentation(
            purpose: "open", help: "The installed presentation to open.")
        /// `--slide name`, also `sclm play`'s.
        static let slideOption: CommandOption<String?> = .text(
            "--slide", value: "name",
            help: "The slide to start on (default: index.html, else the server's first slide, "
                + "or where an unfinished session stopped).")
        /// `--module name=program`, repeatable.
        static let moduleOption: CommandOption<[(name: String, program: String)]> = .repeated(
            "--module", value: "name=program", help: "Route the commands of an external module program (repeatable).",
            convert: { try parseModule($0) })
        /// `--timeout-ms n`.
        static let timeoutOption: CommandOption<Int?> = .integer(
            "--timeout-ms", value: "n", help: "Default command timeout in milliseconds (default 30000).",
            in: 1...3_600_000)
        /// `--max-in-flight n`.
        static let maxInFlightOption: CommandOption<Int?> = .integer(
            "--max-in-flight", value: "n", help: "Requests running at once before 429 (default 256).", in: 1...65_536)
        /// `--max-line-bytes n`.
        static let maxLineBytesOption: CommandOption<Int?> = .integer(
            "--max-line-bytes", value: "n", help: "Longest accepted input line before 413 (default 16 MiB).",
            in: 1024...(1 << 30))

        let presentationId: Int64
        let slide: String?
        let modules: [(name: String, program: String)]
        let limits: BridgeLimits

        package init(parsing arguments: ParsedArguments) throws {
            presentationId = try arguments.read(Self.presentationOption)
            slide = try arguments.read(Self.slideOption)
            modules = try arguments.read(Self.moduleOption)
            var limits = BridgeLimits()
            if let timeout = try arguments.read(Self.timeoutOption) {
                limits.defaultTimeout = .milliseconds(timeout)
            }
            if let inFlight = try arguments.read(Self.maxInFlightOption) {
                limits.maximumInFlight = inFlight
            }
            if let lineBytes = try arguments.read(Self.maxLineBytesOption) {
                limits.maximumLineBytes = lineBytes
            }
            self.limits = limits
        }

        /// `NAME=PROGRAM`.
        static func parseModule(_ text: String) throws -> (name: String, program: String) {
            guard let equals = text.firstIndex(of: "=") else {
                throw ValidationError("--module needs NAME=PROGRAM, got '\(text)'")
            }
            let name = String(text[..<equals])
            let program = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_.-"))
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains), !program.isEmpty else {
                throw ValidationError(
                    "--module needs NAME=PROGRAM with a name of letters, digits, _ . -, got '\(text)'")
            }
            return (name, program)
        }

        package func run(_ context: CommandContext) async throws {
            try await context.withServices { try await host(with: $0) }
            try Task.checkCancellation()
        }

        /// Hosts the presentation on `services` until stdin ends.
        private func host(with services: Services) async throws {
            let context = services.context
            let id = presentationId
            let output = BridgeOutput()
            let (presentation, host) = try await services.makePresentationHost(presentationId: id, output: output)
            let flusher = try await BackgroundFlush.start(services: services)
            defer { flusher?.cancel() }
            var external: [ExternalModule] = []
            let server: BridgeServer
            do {
                for module in modules {
                    external.append(
                        try await ExternalModule.start(
                            name: module.name, program: module.program, environment: context.childEnvironment,
                            output: output, logger: context.logger))
                }
                let registry = try services.makeModuleRegistry(host: host, external: external)
                server = BridgeServer(
                    registry: registry, output: output, limits: limits, logger: context.logger,
                    serverInfo: ["name": "sclm", "version": .string(SCLMVersion.current), "presentationId": .int(id)])
                try await host.start(presentation, slide: slide)
            } catch {
                for module in external { await module.stop() }
                await output.close(timeout: .seconds(1))
                throw error
            }
            // The run stops the modules once every request is answered.
            await server.run(input: 0)
            // Not cancelled with the command (Ctrl-C): the slide on screen is still recorded.
            await withCancellationShield {
                await host.finish()
                await host.finishRecording()
            }
            await output.close(timeout: .seconds(1))
        }
    }
}

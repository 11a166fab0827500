import Foundation
import SCLMCore
import SCLMStore
import Synchronization

/// What a running command gets from the runner: options, home, configuration, store and output.
///
/// Services are opened lazily and at most once (the store is created with the home on first use), so a
/// command that does not need the database never touches it. Tests build a context with a temporary home.
package final class CommandContext: Sendable {
    /// `--home`, `--json`, `-v`, `-q`.
    package let globals: GlobalOptions
    /// The process environment (for configuration overrides).
    package let environment: [String: String]
    /// The resolved sclm home.
    package let home: Home
    /// The command names from the root, e.g. `["sclm", "config", "get"]`.
    package let commandPath: [String]
    /// Results and protocol lines.
    package let stdout: StandardStream
    /// Diagnostics.
    package let logger: Logger
    /// Terminal facts (TTY, colour, width).
    package let terminal: TerminalInfo
    /// The current time.
    package let clock: any WallClock
    private let openedStore = Mutex<ContentStore?>(nil)
    private let noticeWriter = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Creates a context.
    package init(
        globals: GlobalOptions, environment: [String: String], commandPath: [String],
        stdout: StandardStream = .standardOutput, terminal: TerminalInfo, clock: any WallClock = SystemClock()
    ) {
        self.globals = globals
        self.environment = environment
        self.home = Home.resolve(explicit: globals.home, environment: environment)
        self.commandPath = commandPath
        self.stdout = stdout
        self.terminal = terminal
        self.clock = clock
        self.logger = Logger(minimumLevel: globals.logLevel, usesColor: terminal.usesColor)
    }

    /// The environment of a program the command starts for the user (an external bridge module): ours
    /// without the secret settings' variables and proxy passwords.
    package var childEnvironment: ChildEnvironment {
        ChildEnvironment(environment, withholding: SettingsCatalog.secretEnvironmentVariables)
    }

    /// Whether `--json` was given.
    package var wantsJSON: Bool { globals.json }

    /// The home's configuration with environment overrides.
    ///
    /// - Throws: `SCLMError` for an unreadable or malformed `config.json`.
    package func configuration() throws -> Configuration {
        try Configuration.load(from: home.configPath, environment: environment)
    }

    /// The home's database for a command that writes, created (with the home) and migrated on first use.
    ///
    /// - Throws: `SCLMError`/`StoreError` when the home or database cannot be opened; one line naming the home
    ///   when it is read-only.
    package func store() throws -> ContentStore {
        try openedStore.withLock { cached in
            if let cached, !cached.isReadOnly { return cached }
            try prepareHomeForWriting()
            let store = try ContentStore(path: home.databasePath)
            if store.migratedFrom == 0 { logger.debug("created database \(home.databasePath)") }
            cached = store
            return store
        }
    }

    /// The home's database for a command that only reads (`status`, `list`, `show`, `whoami`, …): as ``store()``
    /// when the home can be written, else the existing database opened read-only
    /// (`ContentStore.openForReading`), so a read-only home can still be inspected.
    ///
    /// - Throws: `SCLMError`/`StoreError` when the database cannot be opened, or a read-only home has none.
    package func readingStore() throws -> ContentStore {
        guard isHomeReadOnly else { return try store() }
        return try openedStore.withLock { cached in
            if let cached { return cached }
            guard FileSystem.exists(home.databasePath) else {
                throw SCLMError(
                    .storage,
                    "the sclm home \(home.root) is read-only and holds no database yet; run `sclm sync` where it "
                        + "is writable first")
            }
            let store = try ContentStore.openForReading(path: home.databasePath)
            logger.debug("opened \(home.databasePath) read-only: the home is not writable")
            cached = store
            return store
        }
    }

    /// Creates the home (``Home/prepare()``) for a command that writes there; a read-only home is refused with
    /// one line naming it and the way out, instead of the failure of the first write.
    ///
    /// - Throws: `SCLMError` (`.storage`).
    package func prepareHomeForWriting() throws {
        if isHomeReadOnly {
            let command = commandPath.joined(separator: " ")
            throw SCLMError(
                .storage,
                "the sclm home \(home.root) is read-only, and `\(command)` needs to write there: make it writable, "
                    + "or point --home or SCLM_HOME at a writable folder")
        }
        try home.prepare()
    }

    /// Whether the home exists and this process cannot write in it (a read-only mount, another user's folder).
    private var isHomeReadOnly: Bool {
        FileSystem.isDirectory(home.root) && !FileSystem.isWritable(home.root)
    }

    /// Shows a notice the runner prints while a command is running (e.g. "Cancelling…" after Ctrl-C) on
    /// stderr, or through the writer a live display installed with ``setNoticeWriter(_:)``.
    package func showNotice(_ line: String) {
        if let writer = noticeWriter.withLock({ $0 }) {
            writer(line)
        } else {
            StandardStream.standardError.writeLine(line)
        }
    }

    /// Routes ``showNotice(_:)`` through `writer` (a live display that must not be drawn over), or back to
    /// stderr with `nil`.
    package func setNoticeWriter(_ writer: (@Sendable (String) -> Void)?) {
        noticeWriter.withLock { $0 = writer }
    }

    /// Prints one line of text output on stdout; its interpolated values are escaped (see ``TerminalText``).
    package func print(_ line: TerminalText = "") {
        stdout.writeLine(line.rendered)
    }

    /// Prints `value` as one line of compact JSON with sorted keys on stdout.
    package func printJSON(_ value: some Encodable) {
        stdout.writeLine(JSONOutput.line(value))
    }
}

/// The one JSON encoding of command output: compact, sorted keys, ISO-8601 dates, unescaped slashes, and
/// every character that could steer a terminal written as a `\uXXXX` escape (``TerminalText/escapingJSON(_:)``).
package enum JSONOutput {
    /// `value` as one line of JSON.
    package static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date))
        }
        guard let data = try? encoder.encode(value) else { return "null" }
        return TerminalText.escapingJSON(String(decoding: data, as: UTF8.self))
    }
}

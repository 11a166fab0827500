import Foundation

/// The options, flags and positionals given to one command.
///
/// Options are read only through their typed ``CommandOption`` descriptors, and the descriptor must be one
/// the command lists in ``CommandConfiguration/options`` (a forgotten declaration would otherwise read
/// nothing silently): arguments from ``CommandParser`` stop the debug build with an assertion, and
/// `CommandOptionDeclarationTests` reads every command of the tree through ``init(declaring:onRead:)`` and
/// fails on such a read — and on a declared option that the command never reads (accepted, then ignored).
package struct ParsedArguments: Sendable, Equatable {
    /// Positional values in order.
    package var positionals: [String] = []
    /// The values given per canonical option name, in order; a flag has one empty value per time given.
    private var given: [String: [String]] = [:]
    /// The canonical names the command declares; `nil` for arguments built without a command (unchecked).
    private var declared: Set<String>?
    /// Hears each option read, with whether the command declares it; `nil`: an undeclared read is an
    /// assertion failure.
    private var onRead: (@Sendable (_ name: String, _ isDeclared: Bool) -> Void)?

    /// Creates an empty set of arguments that checks no names.
    package init() {}

    /// Creates an empty set of arguments for a command declaring `options`.
    ///
    /// - Parameters:
    ///   - options: the command's declared options and flags.
    ///   - onRead: called with the name of each option read and whether it is declared (default: an undeclared
    ///     read is an assertion failure).
    package init(
        declaring options: [OptionSpec], onRead: (@Sendable (_ name: String, _ isDeclared: Bool) -> Void)? = nil
    ) {
        declare(options)
        self.onRead = onRead
    }

    package static func == (lhs: ParsedArguments, rhs: ParsedArguments) -> Bool {
        lhs.positionals == rhs.positionals && lhs.given == rhs.given
    }

    /// The value of `option`: `false`/`nil`/`[]` when it was not given.
    ///
    /// - Throws: ``ValidationError`` for a malformed value.
    package func read<Value>(_ option: CommandOption<Value>) throws -> Value {
        try option.value(given: given[checked(option.name)] ?? [])
    }

    /// Whether `option` was given at all, whatever its value.
    package func isGiven(_ option: some OptionDeclaration) -> Bool {
        given[checked(option.spec.canonicalName)] != nil
    }

    /// The value of `option` when the command declares it, else `nil`: for options shared by commands that
    /// each declare only some of them.
    ///
    /// - Throws: ``ValidationError`` for a malformed value.
    package func readIfDeclared<Value>(_ option: CommandOption<Value>) throws -> Value? {
        declared?.contains(option.name) ?? true ? try read(option) : nil
    }

    /// `name`, after checking that the command declares it.
    private func checked(_ name: String) -> String {
        let isDeclared = declared?.contains(name) ?? true
        if let onRead {
            onRead(name, isDeclared)
        } else if !isDeclared {
            assertionFailure("option \(name) is read but not declared in the command's configuration")
        }
        return name
    }

    /// The positional at `index`.
    ///
    /// - Throws: ``ValidationError`` naming `name` when it is missing.
    package func positional(_ index: Int, named name: String) throws -> String {
        guard positionals.indices.contains(index) else { throw ValidationError("missing <\(name)>") }
        return positionals[index]
    }

    /// The positional at `index` as an id (a whole number), e.g. a presentation id.
    ///
    /// - Throws: ``ValidationError`` naming `name` when it is missing or not a number.
    package func identifier(_ index: Int, named name: String) throws -> Int64 {
        let text = try positional(index, named: name)
        guard let id = Int64(text) else { throw ValidationError("<\(name)> must be a number, got '\(text)'") }
        return id
    }

    /// The ``ArgumentSpec/presentationId`` positional (the first one).
    ///
    /// - Throws: ``ValidationError`` when it is missing or not a number.
    package func presentationId() throws -> Int64 {
        try identifier(0, named: ArgumentSpec.presentationId.name)
    }

    /// Checks reads against `options` from now on (the parser calls it once it knows the command).
    mutating func declare(_ options: [OptionSpec]) { declared = Set(options.map(\.canonicalName)) }

    /// Whether any value of `option` was given (without checking the declaration: for the parser).
    func contains(_ option: OptionSpec) -> Bool { given[option.canonicalName] != nil }

    /// Records that `option` was given, with `value` (ignored for a flag).
    package mutating func add(_ value: String, for option: OptionSpec) {
        given[option.canonicalName, default: []].append(option.valueName == nil ? "" : value)
    }
}

import Foundation

/// The options, flags and positionals given to one command.
///
/// Options are read by their canonical name or by their ``OptionSpec``; either way the name must be one the
/// command declares in ``CommandConfiguration/options``. Reading any other name is a programming error (a
/// typo would otherwise read `nil` silently): arguments from ``CommandParser`` stop the debug build with an
/// assertion, and `CommandOptionDeclarationTests` reads every command of the tree through
/// ``init(declaring:onUndeclaredRead:)`` and fails on such a read.
package struct ParsedArguments: Sendable, Equatable {
    /// Positional values in order.
    package var positionals: [String] = []
    /// Values per canonical option name, in the order given.
    var values: [String: [String]] = [:]
    /// Number of times each flag was given, per canonical name.
    var flags: [String: Int] = [:]
    /// The canonical names the command declares; `nil` for arguments built without a command (unchecked).
    private var declared: Set<String>?
    /// What happens when an undeclared name is read; `nil`: an assertion failure.
    private var onUndeclaredRead: (@Sendable (String) -> Void)?

    /// Creates an empty set of arguments that checks no names.
    package init() {}

    /// Creates an empty set of arguments for a command declaring `options`.
    ///
    /// - Parameters:
    ///   - options: the command's declared options and flags.
    ///   - onUndeclaredRead: called with the name of each undeclared option read (default: an assertion failure).
    package init(declaring options: [OptionSpec], onUndeclaredRead: (@Sendable (String) -> Void)? = nil) {
        declare(options)
        self.onUndeclaredRead = onUndeclaredRead
    }

    package static func == (lhs: ParsedArguments, rhs: ParsedArguments) -> Bool {
        lhs.positionals == rhs.positionals && lhs.values == rhs.values && lhs.flags == rhs.flags
    }

    /// Whether flag `name` was given.
    package func flag(_ name: String) -> Bool { (flags[checked(name)] ?? 0) > 0 }

    /// The last value of option `name`, or `nil`.
    package func value(_ name: String) -> String? { values[checked(name)]?.last }

    /// Every value of option `name`, in order.
    package func values(_ name: String) -> [String] { values[checked(name)] ?? [] }

    /// Whether `flag` was given.
    package func flag(_ flag: OptionSpec) -> Bool { self.flag(flag.canonicalName) }

    /// The last value of `option`, or `nil`.
    package func value(_ option: OptionSpec) -> String? { value(option.canonicalName) }

    /// Every value of `option`, in order.
    package func values(_ option: OptionSpec) -> [String] { values(option.canonicalName) }

    /// Whether the command declares `option` (always, for arguments built without a command): for parsing
    /// code shared by commands that each declare only some of its options.
    package func declares(_ option: OptionSpec) -> Bool { declared?.contains(option.canonicalName) ?? true }

    /// `read(self)` when the command declares `option`, else `nil`.
    ///
    /// - Throws: what `read` throws.
    package func ifDeclared<Value>(_ option: OptionSpec, _ read: (Self) throws -> Value?) rethrows -> Value? {
        declares(option) ? try read(self) : nil
    }

    /// `name`, after checking that the command declares it.
    private func checked(_ name: String) -> String {
        guard let declared, !declared.contains(name) else { return name }
        if let onUndeclaredRead {
            onUndeclaredRead(name)
        } else {
            assertionFailure("option \(name) is read but not declared in the command's configuration")
        }
        return name
    }

    /// The required `--presentation` id of an installed presentation; `purpose` says what it is for.
    ///
    /// - Throws: ``ValidationError`` when it is missing or not a positive integer.
    package func presentationId(purpose: String) throws -> Int64 {
        guard let text = value("--presentation") else {
            throw ValidationError(
                "missing --presentation <id>: the installed presentation to \(purpose) (see `sclm list`)")
        }
        guard let id = Int64(text), id > 0 else {
            throw ValidationError("--presentation needs a presentation id, got '\(text)'")
        }
        return id
    }

    /// The value of option `name` as an integer in `range`, or `nil` when absent.
    ///
    /// - Throws: ``ValidationError`` for a non-integer or out-of-range value.
    package func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let bounds =
                range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
            throw ValidationError("\(name) needs an integer \(bounds), got '\(text)'")
        }
        return number
    }

    /// The value of option `name`, which must be one of `choices`, or `nil` when absent.
    ///
    /// - Throws: ``ValidationError`` listing the choices.
    package func choice(_ name: String, from choices: [String]) throws -> String? {
        guard let text = value(name) else { return nil }
        guard let match = choices.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
            throw ValidationError("\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return match
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

    package mutating func addValue(_ value: String, for name: String) { values[name, default: []].append(value) }
    package mutating func addFlag(_ name: String) { flags[name, default: 0] += 1 }
}

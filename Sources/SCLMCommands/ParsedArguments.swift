import Foundation

/// The options, flags and positionals given to one command.
package struct ParsedArguments: Sendable, Equatable {
    /// Positional values in order.
    package var positionals: [String] = []
    /// Values per canonical option name, in the order given.
    var values: [String: [String]] = [:]
    /// Number of times each flag was given, per canonical name.
    var flags: [String: Int] = [:]

    /// Creates an empty set of arguments.
    package init() {}

    /// Whether flag `name` was given.
    package func flag(_ name: String) -> Bool { (flags[name] ?? 0) > 0 }

    /// The last value of option `name`, or `nil`.
    package func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of option `name`, in order.
    package func values(_ name: String) -> [String] { values[name] ?? [] }

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

    mutating func addValue(_ value: String, for name: String) { values[name, default: []].append(value) }
    mutating func addFlag(_ name: String) { flags[name, default: 0] += 1 }
}

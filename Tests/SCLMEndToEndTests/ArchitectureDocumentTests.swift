import Foundation
import SCLMTestSupport
import Testing

/// ARCHITECTURE.md is a map of the tree: these checks keep it true. Its floor table must list every target
/// of Package.swift with exactly the dependencies Package.swift gives it, and every file, type and function
/// it names in backticks must exist.
@Suite struct ArchitectureDocumentTests {
    static let root = ProcessRunner.packageRoot

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    @Test func theFloorTableListsEveryTargetWithItsPackageDependencies() throws {
        let package = PackageManifest(try Self.read("Package.swift"))
        let floors = FloorTable(try Self.read("ARCHITECTURE.md"))
        let documented = Set(floors.rows.flatMap(\.targets))
        let built = Set(package.dependencies.keys).subtracting(package.testTargets)
        #expect(built.subtracting(documented).sorted() == [], "targets missing from the floor table")
        #expect(documented.subtracting(built).sorted() == [], "the floor table names targets Package.swift lacks")
        for row in floors.rows {
            guard let listed = row.dependencies else { continue }
            for target in row.targets {
                let declared = Set(package.dependencies[target] ?? [])
                #expect(
                    declared == Set(listed),
                    "\(target): ARCHITECTURE.md says \(listed.sorted()), Package.swift \(declared.sorted())")
            }
        }
    }

    @Test func everyFileTypeAndFunctionItNamesExists() throws {
        let text = try Self.read("ARCHITECTURE.md")
        var tree = SourceTree(root: Self.root)
        tree.declare(PackageManifest(try Self.read("Package.swift")).dependencies.keys)
        let missing = Self.codeSpans(in: text).filter { !tree.contains($0) }
        #expect(missing == [], "ARCHITECTURE.md names what the tree does not have")
    }

    /// The contents of every `code span` in `text`.
    static func codeSpans(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 ? String(part) : nil
        }
    }
}

/// The targets of Package.swift and their dependencies, read from its text.
struct PackageManifest {
    private(set) var dependencies: [String: [String]] = [:]
    private(set) var testTargets: Set<String> = []

    init(_ text: String) {
        let declaration =
            #/\.(target|testTarget|executableTarget|systemLibrary)\(\s*name: "([^"]+)"(?:,\s*(?:pkgConfig: "[^"]*",\s*providers: [^\n]*|dependencies: \[([^\]]*)\]))?/#
        for match in text.matches(of: declaration) {
            let names = (match.output.3.map(String.init) ?? "").matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
            dependencies[String(match.output.2)] = names
            if match.output.1 == "testTarget" { testTargets.insert(String(match.output.2)) }
        }
    }
}

/// The rows of ARCHITECTURE.md's floor table: `| floor | targets | depends on | holds |`.
struct FloorTable {
    struct Row {
        /// The floor the row starts (`0 C shims` → 0, `tests` → above every floor); `nil`: the one above's.
        let floor: Int?
        let targets: [String]
        /// The dependencies the row lists, as target names; `nil` when the row describes them in words.
        let dependencies: [String]?
    }

    private(set) var rows: [Row] = []

    init(_ text: String) {
        guard let start = text.range(of: "| floor | target | depends on | holds |") else { return }
        for line in text[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { continue }
            let targets = ArchitectureDocumentTests.codeSpans(in: cells[2])
            let floor =
                cells[1] == "tests"
                ? 100 : cells[1].prefix(while: \.isNumber).isEmpty ? nil : Int(cells[1].prefix(while: \.isNumber))
            rows.append(Row(floor: floor, targets: targets, dependencies: Self.dependencies(cells[3])))
        }
    }

    /// `Core, HTTP, CSQLite` → `SCLMCore`, `SCLMHTTP`, `CSQLite`; `—` → none; prose → `nil`.
    private static func dependencies(_ cell: String) -> [String]? {
        if cell == "—" { return [] }
        let names = cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.allSatisfy({ $0.wholeMatch(of: #/[A-Za-z]+/#) != nil }) else { return nil }
        // A C shim keeps its name (`CSQLite`); `Core` is `SCLMCore`.
        return names.map { $0.wholeMatch(of: #/C[A-Z].*/#) != nil ? $0 : "SCLM" + $0 }
    }
}

/// What the repository holds, for checking names: every file path, and the types and functions its Swift,
/// JavaScript and Python files declare.
struct SourceTree {
    private var paths: [String] = []
    /// Declared names, starting with the standard library's and HTTP's that the document mentions.
    private var declarations: Set<String> = ["Range", "Decodable", "Encodable", "Sendable", "ETag"]
    private static var declaration: Regex<(Substring, Substring?, Substring?)> {
        #/(?:struct|class|enum|protocol|actor|typealias|func|case|var|let|extension|function|def|const)\s+([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*): function/#
    }

    init(root: String) {
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix(".build") || path.hasPrefix(".git/") {
                enumerator?.skipDescendants()
                continue
            }
            paths.append(path)
            guard [".swift", ".js", ".py"].contains(where: path.hasSuffix),
                let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8)
            else { continue }
            for match in text.matches(of: Self.declaration) {
                declarations.insert(String(match.output.1 ?? match.output.2 ?? ""))
            }
        }
    }

    /// Adds `names` (the package's targets) to what exists.
    mutating func declare(_ names: some Sequence<String>) { declarations.formUnion(names) }

    /// Whether `span` names something that exists: a path (with a `/` or a file extension), a type
    /// (`UpperCamel`, dotted members too) or a function (`name(…)`). Other spans (commands, URLs, text) pass.
    func contains(_ span: String) -> Bool {
        let isText =
            [" ", "<", "*", "\""].contains(where: span.contains) || span.hasPrefix("-") || span.hasPrefix(".build")
        // `NULL`, `GUID`, `SELECT`: SQL and protocol words, not declarations.
        if isText || span.wholeMatch(of: #/[A-Z]+/#) != nil { return true }
        if let file = span.wholeMatch(of: #/[\w.+-]*[\w+-]+(?:/[\w.+-]+)*\.(?:swift|md|py|js|sh|conf|h|modulemap)/#) {
            return paths.contains { $0 == String(file.output) || $0.hasSuffix("/" + file.output) }
        }
        if span.hasSuffix("/") || (span.contains("/") && !span.contains(".") && !span.contains(":")) {
            let folder = span.hasSuffix("/") ? String(span.dropLast()) : span
            return paths.contains { $0 == folder || $0.hasSuffix("/" + folder) }
        }
        if let call = span.wholeMatch(of: #/([A-Za-z_][A-Za-z0-9_.]*)\([^)]*\)/#) {
            return names(String(call.output.1))
        }
        if span.wholeMatch(of: #/[A-Z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*/#) != nil { return names(span) }
        return true
    }

    /// Every component of a dotted name is declared somewhere (`init` always is).
    private func names(_ dotted: String) -> Bool {
        dotted.split(separator: ".").allSatisfy { $0 == "init" || declarations.contains(String($0)) }
    }
}

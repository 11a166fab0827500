import Foundation
import SCLMTestSupport
import Testing

/// What ARCHITECTURE.md says about how the parts relate, checked against what they are: every import of a
/// package target is a dependency Package.swift lists (and every listed dependency is imported), every
/// dependency stands on a lower floor of the floor table, walk 2 names exactly the modules the built
/// bridge declares, and the table of owners names every table the schema creates, with the module whose
/// sources alone write it.
@Suite struct ArchitectureRelationTests {
    static let root = ArchitectureDocumentTests.root

    /// The package targets each library and executable target's sources import.
    static func imports(of targets: some Sequence<String>) -> [String: Set<String>] {
        let known = Set(targets)
        var imports: [String: Set<String>] = [:]
        for target in known {
            let folder = root + "/Sources/" + target
            guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
            var found = Set<String>()
            while let file = files.nextObject() as? String {
                guard file.hasSuffix(".swift") || file.hasSuffix(".h") || file.hasSuffix(".modulemap"),
                    let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                else { continue }
                for match in text.matches(of: #/(?m)^\s*(?:@\w+\s+)*import\s+(\w+)/#) {
                    let name = String(match.output.1)
                    if known.contains(name), name != target { found.insert(name) }
                }
            }
            imports[target] = found
        }
        return imports
    }

    @Test func everyImportIsAListedDependencyAndEveryDependencyIsImported() throws {
        let package = PackageManifest(try ArchitectureDocumentTests.read("Package.swift"))
        let targets = Set(package.dependencies.keys).subtracting(package.testTargets)
        let imports = Self.imports(of: targets)
        for target in targets.sorted() where FileManager.default.fileExists(atPath: Self.root + "/Sources/" + target) {
            let listed = Set(package.dependencies[target] ?? [])
            let used = imports[target] ?? []
            #expect(used.subtracting(listed).sorted() == [], "\(target) imports targets Package.swift does not list")
            #expect(listed.subtracting(used).sorted() == [], "\(target) lists dependencies it never imports")
        }
    }

    @Test func everyDependencyStandsOnALowerFloor() throws {
        let package = PackageManifest(try ArchitectureDocumentTests.read("Package.swift"))
        let floors = FloorTable(try ArchitectureDocumentTests.read("ARCHITECTURE.md")).floors
        #expect(floors.count > 20, "the floor table gives each target a floor")
        for (target, floor) in floors {
            for dependency in package.dependencies[target] ?? [] {
                let below = floors[dependency] ?? .max
                #expect(below < floor, "\(target) (floor \(floor)) depends on \(dependency) (floor \(below))")
            }
        }
    }

    @Test func walkTwoNamesTheModulesTheBridgeDeclares() async throws {
        let text = try ArchitectureDocumentTests.read("ARCHITECTURE.md")
        let walk = try #require(text.firstRange(of: "## Walk 2").map { text[$0.lowerBound...] })
        let host = try #require(walk.firstMatch(of: #/`modules` are ([^(]+)\(/#)).output.1
        let hostModules = host.split(whereSeparator: { ", ".contains($0) }).map(String.init)
            .filter { $0 != "and" }
        let others = try #require(walk.firstMatch(of: #/With ((?:`\w+Module`,? ?)+)/#)).output.1
        let otherModules = ArchitectureDocumentTests.codeSpans(in: String(others)).map { String($0.dropLast(6)) }
        // `bridge` is the server's own `bridge.*` commands (describe, cancel), which step 4 of the walk tells.
        let declared = Set(try await BridgeReferenceTests.declared().commands.keys).subtracting(["bridge"])
        #expect(Set(hostModules + otherModules) == declared, "walk 2 lists \(hostModules + otherModules)")
    }
}

extension ArchitectureRelationTests {
    /// The rows of "Tables and their owners": each table named in the first cell, with its owner.
    static func tableOwners(in text: String) -> [String: String] {
        guard let start = text.range(of: "| tables | owner | SQL and decoding live in | used by |") else { return [:] }
        var owners: [String: String] = [:]
        for line in text[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 3 else { continue }
            // `presentations.manifestRevision`: a column the row also covers, not a table.
            for table in ArchitectureDocumentTests.codeSpans(in: cells[1]) where !table.contains(".") {
                owners[table] = cells[2]
            }
        }
        return owners
    }

    /// Every Swift source under `Sources/` with its target, and its text.
    static func sources() -> [(target: String, path: String, text: String)] {
        let folder = root + "/Sources"
        guard let files = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [(String, String, String)] = []
        while let file = files.nextObject() as? String {
            guard file.hasSuffix(".swift"), let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            else { continue }
            found.append((String(file.prefix { $0 != "/" }), file, text))
        }
        return found
    }

    @Test func everyTableHasItsDocumentedOwnerAndOnlyItWritesIt() throws {
        let owners = Self.tableOwners(in: try ArchitectureDocumentTests.read("ARCHITECTURE.md"))
        let sources = Self.sources()
        let created = Set(
            sources.flatMap {
                $0.text.matches(of: #/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/#).map { String($0.output.1) }
            })
        #expect(created.count > 10, "the schema was read")
        #expect(
            Set(owners.keys) == created,
            "ARCHITECTURE.md's owners \(owners.keys.sorted()), the schema \(created.sorted())")
        for source in sources {
            for write in source.text.matches(of: #/(?:INSERT (?:OR [A-Z]+ )?INTO|UPDATE|DELETE FROM) "?([a-z_]+)/#) {
                let table = String(write.output.1)
                #expect(
                    owners[table] == source.target,
                    "\(source.path) writes \(table), which \(owners[table] ?? "nobody") owns")
            }
        }
    }
}

extension FloorTable {
    /// Each target's floor: the number that starts its row's first cell, or the row above's when blank; the
    /// test support counts as the floor above every other.
    var floors: [String: Int] {
        var floors: [String: Int] = [:]
        var current = 0
        for row in rows {
            if let number = row.floor { current = number }
            for target in row.targets { floors[target] = current }
        }
        return floors
    }
}

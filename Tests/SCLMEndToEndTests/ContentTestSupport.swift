import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Testing

/// Helpers of the content-sync tests, on top of the ``SyncTests`` harness (a dev-server, a home, `sclm`).
extension SyncTests {
    /// The home's database, opened directly.
    func database() throws -> Database { try Database(path: home + "/sclm.db") }

    /// `content/<clientId>/<presentationId>` in the home.
    func presentationFolder(client: Int64, presentation: Int64) -> String {
        "\(home)/content/\(client)/\(presentation)"
    }

    /// The names in the home's cache folder.
    func cacheFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home + "/cache")) ?? []).sorted()
    }

    /// One stored presentation's local state: installed revision, sync state, sync error.
    func localState(of id: Int64) throws -> (installed: Int64?, state: Int64?, error: String?) {
        let row = try #require(
            try database().fetchOne(
                "SELECT installedRevision, syncState, syncError FROM presentations WHERE presentationId = ?", [id]))
        return (row.int("installedRevision"), row.int("syncState"), row.string("syncError"))
    }

    /// Logs in as the demo service client (client credentials).
    func loginAsService() async throws {
        let result = try await sclm(["login", "--service"])
        try #require(result.status == 0, "\(result)")
    }

    /// `sclm sync` started in the background with this harness's server and home.
    func startSync(_ arguments: [String] = []) throws -> RunningProcess {
        try ProcessRunner.startSclm(["sync"] + arguments, home: home, environment: server.environment)
    }
}

/// The `--json` lines of a sync, parsed.
struct SyncEvents {
    let lines: [[String: Any]]

    init(_ stdout: String) {
        lines = stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Events named `name` (`started`, `progress`, `installed`, …).
    func named(_ name: String) -> [[String: Any]] { lines.filter { $0["event"] as? String == name } }

    /// The presentation ids of the events named `name`.
    func ids(_ name: String) -> [Int64] { named(name).compactMap { ($0["presentationId"] as? Int).map(Int64.init) } }

    /// The final `summary` event.
    var summary: [String: Any]? { named("summary").last }

    /// The summary's content report.
    var content: [String: Any]? { summary?["content"] as? [String: Any] }
}

/// Regular files of folder trees, compared byte for byte.
enum FileTree {
    /// Relative paths of the regular files under `folder`, sorted; names starting with `.` are skipped.
    static func files(in folder: String) -> [String] {
        let manager = FileManager.default
        return (manager.subpaths(atPath: folder) ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return !path.split(separator: "/").contains { $0.hasPrefix(".") }
                && manager.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    /// What differs between a presentation source folder and its installed copy (`presentation.json`
    /// is not part of a package): missing, extra and changed files. Empty when they are identical.
    static func differences(source: String, installed: String) -> [String] {
        let expected = Set(files(in: source)).subtracting(["presentation.json"])
        let actual = Set(files(in: installed))
        var problems = expected.subtracting(actual).sorted().map { "missing \($0)" }
        problems += actual.subtracting(expected).sorted().map { "extra \($0)" }
        for path in expected.intersection(actual).sorted()
        where FileManager.default.contents(atPath: source + "/" + path)
            != FileManager.default.contents(atPath: installed + "/" + path)
        {
            problems.append("changed \(path)")
        }
        return problems
    }
}

/// The assembled sample decks (``SampleContent/assembledPath``), by presentation id.
enum SampleDecks {
    struct Deck {
        let id: Int64
        let clientId: Int64
        let folder: String
        let skip: Bool
    }

    /// Every deck, in folder-name order.
    static var all: [Deck] {
        get throws {
            let root = try SampleContent.assembledPath
            return try FileManager.default.contentsOfDirectory(atPath: root).sorted().compactMap { name in
                guard let data = FileManager.default.contents(atPath: "\(root)/\(name)/presentation.json"),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let id = object["id"] as? Int, let client = object["clientId"] as? Int
                else { return nil }
                return Deck(
                    id: Int64(id), clientId: Int64(client), folder: "\(root)/\(name)",
                    skip: object["skip"] as? Bool ?? false)
            }
        }
    }

    static func deck(_ id: Int64) throws -> Deck? { try all.first { $0.id == id } }
}

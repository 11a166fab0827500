import Foundation
import SCLMTestSupport
import Testing

/// `scripts/lint-sql.sh`: SQL in string literals only in the files that own the tables.
@Suite(.tags(.medium)) struct SQLOwnershipTests {
    static let script = ProcessRunner.packageRoot + "/scripts/lint-sql.sh"

    @Test func theTreeHasNoSQLOutsideTheTableOwners() throws {
        let result = try ProcessRunner.run("/bin/bash", [Self.script, ProcessRunner.packageRoot])
        #expect(result.status == 0, "\(result)")
    }

    @Test func sqlOutsideAnOwnerIsFoundAndNamedButOwnersAndHTTPMethodsAreNot() throws {
        let root = TemporaryDirectory()
        let files = [
            "Sources/SCLMCommands/Peek.swift": #"let n = try db.fetchCount("SELECT count(*) FROM clients")"# + "\n",
            "Sources/SCLMSync/Block.swift": "let sql = \"\"\"\n    UPDATE presentations SET skip = 1\n    \"\"\"\n",
            "Sources/SCLMStore/Database+Clients.swift": #"let sql = "DELETE FROM clients WHERE clientId = ?""# + "\n",
            "Sources/SCLMHTTP/Method.swift": #"static let delete = HTTPMethod(rawValue: "DELETE")"# + "\n"
                + "// SELECT name FROM clients is only a comment\n",
        ]
        for (path, text) in files { try root.write(text, to: path) }
        let result = try ProcessRunner.run("/bin/bash", [Self.script, root.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("Sources/SCLMCommands/Peek.swift:1:"), "\(result)")
        #expect(result.stdout.contains("Sources/SCLMSync/Block.swift:2:"), "\(result)")
        #expect(!result.stdout.contains("Database+Clients") && !result.stdout.contains("Method.swift"), "\(result)")
        #expect(result.stderr.contains("Tables and their owners"))
    }
}

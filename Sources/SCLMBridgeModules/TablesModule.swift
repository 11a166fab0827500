import Foundation
import SCLMAuth
import SCLMBridge
import SCLMCore
import SCLMHTTP
import SCLMStore

/// Tables: StoryCLM Tables for content (storyclm.js `StoryCLM.Tables`) — `tables`, `count`, `countByQuery`,
/// `findById`, `findByIds`, `findByQuery`, `insertEntry`, `insertEntries`, `updateEntry`, `updateEntries`,
/// `deleteById`, `deleteByIds` — through the StoryCLM API (`/v1/tables/{tableId}/…`) with the login's token.
///
/// The answer's `Data` is the API's JSON. Without the API (no `api.url`, no login, the API unreachable)
/// every command answers 503 saying so: offline (Application-mode) tables are not kept. Only the
/// presentation's client's tables are served: a command that names a table lists them first (once per run,
/// as `tables` does, failing as `tables` would) and answers any other table 404 like an unknown one, with no
/// request for it. Any other API 4xx passes through with its code and message; a 5xx is 502. Requests run
/// concurrently (no lane).
package struct TablesModule: DeclaredBridgeModule {
    /// How the module reaches the API.
    package enum Connection: Sendable {
        /// Requests go to `apiURL` through `send`, which adds the token (an `AuthSession`).
        case online(apiURL: URL, send: @Sendable (HTTPRequest) async throws -> HTTPResponse)
        /// Tables are unavailable, for the reason given (what to set).
        case offline(String)
    }

    package let name = "Tables"
    let connection: Connection
    let host: PresentationHost
    /// The ids of the client's tables, listed on the first command that names a table.
    let clientTables = ClientTables()

    /// Creates the module; `host` gives the client whose tables it serves.
    package init(connection: Connection, host: PresentationHost) {
        self.connection = connection
        self.host = host
    }

    package static let declarations: BridgeCommandDeclarations<Self> = [
        .deferred("tables") { module, _, _ in try await module.listTables() },
        .deferred("count", parameters: TableParameters.self) { module, parameters, _ in
            try await module.call(.get, table: parameters.tableId.value, "count")
        },
        .deferred("countByQuery", parameters: QueryParameters.self) { module, parameters, _ in
            try await module.call(.get, table: parameters.tableId.value, "count", query: [("query", parameters.query)])
        },
        .deferred("findById", parameters: ByIdParameters.self) { module, parameters, _ in
            try await module.call(.get, table: parameters.tableId.value, "findbyid/\(try Self.segment(parameters.id))")
        },
        .deferred("findByIds", parameters: ByIdsParameters.self) { module, parameters, _ in
            try await module.call(
                .get, table: parameters.tableId.value, "findbyids", query: parameters.ids.map { ("ids", $0) })
        },
        .deferred("findByQuery", parameters: FindParameters.self) { module, parameters, _ in
            try await module.call(.get, table: try parameters.table(), "find", query: parameters.items)
        },
        .deferred("insertEntry") { module, request, _ in try await module.write(request, .post, "insert", key: "entry")
        },
        .deferred("insertEntries") { module, request, _ in
            try await module.write(request, .post, "insertmany", key: "entries")
        },
        .deferred("updateEntry") { module, request, _ in try await module.write(request, .put, "update", key: "entry")
        },
        .deferred("updateEntries") { module, request, _ in
            try await module.write(request, .put, "updatemany", key: "entries")
        },
        .deferred("deleteById", parameters: ByIdParameters.self) { module, parameters, _ in
            try await module.call(.delete, table: parameters.tableId.value, "delete/\(try Self.segment(parameters.id))")
        },
        .deferred("deleteByIds", parameters: ByIdsParameters.self) { module, parameters, _ in
            try await module.call(
                .delete, table: parameters.tableId.value, "deletemany", query: parameters.ids.map { ("ids", $0) })
        },
    ]

    /// The presentation's client's tables, as the API lists them.
    ///
    /// - Throws: what ``send(_:_:query:body:)`` throws; ``BridgeError`` (404) before the host has started.
    func listTables() async throws -> BridgeReply {
        try await send(.get, "\(try host.scope().clientId)/tables")
    }

    /// Sends one request for `table` (`operation` is the rest of its path) once the table is known to be one
    /// of the presentation's client's.
    ///
    /// - Throws: ``BridgeError``: 404 for any other table, in the words of an unknown one, without a request
    ///   that names it; what ``listTables()`` throws when the client's tables cannot be listed; what
    ///   ``send(_:_:query:body:)`` throws.
    func call(
        _ method: HTTPMethod, table: Int64, _ operation: String, query: [(String, String)] = [], body: JSONValue? = nil
    ) async throws -> BridgeReply {
        guard try await isClientTable(table) else { throw BridgeError(.notFound, "StoryCLM Tables: no table \(table)") }
        return try await send(method, "\(table)/\(operation)", query: query, body: body)
    }

    /// Whether `table` is one of the client's tables, listing them on the first call.
    private func isClientTable(_ table: Int64) async throws -> Bool {
        let ids = try await clientTables.ids { try Self.tableIds(in: try await listTables().data) }
        return ids.contains(table)
    }

    /// Sends one API request and answers its JSON.
    ///
    /// - Throws: ``BridgeError``: 503 offline, the API's 4xx with its message, 502 for a 5xx or non-JSON.
    func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil
    ) async throws -> BridgeReply {
        let apiURL: URL
        let send: @Sendable (HTTPRequest) async throws -> HTTPResponse
        switch connection {
        case .offline(let reason): throw BridgeError(.unavailable, Self.offlineMessage(reason))
        case .online(let url, let sender): (apiURL, send) = (url, sender)
        }
        var request = HTTPRequest(method, url: try Self.url(apiURL, path: path, query: query))
        request.headers.set(name: "Accept", value: "application/json")
        if let body {
            request.headers.set(name: "Content-Type", value: "application/json")
            request.body = Data(JSONWriter.bytes(body))
        }
        let response: HTTPResponse
        do {
            response = try await send(request)
        } catch let error as HTTPError {
            throw BridgeError(
                .unavailable, Self.offlineMessage("the StoryCLM API did not answer (\(error.description))"))
        } catch let error as AuthError {
            throw BridgeError(.unavailable, Self.offlineMessage(error.description))
        }
        return try Self.reply(to: response)
    }

    /// Sends `Data`'s `entry` (an object) or `entries` (an array of objects) to the table's `operation`.
    ///
    /// - Throws: ``BridgeError`` (400) when `key` is missing or of the wrong type; what
    ///   ``call(_:table:_:query:body:)`` throws.
    func write(_ request: BridgeRequest, _ method: HTTPMethod, _ operation: String, key: String) async throws
        -> BridgeReply
    {
        let table = try request.decode(TableParameters.self).tableId.value
        let body = request.data[key]
        let fits = key == "entries" ? body?.arrayValue?.allSatisfy { $0.objectValue != nil } : body?.objectValue != nil
        guard let body, fits == true else {
            let shape = key == "entries" ? "[{…}, …]" : "{…}"
            throw BridgeError(.badRequest, "\(request.command) needs {\"tableId\":\(table),\"\(key)\":\(shape)}")
        }
        return try await call(method, table: table, operation, body: body)
    }

    /// The table ids in the API's list of tables (`[{id, name, …}, …]`).
    ///
    /// - Throws: ``BridgeError`` (502) for a list that is not a JSON array.
    static func tableIds(in list: JSONValue) throws -> Set<Int64> {
        guard let tables = list.arrayValue else {
            throw BridgeError(
                .badGateway, "the StoryCLM API answered the list of tables with JSON that is not an array")
        }
        return Set(tables.compactMap { $0["id"]?.intValue })
    }

    /// The bridge answer for an API response.
    ///
    /// - Throws: ``BridgeError`` for a status other than 2xx or a body that is not JSON.
    static func reply(to response: HTTPResponse) throws -> BridgeReply {
        let json = try? JSONParser.parse(Array(response.body))
        switch response.status {
        case 200..<300:
            guard let json else {
                throw BridgeError(.badGateway, "the StoryCLM API answered Tables with text that is not JSON")
            }
            return .ok(json)
        case 400..<500:
            let message =
                json?["message"]?.stringValue ?? json?["error"]?.stringValue
                ?? String(decoding: response.body.prefix(200), as: UTF8.self)
            throw BridgeError(
                BridgeError.Code(rawValue: response.status), "StoryCLM Tables: \(TerminalText.escaping(message))")
        default:
            throw BridgeError(.badGateway, "the StoryCLM API answered Tables with HTTP \(response.status)")
        }
    }

    static func offlineMessage(_ reason: String) -> String {
        "StoryCLM Tables need the StoryCLM API and are not available offline: \(reason)"
    }

    private static func url(_ apiURL: URL, path: String, query: [(String, String)]) throws -> URL {
        var components = URLComponents(url: apiURL.appending(path: "v1/tables/" + path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        guard let url = components?.url else {
            throw BridgeError(.badRequest, "Tables: cannot build a URL for \(path)")
        }
        return url
    }

    /// An entry id as one URL path segment.
    ///
    /// - Throws: ``BridgeError`` (400) for an empty id.
    private static func segment(_ id: String) throws -> String {
        guard !id.isEmpty, let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else {
            throw BridgeError(.badRequest, "Tables: the entry id is empty")
        }
        return escaped
    }
}

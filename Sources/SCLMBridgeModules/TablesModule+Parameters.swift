import SCLMBridge
import SCLMCore

extension TablesModule {
    /// `{tableId}`.
    struct TableParameters: Decodable {
        let tableId: LenientInt
    }

    /// `countByQuery {tableId, query}`.
    struct QueryParameters: Decodable {
        let tableId: LenientInt
        let query: String
    }

    /// `findById`/`deleteById` `{tableId, id}`.
    struct ByIdParameters: Decodable {
        let tableId: LenientInt
        let id: String
    }

    /// `findByIds`/`deleteByIds` `{tableId, ids}`.
    struct ByIdsParameters: Decodable {
        let tableId: LenientInt
        let ids: [String]
    }

    /// `findByQuery`: storyclm.js sends its `TablesQuery` (`{skip, take, query, sort, sortfield}`), which
    /// has no table id; content adds `tableId` to it.
    struct FindParameters: Decodable {
        let tableId: LenientInt?
        let query: String?
        let skip: LenientInt?
        let take: LenientInt?
        let sort: LenientInt?
        let sortfield: String?

        /// The table id.
        ///
        /// - Throws: ``BridgeError`` (400) naming the missing `tableId`.
        func table() throws -> Int64 {
            guard let tableId else {
                throw BridgeError(
                    .badRequest,
                    "findByQuery needs the table id: add tableId to the query object, e.g. {\"tableId\":1,\"query\":\"[name][eq][Anna]\",\"skip\":0,\"take\":100} (storyclm.js's TablesQuery does not carry it)"
                )
            }
            return tableId.value
        }

        /// The API's query items: skip, take, sort and sortfield when set, query when not empty.
        var items: [(String, String)] {
            var items = [("skip", String(skip?.value ?? 0)), ("take", String(take?.value ?? 100))]
            if let sortfield, !sortfield.isEmpty {
                items += [("sort", String(sort?.value ?? 1)), ("sortfield", sortfield)]
            }
            if let query, !query.isEmpty { items.append(("query", query)) }
            return items
        }
    }
}

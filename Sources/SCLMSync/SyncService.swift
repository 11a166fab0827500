import Foundation
import SCLMAuth
import SCLMCore
import SCLMHTTP

/// The StoryCLM content API (`/v1/…`): one typed call per endpoint.
///
/// Every request goes through the ``AuthSession`` (token, renewal, replay) and is retried with backoff
/// while the failure is transient. Failures become ``SyncError``s naming what was fetched; ``AuthError``
/// and `CancellationError` pass through unchanged so they end the whole sync.
package struct SyncService: Sendable {
    /// A decoded answer together with the exact JSON received (stored as `rawData`).
    package struct Fetched<Value: Sendable>: Sendable {
        package let value: Value
        package let body: Data
    }

    /// The API base URL (`api.url`).
    package let apiURL: URL
    private let session: AuthSession
    private let retrier: Retrier
    private let timeout: Duration?
    private let logger: Logger?

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - apiURL: the API base URL.
    ///   - session: the auth session every request goes through.
    ///   - retrier: how transient failures are retried.
    ///   - timeout: the total time limit of one API request.
    ///   - logger: receives a warning per retried failure.
    package init(
        apiURL: URL, session: AuthSession, retrier: Retrier = Retrier(policy: RetryPolicy()),
        timeout: Duration? = .seconds(120), logger: Logger? = nil
    ) {
        self.apiURL = apiURL
        self.session = session
        self.retrier = retrier
        self.timeout = timeout
        self.logger = logger
    }

    /// `GET /v1/clients`: every client with its presentation stubs.
    ///
    /// - Throws: ``SyncError``, ``AuthError``, `CancellationError`.
    package func clients() async throws -> [ClientDTO] {
        try await get("v1/clients", subject: "the client list", as: [ClientDTO].self).value
    }

    /// `GET /v1/presentations/{id}`.
    ///
    /// - Throws: ``SyncError``, ``AuthError``, `CancellationError`.
    package func presentation(_ id: Int64) async throws -> Fetched<PresentationDTO> {
        try await get("v1/presentations/\(id)", subject: "presentation \(id)", as: PresentationDTO.self)
    }

    /// `GET /v1/slides/{id}`.
    ///
    /// - Throws: ``SyncError``, ``AuthError``, `CancellationError`.
    package func slide(_ id: Int64, of presentationId: Int64) async throws -> SlideDTO {
        try await get("v1/slides/\(id)", subject: "slide \(id) of presentation \(presentationId)", as: SlideDTO.self)
            .value
    }

    /// `GET /v1/mediafiles/{id}` (with a fresh `sas`).
    ///
    /// - Throws: ``SyncError``, ``AuthError``, `CancellationError`.
    package func mediaFile(_ id: Int64, of presentationId: Int64) async throws -> MediaFileDTO {
        try await get(
            "v1/mediafiles/\(id)", subject: "media file \(id) of presentation \(presentationId)", as: MediaFileDTO.self
        ).value
    }

    /// `GET /v1/contentpackages/{presentationId}`: the package with a fresh `sas` download URL.
    ///
    /// - Throws: ``SyncError``, ``AuthError``, `CancellationError`.
    package func contentPackage(ofPresentation id: Int64) async throws -> ContentPackageDTO {
        try await get(
            "v1/contentpackages/\(id)", subject: "the package of presentation \(id)", as: ContentPackageDTO.self
        )
        .value
    }

    private func get<T: Decodable & Sendable>(_ path: String, subject: String, as type: T.Type) async throws -> Fetched<
        T
    > {
        let request = HTTPRequest(
            url: apiURL.appending(path: path), headers: ["Accept": "application/json"], timeout: timeout)
        let response: HTTPResponse
        do {
            response = try await retrier.run(method: .get, onRetry: retrier.logging(to: logger, subject: subject)) {
                let response = try await session.send(request)
                guard response.isSuccess else { throw HTTPError(response: response, method: .get) }
                return response
            }
        } catch let error as AuthError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SyncError(.fetchFailed, subject: subject, cause: error)
        }
        do {
            return Fetched(value: try JSONDecoder().decode(T.self, from: response.body), body: response.body)
        } catch {
            throw SyncError(.badResponse, subject: subject, detail: JSONValue.describe(decodingError: error))
        }
    }
}

import Foundation
import SCLMBridge
import SCLMCore
import SCLMStore
import Synchronization

/// MediaFiles: `getMediaFiles`, `openMediaFile`, `openMediaLibrary`, `hideMediaLibraryBtn`,
/// `showMediaLibraryBtn`.
///
/// A media file is only ever resolved inside its presentation's `sources/mediafiles` folder: absolute
/// names, `..`, and symlinks that lead outside are refused. Headless, a viewer "closes" at once, so
/// `openMediaFile` and `openMediaLibrary` answer `{"status":"close"}` right after their event.
struct MediaFilesModule: HostModule {
    let host: PresentationHost
    let name = "MediaFiles"
    static let declarations: BridgeCommandDeclarations<Self> = [
        .immediate("getMediaFiles") { module, _ in
            let files = try module.host.current().presentation.mediaFiles
            return .ok(.array(files.map { ["title": .string($0.title), "fileName": .string($0.fileName)] }))
        },
        .deferred("openMediaFile") { module, request, _ in try await module.openFile(request) },
        .immediate("openMediaLibrary") { module, _ in
            module.host.emit(
                .mediaLibraryOpened, ["presId": .int(try module.host.current().presentation.presentationId)])
            return .ok(["status": "close"])
        },
        .uiChange("hideMediaLibraryBtn") { $0.mediaLibraryButtonHidden = true },
        .uiChange("showMediaLibraryBtn") { $0.mediaLibraryButtonHidden = false },
    ]

    /// The media folder inside a package.
    static let folder = "mediafiles"

    /// `openMediaFile {id, name}`; `id` is a presentation id or -1 for the open one.
    struct OpenParameters: Decodable {
        let id: LenientInt?
        let name: String?
    }

    private func openFile(_ request: BridgeRequest) async throws -> BridgeReply {
        guard let parameters = try? request.decode(OpenParameters.self) else {
            throw BridgeError(.badRequest, "data has wrong format: send {\"id\":-1,\"name\":\"file.pdf\"}")
        }
        guard let name = parameters.name, !name.isEmpty else {
            throw BridgeError(.badRequest, "data has no id or name: send {\"id\":-1,\"name\":\"file.pdf\"}")
        }
        let presentation = try await host.presentation(id: parameters.id?.value ?? -1)
        guard ContentPath.isSafeRelative(name) else {
            throw BridgeError(
                .forbidden, "media file name '\(name)' leaves the presentation folder; use a name from getMediaFiles")
        }
        guard let path = ContentPath.regularFile(name, inside: presentation.sourcesDirectory + "/" + Self.folder) else {
            throw BridgeError(.notFound, "no media file '\(name)' in presentation \(presentation.presentationId)")
        }
        let mimeType = presentation.mediaFiles.first { $0.fileName == name }?.mimeType
        host.emit(
            .mediaFileOpened,
            [
                "name": .string(name), "presId": .int(presentation.presentationId), "path": .string(path),
                "mimeType": mimeType.map { .string($0) } ?? .null,
            ])
        return .ok(["name": .string(name), "status": "close"])
    }
}

extension PresentationHost {
    /// The presentation `id` refers to: the open one for -1 (or its own id), else an installed one of the
    /// same client.
    ///
    /// - Throws: ``BridgeError`` (404).
    func presentation(id: Int64) async throws -> InstalledPresentation {
        let open = state.withLock { $0.open }
        if let open, id == -1 || id == open.presentation.presentationId { return open.presentation }
        guard id != -1 else { throw Self.nothingOpen }
        return try await loadPresentation(id)
    }
}

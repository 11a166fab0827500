import Foundation
import SCLMArchive
import SCLMCore
import SCLMStore

/// A throwaway sclm home for one `validate --render` run: each package is installed into it as its own
/// presentation, so the hosts and modules of `sclm bridge` run against it and nothing of the user's home
/// (sessions, custom events, analytics, OSAM state) changes. ``remove()`` deletes it.
struct RenderHome: Sendable {
    /// The client every rendered package belongs to.
    static let clientId: Int64 = 1

    /// The folder.
    let home: Home
    /// The environment its settings are read with: the caller's without the `SCLM_*` variables, so that only
    /// the render's settings apply.
    let environment: [String: String]

    /// Creates an empty home in a new temporary folder named `prefix…` (homes of killed runs are swept), with
    /// `settings` (read from `userHome` with `--home-settings`).
    ///
    /// - Throws: `SCLMError`, `StoreError`.
    static func make(
        settings: RenderSettings, userHome: Home, environment: [String: String], prefix: String = "sclm-render-"
    ) throws -> RenderHome {
        let root = try ScratchFolder.make(prefix: prefix)
        let home = Home(root: root)
        try home.prepare()
        try settings.write(from: userHome, to: home)
        return RenderHome(home: home, environment: environment.filter { !$0.key.hasPrefix("SCLM_") })
    }

    /// Installs the package at `path` (a folder, linked; or a zip, unpacked) as presentation `presentationId`,
    /// recorded in `store` (this home's).
    ///
    /// - Returns: the package folder and its slides (root-level HTML files, `index.html` first).
    /// - Throws: ``ArchiveError`` when the zip cannot be unpacked; `StoreError`.
    func install(
        _ path: String, kind: PackageReport.Kind, presentationId: Int64, policy: Policy, store: ContentStore
    ) async throws -> [String] {
        let sources = home.sourcesDirectory(clientId: Self.clientId, presentationId: presentationId)
        try FileManager.default.createDirectory(
            atPath: (sources as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if kind == .folder {
            try FileManager.default.createSymbolicLink(
                atPath: sources, withDestinationPath: FileSystem.absolutePath(path))
        } else {
            let staged = try await PackageExtractor(policy: policy, isDurable: false).extract(
                zipAt: path, stagingFor: sources)
            try PackageExtractor.installStaging(staged.stagingPath, as: sources)
        }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        try await store.write { db in
            try db.upsert([ClientRecord(clientId: Self.clientId, name: "validate --render")])
            try db.upsert([
                PresentationRecord(presentationId: presentationId, clientId: Self.clientId, name: name, revision: 1)
            ])
            _ = try db.recordInstall(
                presentationId: presentationId, revision: 1, installedAt: Timestamp.string(from: Date()),
                mediaFileIds: [])
        }
        return Self.slides(in: sources)
    }

    /// The root-level `.html` files of `folder`, `index.html` first, then by name.
    static func slides(in folder: String) -> [String] {
        PackageContents.slides(among: (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    /// Deletes the home.
    func remove() {
        try? FileManager.default.removeItem(atPath: home.root)
    }
}

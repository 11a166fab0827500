import SCLMArchive
import SCLMBridgeModules
import SCLMCore

/// A package played straight from its zip or folder (`sclm play PATH`): checked against the package policy,
/// installed as presentation ``presentationId`` of a scratch home (a zip unpacked as `sclm sync` unpacks it, a
/// folder linked and served in place) and hosted there, as `validate --render` hosts its packages.
///
/// The bridge then answers as for an installed presentation (sessions, custom events, navigation), but
/// everything it writes goes to the scratch home, which is deleted when the run ends: nothing of the user's
/// home changes, and the scratch home starts with no settings but those of ``settings``.
package struct ScratchPackage: Sendable {
    /// The id the package is installed as in its scratch home.
    package static let presentationId: Int64 = 1

    /// The package zip or folder, as the user gave it.
    let path: String
    /// The package policy the package is checked and unpacked under.
    let policy: Policy
    /// The scratch home's settings (`--home-settings`, `--config`).
    let settings: RenderSettings
    /// The user's home and environment, and the hosting of the scratch home.
    let provider: any HostingProvider

    /// Creates the package at `path`, to be checked against `policy` and hosted with `settings`.
    package init(path: String, policy: Policy, settings: RenderSettings, provider: any HostingProvider) {
        self.path = path
        self.policy = policy
        self.settings = settings
        self.provider = provider
    }

    /// Checks the package, installs it into a new scratch home, runs `body` with that home's hosting and
    /// deletes the home when `body` returns or throws (cancelled by Ctrl-C included).
    ///
    /// The package is checked before anything is created: a missing path, a path that is not a file or
    /// folder and a package breaking a safety rule are refused without a scratch home or a browser.
    ///
    /// - Throws: ``ArchiveError``: `.unreadable` when `path` is missing or cannot be read, `.notFileOrFolder`
    ///   for a FIFO, socket or device, `.refused` (naming the first finding) when the package breaks the
    ///   policy; `SCLMError` and `StoreError` creating the scratch home; `CancellationError`; what `body` throws.
    package func withHosting<T: Sendable>(_ body: (any PresentationHosting) async throws -> T) async throws -> T {
        let report = try await PackageValidator(policy: policy).validate(path)
        if report.findings.contains(where: policy.refuses) {
            throw ArchiveError.refused(path, findings: report.findings, policy: policy)
        }
        let scratch = try RenderHome.make(
            settings: settings, userHome: provider.home, environment: provider.environment, prefix: "sclm-play-")
        defer { scratch.remove() }
        return try await provider.withHosting(home: scratch.home.root, environment: scratch.environment) { hosting in
            _ = try await scratch.install(
                path, kind: report.kind, presentationId: Self.presentationId, policy: policy, store: hosting.store())
            return try await body(hosting)
        }
    }
}

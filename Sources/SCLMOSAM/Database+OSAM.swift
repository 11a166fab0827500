import Foundation
import SCLMPolicy
import SCLMStore

/// OSAM state in the `preferences` table, OSAM's key names as keys: what a device keeps per platform (the
/// version-control throttle and cache, "don't show again", the pending alert, the rating counters) in one
/// scope per package and platform; the language and topic history, which the platform does not change, in
/// one scope per package.
extension Database {
    /// The keys kept per package whatever the platform: the language and topic history.
    static let osamKeysSharedByPlatforms: Set<String> = Set(
        [
            OSAMKey.selectedLanguage, .previousLanguage, .displayedLanguage, .managedTopics,
            .versionControlVersionNamePrevious,
        ].map(\.rawValue))

    /// The preferences scope of `packageName`'s platform-independent OSAM state: `osam:<package>`.
    package static func osamScope(package packageName: String) -> String { "osam:\(packageName)" }

    /// The preferences scope of `packageName`'s OSAM state on `platform`: `osam:<package>:<PLATFORM>`.
    package static func osamScope(package packageName: String, platform: Platform) -> String {
        "osam:\(packageName):\(platform.rawValue)"
    }

    /// The persisted platform-independent OSAM state of `packageName` (empty for a package never checked).
    ///
    /// - Throws: `StoreError`.
    package func osamState(package packageName: String) throws -> OSAMState {
        OSAMState(try preferences(scope: Database.osamScope(package: packageName)))
    }

    /// The persisted OSAM state of `packageName` on `platform`: its platform's keys and the package's shared
    /// ones (empty for one never checked).
    ///
    /// - Throws: `StoreError`.
    package func osamState(package packageName: String, platform: Platform) throws -> OSAMState {
        let shared = try preferences(scope: Database.osamScope(package: packageName)).filter {
            Database.osamKeysSharedByPlatforms.contains($0.key)
        }
        let own = try preferences(scope: Database.osamScope(package: packageName, platform: platform))
        return OSAMState(own.merging(shared) { ownValue, _ in ownValue })
    }

    /// Writes the keys of `state` that differ from `old` (removing keys `state` no longer has): with
    /// `platform`, the platform's keys to its scope and the shared ones to the package's; without, all to
    /// the package's.
    ///
    /// Only changed keys are written, so two processes checking different things for the same package
    /// do not overwrite each other's keys.
    ///
    /// - Throws: `StoreError`.
    package func saveOSAMState(
        _ state: OSAMState, since old: OSAMState, package packageName: String, platform: Platform? = nil, now: Date
    ) throws {
        let shared = Database.osamScope(package: packageName)
        let own = platform.map { Database.osamScope(package: packageName, platform: $0) } ?? shared
        for (key, value) in state.changes(since: old).sorted(by: { $0.key < $1.key }) {
            let scope = Database.osamKeysSharedByPlatforms.contains(key) ? shared : own
            try setPreference(scope: scope, key: key, value: value, now: now)
        }
    }

    /// Moves the per-platform keys that state written before states were per platform left in the
    /// package's scope into `platform`'s scope (the configured `osam.platform`, which that state was
    /// about), unless that platform already has state of its own. Does nothing when none are left.
    ///
    /// - Throws: `StoreError`.
    package func adoptUnplatformedOSAMState(package packageName: String, as platform: Platform, now: Date) throws {
        let legacyScope = Database.osamScope(package: packageName)
        let legacy = try preferences(scope: legacyScope).filter { !Database.osamKeysSharedByPlatforms.contains($0.key) }
        guard !legacy.isEmpty else { return }
        let scope = Database.osamScope(package: packageName, platform: platform)
        let isEmpty = try preferences(scope: scope).isEmpty
        for (key, value) in legacy.sorted(by: { $0.key < $1.key }) {
            if isEmpty { try setPreference(scope: scope, key: key, value: value, now: now) }
            try setPreference(scope: legacyScope, key: key, value: nil, now: now)
        }
    }
}

import Foundation
import SCLMPolicy
import SCLMStore

/// OSAM state in the `preferences` table: one scope per package, OSAM's key names as keys.
extension Database {
    /// The preferences scope of `packageName`'s OSAM state: `osam:<package>`.
    package static func osamScope(package packageName: String) -> String { "osam:\(packageName)" }

    /// The persisted OSAM state of `packageName` (empty for a package never checked).
    ///
    /// - Throws: `StoreError`.
    package func osamState(package packageName: String) throws -> OSAMState {
        OSAMState(try preferences(scope: Database.osamScope(package: packageName)))
    }

    /// Writes the keys of `state` that differ from `old` (removing keys `state` no longer has).
    ///
    /// Only changed keys are written, so two processes checking different things for the same package
    /// do not overwrite each other's keys.
    ///
    /// - Throws: `StoreError`.
    package func saveOSAMState(_ state: OSAMState, since old: OSAMState, package packageName: String, now: Date) throws
    {
        let scope = Database.osamScope(package: packageName)
        for (key, value) in state.changes(since: old).sorted(by: { $0.key < $1.key }) {
            try setPreference(scope: scope, key: key, value: value, now: now)
        }
    }
}

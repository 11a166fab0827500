/// OSAM 3.2's per-record device filter: an OS-version rule and a model include/exclude list (§3.6).
package struct DeviceFilter: Sendable, Equatable, Codable {
    /// How the device's OS version is compared with ``osVersion`` (`osVersionComparisonMode`).
    package enum OSVersionRule: Int, Sendable, Codable, CaseIterable {
        /// -1: every OS version.
        case all = -1
        /// 0: device OS ≤ ``DeviceFilter/osVersion``.
        case lessOrEqual = 0
        /// 1: device OS == ``DeviceFilter/osVersion``.
        case exactly = 1
        /// 2: device OS ≥ ``DeviceFilter/osVersion``.
        case greaterOrEqual = 2

        /// The rule for a backend code; unknown codes mean ``all``, as in OSAM.
        package init(code: Int) { self = OSVersionRule(rawValue: code) ?? .all }
    }

    /// How the device model is matched against ``models`` (`modelComparisonMode`).
    package enum ModelRule: Int, Sendable, Codable, CaseIterable {
        /// 0: every model.
        case all = 0
        /// 1: only the listed models (an empty list matches nothing).
        case only = 1
        /// 2: every model except the listed ones.
        case except = 2

        /// The rule for a backend code; unknown codes mean ``all``, as in OSAM.
        package init(code: Int) { self = ModelRule(rawValue: code) ?? .all }
    }

    /// Which part of the filter turned a device away.
    package enum Rejection: Sendable, Equatable {
        case osVersion, model
    }

    /// The OS-version rule.
    package var osRule: OSVersionRule
    /// The OS version the rule compares with, e.g. `"13.0"`; empty disables the rule.
    package var osVersion: String
    /// The model rule.
    package var modelRule: ModelRule
    /// Model identifiers, matched exactly and case-sensitively.
    package var models: [String]

    /// A filter that lets every device through.
    package static let none = DeviceFilter()

    /// Creates a filter.
    package init(
        osRule: OSVersionRule = .all, osVersion: String = "", modelRule: ModelRule = .all, models: [String] = []
    ) {
        self.osRule = osRule
        self.osVersion = osVersion
        self.modelRule = modelRule
        self.models = models
    }

    /// Why a device with `osVersion` and `model` is turned away, or `nil` when it passes.
    ///
    /// The OS rule passes when either version is blank; versions compare with ``VersionComparison``.
    package func rejection(osVersion deviceOS: String, model: String) -> Rejection? {
        if !osAllows(deviceOS) { return .osVersion }
        if !modelAllows(model) { return .model }
        return nil
    }

    private func osAllows(_ deviceOS: String) -> Bool {
        if osRule == .all || deviceOS.allSatisfy(\.isWhitespace) || osVersion.allSatisfy(\.isWhitespace) { return true }
        let comparison = VersionComparison.compare(deviceOS, osVersion)
        switch osRule {
        case .all: return true
        case .lessOrEqual: return comparison <= 0
        case .exactly: return comparison == 0
        case .greaterOrEqual: return comparison >= 0
        }
    }

    private func modelAllows(_ model: String) -> Bool {
        switch modelRule {
        case .all: true
        case .only: models.contains(model)
        case .except: !models.contains(model)
        }
    }
}

/// One analytics event OSAM logs (§3.5), as a name and string parameters.
///
/// Parameter keys are sanitised as OSAM does for Firebase (`-` → `_`, other non-word characters dropped,
/// at most 40 characters) and values cut to 100 characters.
package struct OSAMEvent: Sendable, Equatable, Codable {
    /// The event name, e.g. `version_control_popup_showed`.
    package let name: String
    /// The parameters; every event carries `item_id = osam_commons`.
    package let parameters: [String: String]

    /// The `item_id` of every OSAM event.
    package static let itemID = "osam_commons"

    /// Creates an event, sanitising its parameters.
    package init(name: String, parameters: [String: String] = [:]) {
        self.name = name
        var sanitized = ["item_id": OSAMEvent.itemID]
        for (key, value) in parameters { sanitized[OSAMEvent.sanitizedKey(key)] = String(value.prefix(100)) }
        self.parameters = sanitized
    }

    /// What happened to a version-control alert.
    package enum AlertAction: String, Sendable {
        case showed, accepted, cancelled
    }

    /// `version_control_popup_<action>` for an alert of `mode`.
    package static func versionControl(_ action: AlertAction, mode: ComparisonMode) -> OSAMEvent {
        OSAMEvent(name: "version_control_popup_\(action.rawValue)", parameters: ["mode": mode.rawValue])
    }

    /// `rating_popup_showed`: a review prompt was requested.
    package static let ratingShowed = OSAMEvent(name: "rating_popup_showed")

    /// `language_change` with the previous and the new language and the device's display language.
    package static func languageChange(previous: String, selected: Language, displayed: String) -> OSAMEvent {
        OSAMEvent(
            name: "language_change",
            parameters: [
                "previous_language": previous, "selected_language": selected.rawValue, "language_disp": displayed,
            ])
    }

    static func sanitizedKey(_ key: String) -> String {
        let word = key.unicodeScalars.map { $0 == "-" ? "_" : $0 }.filter { scalar in
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar)
        }
        return String(String.UnicodeScalarView(word.prefix(40)))
    }
}

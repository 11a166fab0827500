import SCLMCore
import SCLMPolicy

// The JSON shapes of OSAM outcomes, shared by `sclm osam … --json` and the bridge's `osam.*` answers.
// Absent values are explicit `null`s, so every shape always has the same keys.

extension VersionControlDecision {
    /// `{"result":"SHOW"|"DISMISSED"|"ERROR","alert":{…}|null,"reason":"…"}`.
    package var jsonValue: JSONValue {
        ["result": .string(result.rawValue), "alert": alert?.jsonValue ?? .null, "reason": .string(reason.rawValue)]
    }
}

extension VersionAlert {
    /// `{"mode","title","message","ok","cancel"|null,"url"|null,"checkbox","checkboxLabel"|null}`.
    package var jsonValue: JSONValue {
        [
            "mode": .string(mode.rawValue), "title": .string(title), "message": .string(message), "ok": .string(ok),
            "cancel": cancel.map(JSONValue.string) ?? .null, "url": url.map(JSONValue.string) ?? .null,
            "checkbox": .bool(checkbox), "checkboxLabel": checkboxLabel.map(JSONValue.string) ?? .null,
        ]
    }
}

extension AlertAnswer {
    /// `{"response":"ACCEPTED"|"CANCELLED"|"DISMISSED","openUrl":URL|null}`.
    package var jsonValue: JSONValue {
        ["response": .string(response.rawValue), "openUrl": openURL.map(JSONValue.string) ?? .null]
    }
}

extension RatingDecision {
    /// `{"response":"ACCEPTED"|"DISMISSED"|"ERROR"}`.
    package var jsonValue: JSONValue {
        ["response": .string(response.rawValue)]
    }
}

extension TopicOutcome {
    /// `{"response":"SUCCESS"|"UNCHANGED"|"ERROR","subscribed":[…],"unsubscribed":[…]}`.
    package var jsonValue: JSONValue {
        [
            "response": .string(response.rawValue), "subscribed": .array(subscribed.map(JSONValue.string)),
            "unsubscribed": .array(unsubscribed.map(JSONValue.string)),
        ]
    }
}

extension DeviceInformation {
    /// `{"platformName","platformVersion","platformModel"}`.
    package var jsonValue: JSONValue {
        [
            "platformName": .string(platformName), "platformVersion": .string(platformVersion),
            "platformModel": .string(platformModel),
        ]
    }
}

extension AppInformation {
    /// `{"appName","appVersionName","appVersionCode"}` (the code as a string, as OSAM reports it).
    package var jsonValue: JSONValue {
        [
            "appName": .string(appName), "appVersionName": .string(appVersionName),
            "appVersionCode": .string(appVersionCode),
        ]
    }
}

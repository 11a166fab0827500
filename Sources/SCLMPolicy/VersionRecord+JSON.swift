import SCLMCore

extension VersionRecord {
    /// Reads a version-control answer: OSAM's `{"data":{…}}` record or an ALVersionControl response.
    ///
    /// - OSAM (`data.comparisonMode` present): `versionCode`, `serverDate`, `comparisonMode`, `title` and
    ///   `message` are required; every other field is optional with the README's default. `id`, `appId`,
    ///   `packageName` and `platform` are not used and not checked (quirk Q9 kept). An unknown
    ///   `comparisonMode` is an error.
    /// - ALVersionControl (`{message, status, url}`, bare or under `data`): status 0 (up to date) → NONE,
    ///   1 (optional) → LAZY shown once until the status changes, 2 (force) → FORCE. It has no server
    ///   clock, so `serverDate` is `deviceNow`.
    ///
    /// - Throws: ``ResponseError`` naming the missing or malformed field.
    package init(json: JSONValue, deviceNow: Int64) throws(ResponseError) {
        let root = try ResponseFields(json, what: "version response")
        var body = root
        if let data = root.members["data"], !data.isNull { body = try ResponseFields(data, what: "version record") }
        if body.has("comparisonMode") {
            try self.init(osam: body)
        } else if body.has("status") {
            try self.init(alVersionControl: body, deviceNow: deviceNow)
        } else {
            throw ResponseError(
                "version response is neither an OSAM record (data.comparisonMode) nor an ALVersionControl answer (status)"
            )
        }
    }

    private init(osam fields: ResponseFields) throws(ResponseError) {
        let modeName = try fields.string("comparisonMode") ?? ""
        guard let mode = ComparisonMode(rawValue: modeName) else {
            throw ResponseError(
                "version record: unknown comparisonMode '\(modeName)' (expected FORCE, LAZY, INFO or NONE)")
        }
        self.init(
            versionCode: try fields.requiredInt("versionCode"),
            versionName: try fields.string("versionName") ?? "",
            startDate: try fields.int("startDate") ?? 0,
            endDate: try fields.int("endDate") ?? .max,
            serverDate: try fields.requiredInt("serverDate"),
            mode: mode,
            title: try fields.requiredText("title"),
            message: try fields.requiredText("message"),
            ok: try fields.text("ok") ?? AlertTexts.defaultOK,
            cancel: try fields.text("cancel") ?? AlertTexts.defaultCancel,
            url: try fields.string("url") ?? "",
            isCheckboxVisible: try fields.bool("checkBoxDontShowAgain") ?? true,
            displayDuration: try fields.int("dialogDisplayDuration") ?? 3600,
            filter: DeviceFilter(
                osRule: .init(code: Int(clamping: try fields.int("osVersionComparisonMode") ?? -1)),
                osVersion: try fields.string("osVersion") ?? "",
                modelRule: .init(code: Int(clamping: try fields.int("modelComparisonMode") ?? 0)),
                models: try fields.strings("models") ?? []))
    }

    private init(alVersionControl fields: ResponseFields, deviceNow: Int64) throws(ResponseError) {
        let status = try fields.requiredInt("status")
        let mode: ComparisonMode
        switch status {
        case 0: mode = .none
        case 1: mode = .lazy
        case 2: mode = .force
        default: throw ResponseError("ALVersionControl response: unknown status \(status) (expected 0, 1 or 2)")
        }
        self.init(
            serverDate: deviceNow, mode: mode, title: AlertTexts.defaultTitle,
            message: try fields.text("message") ?? AlertTexts.defaultMessage, url: try fields.string("url") ?? "",
            isCheckboxVisible: false, displayDuration: 0, showsOnce: mode == .lazy)
    }
}

extension RatingRecord {
    /// Reads OSAM's rating answer `{"data":{"minutes":…,"numAperture":…,"message":{…}}}`.
    ///
    /// `minutes` and `numAperture` are required; the obsolete `message` is optional. A `platform` other than
    /// `ANDROID` or `IOS` (any case) makes the record unusable, as OSAM's enum decoding does; a record without
    /// one is accepted. The other members are not used.
    ///
    /// - Throws: ``ResponseError`` naming the missing or malformed field.
    package init(json: JSONValue) throws(ResponseError) {
        let root = try ResponseFields(json, what: "rating response")
        guard let data = root.members["data"] else { throw ResponseError("rating response has no 'data' object") }
        let fields = try ResponseFields(data, what: "rating record")
        if let platform = try fields.string("platform"), !Self.knownPlatforms.contains(platform.uppercased()) {
            throw ResponseError("rating record: unknown platform '\(platform)' (expected ANDROID or IOS)")
        }
        self.init(
            minutes: try fields.requiredInt("minutes"), numAperture: try fields.requiredInt("numAperture"),
            message: try fields.text("message"))
    }
}

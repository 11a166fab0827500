/// The app as installed on this device, and the device facts the 3.2 filter looks at.
package struct InstalledApp: Sendable, Equatable, Codable {
    /// The package (Android application id / iOS bundle id), e.g. `cat.bcn.commonmodule`.
    package var packageName: String
    /// The installed build number (Android `versionCode`, iOS `CFBundleVersion`).
    package var versionCode: Int64
    /// The installed version name (`versionName`, `CFBundleShortVersionString`).
    package var versionName: String
    /// The device OS version, e.g. `"12"` or `"17.4"`; empty disables the OS-version rule.
    package var osVersion: String
    /// The device model identifier, e.g. `"iPhone15,2"`.
    package var model: String

    /// Creates the description of an installed app.
    package init(
        packageName: String, versionCode: Int64, versionName: String = "", osVersion: String = "", model: String = ""
    ) {
        self.packageName = packageName
        self.versionCode = versionCode
        self.versionName = versionName
        self.osVersion = osVersion
        self.model = model
    }
}

/// What fetching a record gave: the record, a failure, or nothing because the device is offline.
package enum FetchResult<Record: Sendable & Equatable>: Sendable, Equatable {
    /// The backend answered with a usable record.
    case fetched(Record)
    /// The request or the decoding failed; the text says why (no secrets).
    case failed(String)
    /// The device is offline; nothing was requested.
    case offline
}

import SCLMPolicy
import SCLMTestSupport
import Testing

/// The persisted form: OSAM's key names, string values, and round trips through a dictionary.
@Suite(.tags(.small)) struct OSAMStateTests {
    @Test func writesOSAMsKeyNames() {
        var state = OSAMState()
        state.isAlertArmed = true
        state.lastAcceptTime = 1234
        state.ratingOpenings = 3
        state.ratingClockStart = 99
        state.selectedLanguage = "ES"
        state.previousVersionName = "1.0"
        state.cache(Fixtures.record(.lazy), installedVersionCode: 77)
        let values = state.values
        #expect(values["CHECKBOX_DONT_SHOW_AGAIN_ACTIVE"] == "true")
        #expect(values["LAST_TIME_USER_CLICKED_ON_ACCEPT_BUTTON"] == "1234")
        #expect(values["NUM_APERTURES"] == "3")
        #expect(values["LAST_DATETIME"] == "99")
        #expect(values["SELECTED_LANGUAGE"] == "ES")
        #expect(values["VERSION_CONTROL_VERSION_NAME_PREVIOUS"] == "1.0")
        #expect(values["VERSION_CONTROL_VERSION_CODE"] == "77")
        #expect(values["VERSION_CONTROL_REMOTE_VERSION_CODE"] == "2021060000")
        #expect(values["VERSION_CONTROL_VERSION_NAME"] == "1.1.0")
        #expect(values["VERSION_COMPARISON_MODE"] == "LAZY")
        #expect(values["VERSION_TITLE_CA"] == "Nova versió")
        #expect(values["VERSION_CANCEL_EN"] == "Not now")
        #expect(values["VERSION_URL"] == "https://apps.example/app")
        #expect(values["CHECKBOX_DONT_SHOW_AGAIN_VISIBLE"] == "true")
        #expect(values["DIALOG_DISPLAY_DURATION"] == "3600")
    }

    @Test func aCachedRecordSurvivesARoundTripThroughItsDictionary() {
        var state = OSAMState()
        let record = Fixtures.record(.info) {
            $0.filter = DeviceFilter(osRule: .exactly, osVersion: "14", modelRule: .except, models: ["a", "b,c"])
        }
        state.cache(record, installedVersionCode: 5)
        let reloaded = OSAMState(state.values)
        #expect(reloaded.cachedRecord(serverDate: record.serverDate) == record)
        #expect(reloaded.versionCodeAtFetch == 5)
    }

    @Test func aFreshStateHasOSAMsDefaults() {
        let state = OSAMState()
        #expect(!state.isAlertArmed, "ACTIVE defaults to false: only an online fetch arms")
        #expect(state.lastAcceptTime == 0 && state.versionCodeAtFetch == 0)
        #expect(state.cachedRecord(serverDate: 0) == nil)
        #expect(state.cachedRating == RatingRecord.defaults)
        #expect(state.pendingAlert == nil && state.managedTopics == nil)
    }

    @Test func readsBooleansWrittenAsNumbersAndIgnoresGarbage() {
        #expect(OSAMState(["CHECKBOX_DONT_SHOW_AGAIN_ACTIVE": "1"]).isAlertArmed)
        #expect(!OSAMState(["CHECKBOX_DONT_SHOW_AGAIN_ACTIVE": "maybe"]).isAlertArmed)
        #expect(OSAMState(["NUM_APERTURES": "x"]).ratingOpenings == 0)
        #expect(OSAMState(["SCLM_PENDING_ALERT": "{broken"]).pendingAlert == nil)
    }

    @Test func changesListOnlyWhatDiffers() {
        let old = OSAMState(["A": "1", "B": "2", "NUM_APERTURES": "4"])
        var new = old
        new.ratingOpenings = 5
        new.pendingAlert = nil
        new[.selectedLanguage] = "CA"
        let changes = new.changes(since: old)
        #expect(changes.count == 2)
        #expect(changes["NUM_APERTURES"] == .some("5"))
        #expect(changes["SELECTED_LANGUAGE"] == .some("CA"))
        #expect(old.changes(since: new)["SELECTED_LANGUAGE"] == .some(nil), "a removed key maps to nil")
    }

    @Test func keepsKeysItDoesNotKnow() {
        var state = OSAMState(["SOMETHING_ELSE": "x"])
        state.isAlertArmed = true
        #expect(state.values["SOMETHING_ELSE"] == "x")
    }

    @Test func sanitisesEventParametersLikeOSAM() {
        let event = OSAMEvent(
            name: "x",
            parameters: [
                "language-disp ü!": String(repeating: "v", count: 150), String(repeating: "k", count: 50): "1",
            ])
        #expect(event.parameters["language_disp"]?.count == 100)
        #expect(event.parameters[String(repeating: "k", count: 40)] == "1")
        #expect(event.parameters["item_id"] == "osam_commons")
    }
}

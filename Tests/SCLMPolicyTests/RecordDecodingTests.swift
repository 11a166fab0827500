import Foundation
import SCLMCore
import SCLMPolicy
import SCLMTestSupport
import Testing

/// Reading backend answers (version and rating records) with the README's optional fields and ALVersionControl.
@Suite(.tags(.small)) struct RecordDecodingTests {
    static let readmeSample = """
        {"data":{"id":109,"appId":400,"packageName":"cat.bcn.commonmodule","versionCode":2021050000,"versionName":"1.0.0",
         "startDate":1645311600000,"endDate":1645311600000,"serverDate":1645788600000,"platform":"IOS","comparisonMode":"NONE",
         "title":{"es":"TITLE_ES","en":"TITLE_EN","ca":"TITLE_CA"},"message":{"es":"MESSAGE_ES","en":"MESSAGE_EN","ca":"MESSAGE_CA"},
         "ok":{"es":"OK","en":"OK","ca":"OK"},"cancel":{"es":"Cancelar","en":"Cancel","ca":"Cancel.lar"},
         "url":"https://apps.apple.com/es/app/barcelona-a-la-butxaca/id1465234509?l=ca",
         "checkBoxDontShowAgain":true,"dialogDisplayDuration":3600,
         "osVersionComparisonMode":0,"osVersion":"2.0.0","modelComparisonMode":1,"models":["SM-A536B"]}}
        """

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    static func minimal(_ extra: String = "", mode: String = "LAZY") -> String {
        """
        {"data":{"versionCode":5,"serverDate":1000,"comparisonMode":"\(mode)","title":{"ca":"t","es":"t","en":"t"},
        "message":{"ca":"m","es":"m","en":"m"}\(extra)}}
        """
    }

    @Test func readsTheREADMESample() throws {
        let record = try VersionRecord(json: Self.json(Self.readmeSample), deviceNow: 0)
        #expect(record.versionCode == 2021050000)
        #expect(record.versionName == "1.0.0")
        #expect(record.startDate == 1645311600000 && record.endDate == 1645311600000)
        #expect(record.serverDate == 1645788600000)
        #expect(record.mode == .none)
        #expect(record.title == LocalizedText(ca: "TITLE_CA", es: "TITLE_ES", en: "TITLE_EN"))
        #expect(record.cancel.ca == "Cancel.lar")
        #expect(record.url.hasPrefix("https://apps.apple.com/"))
        #expect(record.isCheckboxVisible && record.displayDuration == 3600)
        #expect(
            record.filter
                == DeviceFilter(osRule: .lessOrEqual, osVersion: "2.0.0", modelRule: .only, models: ["SM-A536B"]))
        #expect(!record.showsOnce)
    }

    @Test func appliesTheREADMEDefaultsToOptionalFields() throws {
        let record = try VersionRecord(json: Self.json(Self.minimal()), deviceNow: 0)
        #expect(record.versionName == "")
        #expect(record.startDate == 0 && record.endDate == .max)
        #expect(record.ok == AlertTexts.defaultOK && record.cancel == AlertTexts.defaultCancel)
        #expect(record.url == "")
        #expect(record.isCheckboxVisible, "checkBoxDontShowAgain defaults to true")
        #expect(record.displayDuration == 3600, "dialogDisplayDuration defaults to 3600 s")
        #expect(record.filter == .none)
    }

    @Test func nullOptionalFieldsMeanTheirDefaults() throws {
        let record = try VersionRecord(
            json: Self.json(Self.minimal(#","endDate":null,"ok":null,"checkBoxDontShowAgain":null,"models":null"#)),
            deviceNow: 0)
        #expect(
            record.endDate == .max && record.ok == AlertTexts.defaultOK && record.isCheckboxVisible
                && record.filter.models.isEmpty)
    }

    @Test func acceptsPartialAndPlainTexts() throws {
        let record = try VersionRecord(
            json: Self.json(
                #"{"data":{"versionCode":1,"serverDate":1,"comparisonMode":"INFO","title":"Hola","message":{"ca":"Només català"}}}"#
            ),
            deviceNow: 0)
        #expect(record.title == LocalizedText("Hola"))
        #expect(record.message == LocalizedText("Només català"))
    }

    @Test func ignoresUnusedAndUnknownMembers() throws {
        let record = try VersionRecord(
            json: Self.json(Self.minimal(#","platform":"WINDOWS","affects_previous_versions":false,"id":"x""#)),
            deviceNow: 0)
        #expect(record.mode == .lazy)
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let message: String
        var testDescription: String { name }
    }

    static let bad: [BadCase] = [
        BadCase(
            name: "no versionCode",
            json: #"{"data":{"serverDate":1,"comparisonMode":"LAZY","title":"t","message":"m"}}"#,
            message: "has no 'versionCode'"),
        BadCase(
            name: "no serverDate",
            json: #"{"data":{"versionCode":1,"comparisonMode":"LAZY","title":"t","message":"m"}}"#,
            message: "has no 'serverDate'"),
        BadCase(
            name: "no title", json: #"{"data":{"versionCode":1,"serverDate":1,"comparisonMode":"LAZY","message":"m"}}"#,
            message: "has no 'title'"),
        BadCase(
            name: "no message", json: #"{"data":{"versionCode":1,"serverDate":1,"comparisonMode":"LAZY","title":"t"}}"#,
            message: "has no 'message'"),
        BadCase(
            name: "unknown comparisonMode", json: minimal(mode: "SOMETIMES"),
            message: "unknown comparisonMode 'SOMETIMES'"),
        BadCase(
            name: "a string duration", json: minimal(#","dialogDisplayDuration":"3600""#),
            message: "'dialogDisplayDuration' must be an integer"),
        BadCase(
            name: "a string checkbox flag", json: minimal(#","checkBoxDontShowAgain":"yes""#),
            message: "'checkBoxDontShowAgain' must be true or false"),
        BadCase(name: "a numeric url", json: minimal(#","url":5"#), message: "'url' must be a string"),
        BadCase(
            name: "models not strings", json: minimal(#","models":[1]"#),
            message: "'models' must be an array of strings"),
        BadCase(
            name: "an ok text without any language", json: minimal(#","ok":{"fr":"x"}"#),
            message: "'ok' has none of the texts"),
        BadCase(
            name: "a cancel text that is not a string", json: minimal(#","cancel":{"ca":1}"#),
            message: "'cancel.ca' must be a string"),
        BadCase(name: "neither shape", json: #"{"data":{"hello":1}}"#, message: "neither an OSAM record"),
        BadCase(name: "an error body", json: #"{"error":"not found"}"#, message: "neither an OSAM record"),
        BadCase(name: "not an object", json: #"[1,2]"#, message: "is not a JSON object"),
        BadCase(name: "an unknown ALVersionControl status", json: #"{"status":3}"#, message: "unknown status 3"),
    ]

    @Test(arguments: bad) func rejectsUnusableRecordsNamingTheField(_ test: BadCase) throws {
        let json = try Self.json(test.json)
        let error = try #require(throws: ResponseError.self) { try VersionRecord(json: json, deviceNow: 0) }
        #expect(error.message.contains(test.message), "\(error.message)")
        #expect(error.category == .network)
    }

    struct ALCase: Sendable, CustomTestStringConvertible {
        let json: String
        let mode: ComparisonMode
        let showsOnce: Bool
        var testDescription: String { json }
    }

    static let alCases: [ALCase] = [
        ALCase(json: #"{"message":"Up to date","status":0,"url":null}"#, mode: .none, showsOnce: false),
        ALCase(
            json: #"{"message":"Hey! You have a new update.","status":1,"url":"https://market.example/app"}"#,
            mode: .lazy, showsOnce: true),
        ALCase(
            json: #"{"data":{"message":"Update now","status":2,"url":"https://market.example/app"}}"#, mode: .force,
            showsOnce: false),
    ]

    @Test(arguments: alCases) func readsALVersionControlAnswers(_ test: ALCase) throws {
        let record = try VersionRecord(json: Self.json(test.json), deviceNow: 42)
        #expect(record.mode == test.mode)
        #expect(record.showsOnce == test.showsOnce)
        #expect(record.serverDate == 42, "no server clock: the device's")
        #expect(record.title == AlertTexts.defaultTitle)
        #expect(!record.isCheckboxVisible)
        #expect(record.isInTimeWindow)
    }

    @Test func anALVersionControlAnswerWithoutAMessageUsesTheDefault() throws {
        let record = try VersionRecord(json: Self.json(#"{"status":2}"#), deviceNow: 1)
        #expect(record.message == AlertTexts.defaultMessage)
        #expect(record.url == "")
    }

    @Test func readsRatingRecords() throws {
        let full = try RatingRecord(
            json: Self.json(
                """
                {"data":{"id":74,"appId":401,"appStoreIdentifier":"1234567890","packageName":"cat.bcn.commonmodule","platform":"ANDROID",
                 "minutes":2880,"numAperture":5,"message":{"es":"MESSAGE_ES","en":"MESSAGE_EN","ca":"MESSAGE_CA"}}}
                """))
        #expect(
            full
                == RatingRecord(
                    minutes: 2880, numAperture: 5,
                    message: LocalizedText(ca: "MESSAGE_CA", es: "MESSAGE_ES", en: "MESSAGE_EN")))
        let withoutMessage = try RatingRecord(json: Self.json(#"{"data":{"minutes":90,"numAperture":20}}"#))
        #expect(withoutMessage == RatingRecord(minutes: 90, numAperture: 20))
        let lowercasePlatform = try RatingRecord(
            json: Self.json(#"{"data":{"platform":"ios","minutes":1,"numAperture":2}}"#))
        #expect(lowercasePlatform == RatingRecord(minutes: 1, numAperture: 2))
    }

    @Test(arguments: [
        (#"{"data":{"numAperture":5}}"#, "has no 'minutes'"),
        (#"{"data":{"minutes":5}}"#, "has no 'numAperture'"),
        (#"{"data":{"minutes":"5","numAperture":5}}"#, "'minutes' must be an integer"),
        (#"{"minutes":5,"numAperture":5}"#, "no 'data' object"),
        (#"{"data":{"platform":"WINDOWS","minutes":5,"numAperture":5}}"#, "unknown platform 'WINDOWS'"),
        (#"{"data":{"platform":"","minutes":5,"numAperture":5}}"#, "unknown platform ''"),
        (#"{"data":{"platform":7,"minutes":5,"numAperture":5}}"#, "'platform' must be a string"),
    ])
    func rejectsUnusableRatingRecords(_ text: String, _ message: String) throws {
        let json = try Self.json(text)
        let error = try #require(throws: ResponseError.self) { try RatingRecord(json: json) }
        #expect(error.message.contains(message), "\(error.message)")
    }
}

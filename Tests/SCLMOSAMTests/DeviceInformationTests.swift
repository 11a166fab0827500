import SCLMCore
import SCLMOSAM
import SCLMTestSupport
import Testing

/// Device facts on Linux: os-release, DMI, uname, locale.
@Suite(.tags(.small)) struct DeviceInformationTests {
    @Test func readsOSReleaseAndDMI() {
        let info = DeviceInformation.parse(
            osRelease: SystemFacts.parseOSRelease(
                "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nID=debian\n"
            ),
            productName: "ThinkCentre M720q\n", machine: "x86_64")
        #expect(
            info
                == DeviceInformation(
                    platformName: "Debian GNU/Linux", platformVersion: "12", platformModel: "ThinkCentre M720q"))
    }

    @Test func fallsBackWhenFilesAreMissingOrPlaceholders() {
        #expect(
            DeviceInformation.parse(osRelease: [:], productName: nil, machine: "aarch64")
                == DeviceInformation(platformName: "Linux", platformVersion: "", platformModel: "aarch64"))
        #expect(
            DeviceInformation.parse(
                osRelease: SystemFacts.parseOSRelease("# comment\nNAME=Alpine\nVERSION_ID=3.20.1"),
                productName: "To be filled by O.E.M.", machine: "x86_64")
                == DeviceInformation(platformName: "Alpine", platformVersion: "3.20.1", platformModel: "x86_64"))
    }

    @Test func readsThisMachine() {
        let release = SystemFacts.osRelease()
        let info = DeviceInformation.current()
        #expect(info.platformName == (release["NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "Linux"))
        #expect(info.platformVersion == release["VERSION_ID"] ?? "")
        #expect(
            info.platformModel == SystemFacts.model(productName: SystemFacts.productName, machine: SystemFacts.machine))
    }

    @Test(arguments: [
        (["LANG": "ca_ES.UTF-8"], "CA"), (["LC_ALL": "es_ES", "LANG": "ca_ES"], "ES"),
        (["LC_MESSAGES": "fr_FR.UTF-8"], "FR"),
        (["LANG": "C.UTF-8"], "EN"), (["LANG": "POSIX"], "EN"), ([:], "EN"), (["LC_ALL": "", "LANG": "en_GB"], "EN"),
    ])
    func derivesTheDisplayLanguageFromTheLocale(_ environment: [String: String], _ expected: String) {
        #expect(DeviceInformation.language(environment: environment) == expected)
    }
}

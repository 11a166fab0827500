import SCLMPolicy
import SCLMTestSupport
import Testing

/// OSAM 3.2's version comparison and the OS-version / model filter (§3.6).
@Suite(.tags(.small)) struct DeviceFilterTests {
    struct ComparisonCase: Sendable, CustomTestStringConvertible {
        let lhs: String
        let rhs: String
        let sign: Int
        var testDescription: String { "\"\(lhs)\" vs \"\(rhs)\" → \(sign)" }
    }

    static let comparisons: [ComparisonCase] = [
        ComparisonCase(lhs: "13.0", rhs: "13", sign: 0),
        ComparisonCase(lhs: "13", rhs: "13.0.0", sign: 0),
        ComparisonCase(lhs: "13.1", rhs: "13", sign: 1),
        ComparisonCase(lhs: "12.9", rhs: "13", sign: -1),
        ComparisonCase(lhs: "10", rhs: "9", sign: 1),
        ComparisonCase(lhs: "17.4.1", rhs: "17.10", sign: -1),
        // Q10 kept: any non-numeric component makes the versions compare equal.
        ComparisonCase(lhs: "17.4 beta", rhs: "18", sign: 0),
        ComparisonCase(lhs: "17.x", rhs: "1", sign: 0),
        ComparisonCase(lhs: "", rhs: "5", sign: 0),
    ]

    @Test(arguments: comparisons) func comparesLikeOSAM(_ test: ComparisonCase) {
        #expect(VersionComparison.compare(test.lhs, test.rhs).signum() == test.sign)
        #expect(VersionComparison.compare(test.rhs, test.lhs).signum() == -test.sign)
    }

    struct FilterCase: Sendable, CustomTestStringConvertible {
        let name: String
        let filter: DeviceFilter
        let osVersion: String
        let model: String
        let rejection: DeviceFilter.Rejection?
        var testDescription: String { name }
    }

    static let filters: [FilterCase] = [
        FilterCase(
            name: "-1 all versions", filter: .init(osRule: .all, osVersion: "13"), osVersion: "9", model: "X",
            rejection: nil),
        FilterCase(
            name: "0 ≤: device below passes", filter: .init(osRule: .lessOrEqual, osVersion: "13.0"), osVersion: "12",
            model: "X", rejection: nil),
        FilterCase(
            name: "0 ≤: device equal passes", filter: .init(osRule: .lessOrEqual, osVersion: "13.0"), osVersion: "13",
            model: "X", rejection: nil),
        FilterCase(
            name: "0 ≤: device above is rejected", filter: .init(osRule: .lessOrEqual, osVersion: "13.0"),
            osVersion: "13.1", model: "X", rejection: .osVersion),
        FilterCase(
            name: "1 ==: equal passes", filter: .init(osRule: .exactly, osVersion: "14.2"), osVersion: "14.2.0",
            model: "X", rejection: nil),
        FilterCase(
            name: "1 ==: other is rejected", filter: .init(osRule: .exactly, osVersion: "14.2"), osVersion: "14.3",
            model: "X", rejection: .osVersion),
        FilterCase(
            name: "2 ≥: below is rejected", filter: .init(osRule: .greaterOrEqual, osVersion: "13"), osVersion: "12.4",
            model: "X", rejection: .osVersion),
        FilterCase(
            name: "2 ≥: above passes", filter: .init(osRule: .greaterOrEqual, osVersion: "13"), osVersion: "17",
            model: "X", rejection: nil),
        FilterCase(
            name: "blank device OS passes any rule", filter: .init(osRule: .exactly, osVersion: "13"), osVersion: "",
            model: "X", rejection: nil),
        FilterCase(
            name: "blank record OS passes any rule", filter: .init(osRule: .exactly, osVersion: ""), osVersion: "12",
            model: "X", rejection: nil),
        FilterCase(
            name: "Q10 kept: non-numeric OS passes ==", filter: .init(osRule: .exactly, osVersion: "13"),
            osVersion: "12 beta", model: "X", rejection: nil),
        FilterCase(
            name: "model 0: all", filter: .init(modelRule: .all, models: ["A"]), osVersion: "", model: "B",
            rejection: nil),
        FilterCase(
            name: "model 1: listed passes", filter: .init(modelRule: .only, models: ["SM-A536B", "iPhone14,2"]),
            osVersion: "", model: "iPhone14,2", rejection: nil),
        FilterCase(
            name: "model 1: unlisted is rejected", filter: .init(modelRule: .only, models: ["SM-A536B"]), osVersion: "",
            model: "Pixel 8", rejection: .model),
        FilterCase(
            name: "model 1: match is case-sensitive", filter: .init(modelRule: .only, models: ["sm-a536b"]),
            osVersion: "", model: "SM-A536B", rejection: .model),
        FilterCase(
            name: "Q10 kept: model 1 with an empty list matches nothing", filter: .init(modelRule: .only, models: []),
            osVersion: "", model: "X", rejection: .model),
        FilterCase(
            name: "model 2: listed is rejected", filter: .init(modelRule: .except, models: ["X"]), osVersion: "",
            model: "X", rejection: .model),
        FilterCase(
            name: "model 2: unlisted passes", filter: .init(modelRule: .except, models: ["X"]), osVersion: "",
            model: "Y", rejection: nil),
        FilterCase(
            name: "OS is checked before the model",
            filter: .init(osRule: .exactly, osVersion: "1", modelRule: .only, models: []), osVersion: "2", model: "X",
            rejection: .osVersion),
    ]

    @Test(arguments: filters) func filtersDevices(_ test: FilterCase) {
        #expect(test.filter.rejection(osVersion: test.osVersion, model: test.model) == test.rejection)
    }

    @Test func unknownRuleCodesMeanAll() {
        #expect(DeviceFilter.OSVersionRule(code: 7) == .all)
        #expect(DeviceFilter.OSVersionRule(code: -1) == .all)
        #expect(DeviceFilter.ModelRule(code: -3) == .all)
        #expect(DeviceFilter.ModelRule(code: 2) == .except)
    }
}

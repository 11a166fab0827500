import SCLMSync
import SCLMTestSupport
import Testing

@testable import SCLMCommands

/// How sizes, rates, durations and bars read in sync's progress output.
@Suite(.tags(.small)) struct ProgressFormatTests {
    @Test(arguments: [
        (Int64(0), "0 B"), (1023, "1023 B"), (1536, "1.5 KiB"), (26_800, "26.2 KiB"), (67_108_864, "64.0 MiB"),
        (536_870_912, "512.0 MiB"), (1 << 30, "1.0 GiB"),
    ])
    func bytes(_ count: Int64, _ text: String) {
        #expect(ProgressFormat.bytes(count) == text)
    }

    @Test func aDeltaUpdateSaysWhatItFetchedAndReused() {
        let summary = DeltaSummary(
            fetchedBytes: 217_498, packageBytes: 346_030_080, changedFiles: 3, reusedFiles: 1_361)
        #expect(ProgressFormat.delta(summary) == "fetched 212.4 KiB of 330.0 MiB: 3 files changed, 1,361 reused")
        let one = DeltaSummary(fetchedBytes: 10, packageBytes: 20, changedFiles: 1, reusedFiles: 0)
        #expect(ProgressFormat.delta(one) == "fetched 10 B of 20 B: 1 file changed, 0 reused")
        #expect(ProgressFormat.grouped(1_234_567) == "1,234,567")
        #expect(ProgressFormat.grouped(999) == "999")
    }

    @Test func amountsShareTheUnitOfTheTotal() {
        #expect(ProgressFormat.amount(26_004_848, of: 67_108_864) == "24.8/64.0 MiB")
        #expect(ProgressFormat.amount(16_384, of: 67_108_864) == "16.0 KiB/64.0 MiB")
        #expect(ProgressFormat.amount(67_108_864, of: 67_108_864) == "64.0 MiB/64.0 MiB")
        #expect(ProgressFormat.amount(500, of: 0) == "500 B")
    }

    @Test(arguments: [
        (7.0, "0:07"), (59.2, "1:00"), (754.0, "12:34"), (3723.0, "1:02:03"), (-1.0, "-:--"),
        (1e9, "-:--"), (Double.infinity, "-:--"),
    ])
    func durations(_ seconds: Double, _ text: String) {
        #expect(ProgressFormat.duration(seconds) == text)
    }

    @Test func ratesBarsAndPercentages() {
        #expect(ProgressFormat.rate(nil) == "-")
        #expect(ProgressFormat.rate(0) == "-")
        #expect(ProgressFormat.rate(12_900_000) == "12.3 MiB/s")
        #expect(ProgressFormat.bar(0.5, width: 10) == "[#####·····]")
        #expect(ProgressFormat.bar(1.7, width: 4) == "[####]")
        #expect(ProgressFormat.bar(.nan, width: 4) == "[····]")
        #expect(ProgressFormat.percent(1, of: 3) == "33%")
        #expect(ProgressFormat.percent(5, of: 0) == "--%")
        #expect(ProgressFormat.seconds(0.42) == "420 ms")
        #expect(ProgressFormat.seconds(2.42) == "2.4 s")
        #expect(ProgressFormat.seconds(75) == "1:15")
    }

    @Test func textIsCutWithAnEllipsisAndPaddedToWidth() {
        #expect(ProgressFormat.truncated("Cardiora Detail Aid", to: 8) == "Cardior…")
        #expect(ProgressFormat.truncated("short", to: 8) == "short")
        #expect(ProgressFormat.padded("ab", to: 4) == "ab  ")
        #expect(ProgressFormat.padded("abcdef", to: 4) == "abc…")
    }
}

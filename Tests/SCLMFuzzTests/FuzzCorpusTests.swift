import Foundation
import SCLMFuzz
import SCLMTestSupport
import Testing

/// Replays every committed corpus input and every past crash input through its fuzz target (no sanitizer:
/// this proves the inputs still return; `make fuzz` looks for new ones).
@Suite struct FuzzCorpusTests {
    static let fuzzRoot = ProcessRunner.packageRoot + "/Tests/Fuzz"

    /// The files of `Tests/Fuzz/<kind>/<target>/`, sorted; none when the folder is missing.
    static func inputs(_ kind: String, of target: String) -> [String] {
        let folder = "\(fuzzRoot)/\(kind)/\(target)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func theCorpusAndPastCrashesReplay(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let corpus = Self.inputs("Corpus", of: name)
        #expect(!corpus.isEmpty, "Tests/Fuzz/Corpus/\(name) holds no seeds")
        for path in corpus + Self.inputs("Crashes", of: name) {
            target.fuzz(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
    }

    @Test func everyTargetHasACorpusFolderAndNoOtherFolderIsThere() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzRoot + "/Corpus")
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }

    @Test func targetNamesAreUnique() {
        #expect(Set(FuzzTarget.all.map(\.name)).count == FuzzTarget.all.count)
    }
}

import SCLMTestSupport
import Testing

@testable import SCLMArchive

/// The first StoryCLM API use in a script is found on its line, however the bytes are cut into chunks, and
/// the fast path over a file's buffers agrees with the byte-by-byte one.
@Suite(.tags(.small)) struct APIUsageScannerTests {
    static let scripts: [(String, Int?)] = [
        ("var a = 1;\nStoryCLM.Go('x');\n", 2),
        ("// StoryCL\nSStoryCLMBridge.Invoke()\n", 2),
        ("\n\n\nvar StoryCLMX = 1;\nSSSStoryCLM\n.\nStoryCLM.y", 7),
        ("Story CLM. StoryCLM StoryCLMb S\nS\nS", nil),
        ("", nil),
        (String(repeating: "x\n", count: 5_000) + "window.StoryCLM.Go()", 5_001),
    ]

    private static func scan(_ bytes: [UInt8], chunk: Int, raw: Bool) -> Int? {
        var scanner = APIUsageScanner()
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            if raw {
                bytes[start..<end].withUnsafeBytes { scanner.feed($0) }
            } else {
                scanner.feed(bytes[start..<end])
            }
            start = end
        }
        return scanner.firstUseLine
    }

    @Test(arguments: 0..<scripts.count)
    func findsTheFirstUseOnItsLineWhateverTheChunks(_ index: Int) {
        let (script, line) = Self.scripts[index]
        let bytes = Array(script.utf8)
        for chunk in [1, 2, 3, 7, 9, 64, 1 << 20] {
            #expect(Self.scan(bytes, chunk: chunk, raw: true) == line, "chunks of \(chunk), buffers")
            #expect(Self.scan(bytes, chunk: chunk, raw: false) == line, "chunks of \(chunk), bytes")
        }
    }

    @Test func countsLineFeedsEightBytesAtATime() {
        // Random bytes with every third one a line feed: runs of them, and their near misses (0x0B, 0x8A).
        let bytes = PackageFixtures.noise(1_000, seed: 11).map { $0 % 3 == 0 ? 0x0A : $0 }
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 999, 1_000] {
            let expected = bytes.prefix(length).filter { $0 == 0x0A }.count
            #expect(
                bytes.withUnsafeBytes { APIUsageScanner.lineBreaks(in: .init(rebasing: $0.prefix(length))) } == expected
            )
        }
    }
}

import SCLMTestSupport
import Testing

@testable import SCLMArchive

@Suite(.tags(.small)) struct ReferenceTargetTests {
    @Test(
        arguments: [
            ("img/a.png", ReferenceTarget.relative("img/a.png")),
            ("  ./img/a%20b.png?v=2#frag ", .relative("./img/a b.png")),
            ("../css/x.css", .relative("../css/x.css")),
            ("#top", .ignored), ("", .ignored), ("?x=1", .ignored),
            ("data:image/png;base64,AAAA", .ignored), ("mailto:a@b.c", .ignored), ("tel:+100", .ignored),
            ("javascript:void(0)", .ignored), ("storyclm:SCLM_QUEUE", .ignored), ("{{ asset }}", .ignored),
            ("https://cdn.example.com/x.js", .remote), ("HTTP://example.com", .remote),
            ("//cdn.example.com/y", .remote),
            ("/img/a.png", .outside), ("file:///etc/passwd", .outside), ("C:\\content\\a.png", .outside),
            ("c:/a.png", .outside),
        ] as [(String, ReferenceTarget)])
    func classifies(_ value: String, _ expected: ReferenceTarget) {
        #expect(ReferenceTarget.classify(value) == expected)
    }

    @Test func resolvesAgainstTheReferringFolder() {
        #expect(PackagePath.resolve("../img/a.png", from: "css") == "img/a.png")
        #expect(PackagePath.resolve("./a/./b/../c.png", from: "") == "a/c.png")
        #expect(PackagePath.resolve("../../x", from: "css") == nil)
        #expect(PackagePath.resolve("..", from: "css") == "")
    }

    @Test func decodesCharacterReferences() {
        #expect(HTMLEntities.decode(Array("a.png?x=1&amp;y=2&#47;&#x2F;&bogus;&".utf8)) == "a.png?x=1&y=2//&bogus;&")
    }
}

@Suite(.tags(.small)) struct ByteCountTests {
    @Test func parsesAndFormats() {
        #expect(ByteCount.parse("500") == 500)
        #expect(ByteCount.parse("500M") == 500 << 20)
        #expect(ByteCount.parse("2GiB") == 2 << 30)
        #expect(ByteCount.parse("1 kb") == 1024)
        #expect(ByteCount.parse("12x") == nil)
        #expect(ByteCount.parse("M") == nil)
        #expect(ByteCount.parse("99999999999T") == nil)
        #expect(ByteCount.format(512) == "512 B")
        #expect(ByteCount.format(1536) == "1.5 KiB")
        #expect(ByteCount.format(2 << 30) == "2.0 GiB")
    }
}

@Suite(.tags(.small)) struct UTF8ValidatorTests {
    @Test(
        arguments: [
            ([UInt8]("plain ascii text, longer than eight bytes".utf8), true),
            (Array("слайд — ✓ 🎉".utf8), true),
            ([0xC0, 0xAF], false),  // overlong '/'
            ([0xED, 0xA0, 0x80], false),  // surrogate
            ([0xF4, 0x90, 0x80, 0x80], false),  // past U+10FFFF
            ([0xE2, 0x82], false),  // cut short
            (Array("abcdefgh".utf8) + [0xFF] + Array("abcdefgh".utf8), false),
        ] as [([UInt8], Bool)])
    func checksWellFormedness(_ bytes: [UInt8], _ valid: Bool) {
        var whole = UTF8Validator()
        whole.consume(bytes)
        #expect(whole.isValid == valid)
        for split in 0...bytes.count {
            var parts = UTF8Validator()
            parts.consume(Array(bytes[..<split]))
            parts.consume(Array(bytes[split...]))
            #expect(parts.isValid == valid, "split at \(split)")
        }
    }
}

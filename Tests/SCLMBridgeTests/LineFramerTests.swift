import SCLMBridge
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct LineFramerTests {
    private func frames(_ chunks: [[UInt8]], limit: Int = 64) -> [Frame] {
        var framer = LineFramer(maximumLineBytes: limit)
        var frames: [Frame] = []
        for chunk in chunks { framer.append(chunk, to: &frames) }
        framer.finish(to: &frames)
        return frames
    }

    private func line(_ text: String) -> Frame { .line(Array(text.utf8)) }

    @Test func splitsTwoMessagesInOneChunk() {
        #expect(frames([Array("{\"a\":1}\n{\"b\":2}\n".utf8)]) == [line("{\"a\":1}"), line("{\"b\":2}")])
    }

    @Test func reassemblesALineSplitAtEveryByteIncludingInsideACharacter() {
        let bytes = Array("{\"t\":\"привет ✓\"}\n".utf8)
        for offset in 1..<bytes.count {
            #expect(
                frames([Array(bytes[..<offset]), Array(bytes[offset...])]) == [line("{\"t\":\"привет ✓\"}")],
                "\(offset)")
        }
    }

    @Test func dropsTrailingCarriageReturnsAndBlankLines() {
        #expect(frames([Array("a\r\n\r\n  \t \n\nb\n".utf8)]) == [line("a"), line("b")])
    }

    @Test func keepsALastLineWithoutNewline() {
        #expect(frames([Array("a\nb".utf8)]) == [line("a"), line("b")])
    }

    @Test func skipsAnOverlongLineAndResynchronisesOnTheNext() {
        let long = Array(repeating: UInt8(ascii: "x"), count: 100)
        #expect(frames([long + Array("\nok\n".utf8)], limit: 10) == [.overlong(byteCount: 100), line("ok")])
        // The same over many reads, the overflow noticed mid-stream.
        let chunks = stride(from: 0, to: long.count, by: 7).map { Array(long[$0..<min($0 + 7, long.count)]) }
        #expect(frames(chunks + [Array("\nok\n".utf8)], limit: 10) == [.overlong(byteCount: 100), line("ok")])
    }

    @Test func reportsAnOverlongLineCutByEndOfInput() {
        #expect(frames([Array(repeating: UInt8(ascii: "x"), count: 30)], limit: 10) == [.overlong(byteCount: 30)])
    }

    @Test func acceptsALineOfExactlyTheLimit() {
        #expect(frames([Array("0123456789\n".utf8)], limit: 10) == [line("0123456789")])
        #expect(frames([Array("01234567890\n".utf8)], limit: 10) == [.overlong(byteCount: 11)])
    }

    @Test func passesInvalidUTF8ThroughForTheServerToAnswer() {
        #expect(frames([[0xFF, 0xFE, 0x0A]]) == [.line([0xFF, 0xFE])])
    }
}

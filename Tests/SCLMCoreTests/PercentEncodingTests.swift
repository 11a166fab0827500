import SCLMCore
import Testing

@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("Az09-._~", false, "Az09-._~"),
        ("a b+c/d", false, "a%20b%2Bc%2Fd"),
        ("a b+c/d", true, "a+b%2Bc%2Fd"),
        ("é%", false, "%C3%A9%25"),
        ("\u{0}\n", false, "%00%0A"),
    ])
    func escapesEveryByteButTheUnreservedOnes(text: String, spaceAsPlus: Bool, expected: String) {
        #expect(PercentEncoding.escape(text, spaceAsPlus: spaceAsPlus) == expected)
    }
}

import SCLMCommands
import SCLMTestSupport
import Testing

/// The usage decisions commands make from their arguments (values, ranges, combinations), in process:
/// argv through ``CommandParser``, the command's `init(parsing:)` and `validate()`, as `sclm` runs them.
@Suite(.tags(.small)) struct CommandDecisionTests {
    /// The usage error `argv` (after `sclm`) is refused with, or `nil` when the command accepts it.
    static func refusal(_ argv: [String]) throws -> String? {
        do {
            let invocation = try CommandParser(root: SCLM.self).parse(argv)
            try invocation.command.init(parsing: invocation.arguments).validate()
            return nil
        } catch let failure as CommandParser.Failure {
            return failure.error.message
        } catch let error as ValidationError {
            return error.message
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let argv: [String]
        /// A part of the refusal, or `nil` when the arguments are accepted.
        let refusal: String?
        var testDescription: String { argv.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(argv: ["sync", "--client", "a", "--client", "b", "--jobs", "8", "--retry"], refusal: nil),
        Case(argv: ["sync", "--metadata-only", "--presentation", "5"], refusal: "cannot go with --metadata-only"),
        Case(argv: ["sync", "--metadata-only", "--retry"], refusal: "--retry tries content again"),
        Case(
            argv: ["sync", "--jobs", "0"], refusal: "--jobs must be a whole number from 1 to 64, got '0' (as sync.jobs)"
        ),
        Case(argv: ["sync", "--jobs", "65"], refusal: "--jobs must be a whole number from 1 to 64, got '65'"),
        Case(argv: ["sync", "--presentation", "abc"], refusal: "--presentation needs a presentation id"),
        Case(argv: ["sync", "--jobs", "2", "--jobs", "3"], refusal: "option '--jobs' may only be given once"),
        Case(argv: ["validate", "deck.zip", "--format", "junit", "--strict", "--max-size", "2GiB"], refusal: nil),
        Case(argv: ["validate", "deck.zip", "--format", "xml"], refusal: "--format must be one of text, json, junit"),
        Case(argv: ["diff", "v1.zip", "v2", "--format", "markdown", "--max-size", "500M"], refusal: nil),
        Case(argv: ["diff", "v1.zip", "v2", "--max-entries", "0"], refusal: "--max-entries needs an integer"),
        Case(argv: ["diff", "v1.zip"], refusal: "missing <new>"),
        Case(argv: ["diff", "v1.zip", "v2", "v3"], refusal: "unexpected argument 'v3'"),
        Case(
            argv: ["diff", "v1.zip", "v2", "--format", "xml"],
            refusal: "--format must be one of text, json, markdown, junit"),
        Case(argv: ["diff", "v1.zip", "v2", "--format", "junit", "--accept-changes", "accepted.txt"], refusal: nil),
        Case(argv: ["diff", "v1.zip", "v2", "--accept-changes"], refusal: "--accept-changes"),
        Case(
            argv: ["diff", "v1.zip", "v2", "--threshold", "0.2", "--min-pixels", "20", "--images", "out"], refusal: nil),
        Case(argv: ["diff", "v1.zip", "v2", "--threshold", "1.5"], refusal: "--threshold needs a number from 0 to 1"),
        Case(argv: ["diff", "v1.zip", "v2", "--min-pixels", "0"], refusal: "--min-pixels needs an integer"),
        Case(
            argv: ["diff", "v1.zip", "v2", "--no-render", "--images", "out"],
            refusal: "--images compares pictures, which --no-render turns off"),
        Case(argv: ["validate", "deck.zip", "--max-size", "lots"], refusal: "--max-size needs a byte count"),
        Case(argv: ["validate", "deck.zip", "--max-entries", "0"], refusal: "--max-entries needs an integer"),
        Case(argv: ["validate", "deck.zip", "--viewport", "800x600"], refusal: "--viewport needs --render"),
        Case(
            argv: ["validate", "deck.zip", "--render", "--viewport", "8x6"], refusal: "--viewport needs WIDTHxHEIGHT"),
        Case(argv: ["validate", "deck.zip", "--render", "--render-timeout", "601"], refusal: "--render-timeout"),
        Case(argv: ["validate", "deck.zip", "--render", "--render-settle", "3"], refusal: nil),
        Case(argv: ["validate", "deck.zip", "--render-settle", "3"], refusal: "--render-settle needs --render"),
        // The late window is separate from the time a slide may take to load and settle: any pair is valid.
        Case(
            argv: ["validate", "deck.zip", "--render", "--render-settle", "10", "--render-timeout", "3"], refusal: nil),
        Case(argv: ["validate", "deck.zip", "--render", "--render-settle", "601"], refusal: "--render-settle"),
        Case(argv: ["validate"], refusal: "missing <path>"),
    ]

    @Test(arguments: cases) func decides(_ test: Case) throws {
        let refusal = try Self.refusal(test.argv)
        if let expected = test.refusal {
            #expect(refusal?.contains(expected) == true, "\(refusal ?? "accepted")")
        } else {
            #expect(refusal == nil)
        }
    }
}

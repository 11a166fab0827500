import Foundation
import SCLMCore
import SCLMTestSupport
import Testing

@testable import SCLMCommands
@testable import SCLMSync

#if canImport(Glibc)
    import Glibc
#endif

/// What the three progress styles write for the same events.
@Suite(.tags(.medium)) struct SyncProgressPrinterTests {
    static let events: [ContentEvent] = [
        .planned(.init(presentations: 1, bytes: 1000, skipped: 0, upToDate: 0)),
        .started(
            .init(
                presentationId: 101, clientId: 1, name: "Deck", revision: 2, installedRevision: nil, bytes: 1000,
                cachedBytes: 0)),
        .progress(.init(presentationId: 101, phase: .download, bytes: 500, totalBytes: 1000)),
        .installed(
            .init(
                presentationId: 101, name: "Deck", revision: 2, previousRevision: nil, path: "/x", files: 3,
                unpackedBytes: 2000, downloadedBytes: 1000, mediaFilesDownloaded: 0, seconds: 0.2)),
    ]

    /// Everything `style` writes for `events` followed by `finish()`.
    static func output(_ style: SyncProgressPrinter.Style, events: [ContentEvent] = events) throws -> String {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let printer = SyncProgressPrinter(
            style: style, stdout: StandardStream(fileDescriptor: descriptors[1]), columns: 80, usesColor: false)
        let start = ContinuousClock.now
        for (index, event) in events.enumerated() { printer.handle(event, at: start + .milliseconds(150 * index)) }
        printer.finish()
        printer.handle(events[2])
        close(descriptors[1])
        let data = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theLiveDisplayRedrawsInPlaceAndLeavesOnlyTheFinishedLines() throws {
        let output = try Self.output(.live)
        #expect(output.contains("  101 Deck"))
        #expect(output.contains("\r\u{1B}[2A\u{1B}[J"), "moves up over its two live lines to redraw")
        // The installed deck's line is printed once, above the live area; finishing erases the live area.
        let parts = output.components(separatedBy: "\u{1B}[J")
        #expect(parts.last == "")
        #expect(
            parts.dropLast().last?.hasPrefix("✓ Deck (101) revision 2 · 3 files · 1000 B in 200 ms\n  Total 1/1")
                == true
        )
        #expect(output.components(separatedBy: "✓ Deck").count == 2)
    }

    @Test func aBurstOfEventsRedrawsTheLiveAreaAtMostEvery100Milliseconds() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let printer = SyncProgressPrinter(
            style: .live, stdout: StandardStream(fileDescriptor: descriptors[1]), columns: 80, usesColor: false)
        let start = ContinuousClock.now
        for index in 0..<50 {
            let event = ContentEvent.skipped(.init(presentationId: Int64(index), name: "Deck \(index)", reason: "skip"))
            printer.handle(event, at: start + .milliseconds(index))
        }
        printer.finish()
        close(descriptors[1])
        let output = String(
            decoding: FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile(),
            as: UTF8.self)
        // 50 events in 50 ms: one redraw, and every line printed once by the end.
        #expect(output.components(separatedBy: "\u{1B}[J").count <= 2)
        #expect(output.split(separator: "\n").count == 50)
    }

    @Test func theLiveDisplayShowsAHostileNameEscaped() throws {
        let name = "Deck\u{1B}]0;pwned\u{07}\r\nforged\u{202E}"
        let events = Self.events.map { event -> ContentEvent in
            switch event {
            case .started(let start):
                .started(
                    .init(
                        presentationId: start.presentationId, clientId: start.clientId, name: name,
                        revision: start.revision, installedRevision: nil, bytes: start.bytes, cachedBytes: 0))
            case .installed(let installed):
                .installed(
                    .init(
                        presentationId: installed.presentationId, name: name, revision: installed.revision,
                        previousRevision: nil, path: installed.path, files: installed.files,
                        unpackedBytes: installed.unpackedBytes, downloadedBytes: installed.downloadedBytes,
                        mediaFilesDownloaded: 0, seconds: installed.seconds))
            default: event
            }
        }
        let output = try Self.output(.live, events: events)
        // Only the display's own cursor movements remain once they are taken out.
        let own = try Regex("\r\u{1B}\\[[0-9]+A\u{1B}\\[J")
        let rest = output.replacing(own, with: "")
        #expect(!rest.unicodeScalars.contains { $0 != "\n" && TerminalText.isUnsafe($0) }, "\(rest.debugDescription)")
        #expect(rest.contains("101 Deck\\u{1b}]"), "the live label, cut to its width")
        #expect(rest.contains("✓ Deck\\u{1b}]0;pwned\\u{7}\\u{d}\\u{a}forged\\u{202e} (101)"))
    }

    @Test func plainLinesNameFinishedPresentationsOnly() throws {
        #expect(try Self.output(.lines) == "✓ Deck (101) revision 2 · 3 files · 1000 B in 200 ms\n")
    }

    @Test func jsonWritesEveryEventAsOneLine() throws {
        let lines = try Self.output(.json).split(separator: "\n")
        #expect(lines.count == Self.events.count)
        #expect(lines.first == #"{"bytes":1000,"event":"planned","presentations":1,"skipped":0,"upToDate":0}"#)
    }
}

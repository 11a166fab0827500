import Foundation
import SCLMCore
import SCLMStore
import SCLMTestSupport
import Synchronization
import Testing

@testable import SCLMSync

/// Content events: their JSON lines and the progress throttle.
@Suite(.tags(.small)) struct ContentEventTests {
    static func progress(_ id: Int64, _ bytes: Int64) -> ContentEvent {
        .progress(.init(presentationId: id, phase: .download, bytes: bytes, totalBytes: 100))
    }

    @Test func eachEventIsOneFlatJSONObjectNamedByItsEventKey() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let line = String(decoding: try encoder.encode(Self.progress(101, 40)), as: UTF8.self)
        #expect(line == #"{"bytes":40,"event":"progress","phase":"download","presentationId":101,"totalBytes":100}"#)
        let busy = ContentEvent.busy(
            .init(presentationId: 7, name: "Deck", reason: "another sclm process is syncing it"))
        #expect(
            String(decoding: try encoder.encode(busy), as: UTF8.self)
                == #"{"event":"busy","name":"Deck","presentationId":7,"reason":"another sclm process is syncing it"}"#)
        let failed = ContentEvent.failed(.init(presentationId: 7, name: "Deck", category: .archive, message: "refused"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(failed)) as? [String: Any])
        #expect(object["event"] as? String == "failed" && object["category"] as? String == "archive")
        let installed = ContentEvent.installed(
            InstalledPresentation(
                presentationId: 7, name: "Deck", revision: 2, previousRevision: nil, path: "/x", files: 1,
                unpackedBytes: 1, downloadedBytes: 1, mediaFilesDownloaded: 0, seconds: 0.1,
                findings: PackageFindingCounts(error: 1, warning: 2)))
        let fields = try #require(try JSONSerialization.jsonObject(with: encoder.encode(installed)) as? [String: Any])
        #expect(fields["findings"] as? [String: Int] == ["error": 1, "warning": 2])
    }

    @Test func progressIsPassedOnAtMostEvery100MillisecondsPerPresentation() {
        let received = Mutex<[ContentEvent]>([])
        let sink = ContentEventSink { event in received.withLock { $0.append(event) } }
        let start = ContinuousClock.now
        sink.emit(Self.progress(1, 10), at: start)
        sink.emit(Self.progress(1, 20), at: start + .milliseconds(50))
        sink.emit(Self.progress(2, 5), at: start + .milliseconds(60))
        sink.emit(Self.progress(1, 30), at: start + .milliseconds(100))
        sink.emit(Self.progress(1, 40), at: start + .milliseconds(150))
        let installedDeck = InstalledPresentation(
            presentationId: 1, name: "Deck", revision: 2, previousRevision: nil, path: "/x", files: 1, unpackedBytes: 1,
            downloadedBytes: 1, mediaFilesDownloaded: 0, seconds: 0.1)
        sink.emit(.installed(installedDeck), at: start + .milliseconds(160))
        #expect(
            received.withLock { $0 }
                == [Self.progress(1, 10), Self.progress(2, 5), Self.progress(1, 30), .installed(installedDeck)])
    }
}

import Foundation
import SCLMCore
import SCLMHTTP
import SCLMTestSupport
import Testing

@testable import SCLMSync

/// Every rule of one blob download, as tables of events fed to the pure machine.
@Suite(.tags(.small)) struct DownloadStateMachineTests {
    typealias Machine = DownloadStateMachine
    typealias Part = DownloadStateMachine.Part

    static let link = BlobLink(url: URL(literal: "http://127.0.0.1:9/b?sig=1"), fileSize: 1000, blobId: "b")
    static let renewed = BlobLink(url: URL(literal: "http://127.0.0.1:9/b?sig=2"), fileSize: 1000, blobId: "b")
    static let tag = "\"e1\""
    static let record = ResumeRecord(blobId: "b", fileSize: 1000, entityTag: tag)

    /// A part of `size` bytes with the matching record.
    static func part(_ size: Int64, record: ResumeRecord? = record) -> Part { Part(size: size, record: record) }

    /// One step: an event, the part on disk after it, and the action expected.
    struct Step: Sendable {
        var event: Machine.Event
        var part: Part
        var expected: Machine.Action
    }

    /// A sequence of steps from the start, with the bytes the download counts at the end.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        var received: Int64? = nil
        var testDescription: String { name }
    }

    static let failed403 = Machine.Event.transferFailed(status: 403, budgetExceeded: false)
    static let dropped = Machine.Event.transferFailed(status: nil, budgetExceeded: false)
    static func fetch(_ offset: Int64, _ link: BlobLink = link) -> Machine.Action {
        .fetch(link, from: offset, ifRange: offset > 0 ? tag : nil)
    }
    static func done(_ outcome: DownloadResult.Outcome, _ bytes: Int64, received: Int64) -> Machine.Event {
        .transferred(outcome, fileBytes: bytes, receivedBytes: received)
    }

    /// A case where the first fetch, with `part` on disk, starts at byte 0.
    static func startsOver(_ name: String, _ part: Part) -> Case {
        Case(name: name, steps: [Step(event: .linked(link), part: part, expected: fetch(0))])
    }

    static let cases: [Case] = [
        Case(
            name: "a fresh download fetches from byte 0 and is done at the announced size",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: done(.complete, 1000, received: 1000), part: part(1000), expected: .done),
            ], received: 1000),
        Case(
            name: "a link without a positive size is refused before any transfer",
            steps: [
                Step(
                    event: .linked(BlobLink(url: link.url, fileSize: 0, blobId: "b")), part: .missing,
                    expected: .fail(.noValidSize))
            ]),
        Case(
            name: "a negative size is no valid size either",
            steps: [
                Step(
                    event: .linked(BlobLink(url: link.url, fileSize: -5, blobId: "b")), part: part(10),
                    expected: .fail(.noValidSize))
            ]),
        Case(
            name: "a part with a matching record resumes with If-Range",
            steps: [
                Step(event: .linked(link), part: part(400), expected: fetch(400)),
                Step(event: done(.resumed, 1000, received: 600), part: part(1000), expected: .done),
            ], received: 600),
        startsOver("a part without a record starts over", part(400, record: nil)),
        startsOver(
            "a part of another blob starts over",
            part(400, record: ResumeRecord(blobId: "x", fileSize: 1000, entityTag: tag))),
        startsOver(
            "a part recorded with another size starts over",
            part(400, record: ResumeRecord(blobId: "b", fileSize: 999, entityTag: tag))),
        startsOver("an empty part starts over", part(0)),
        startsOver("a part longer than the blob starts over", part(1200)),
        Case(
            name: "200 instead of 206 rewrites the part and is done at the announced size",
            steps: [
                Step(event: .linked(link), part: part(400), expected: fetch(400)),
                Step(event: done(.restarted, 1000, received: 1000), part: part(1000), expected: .done),
            ], received: 1000),
        Case(
            name: "416 with the part at the blob's size means it was complete",
            steps: [
                Step(event: .linked(link), part: part(1000), expected: fetch(1000)),
                Step(
                    event: done(.rangeNotSatisfiable(size: 1000), 1000, received: 0), part: part(1000), expected: .done),
            ], received: 0),
        Case(
            name: "416 naming another size deletes the part and fetches it again, once",
            steps: [
                Step(event: .linked(link), part: part(1000), expected: fetch(1000)),
                Step(
                    event: done(.rangeNotSatisfiable(size: 900), 1000, received: 0), part: part(1000),
                    expected: .restart),
                Step(event: .partRemoved, part: .missing, expected: fetch(0)),
                Step(event: done(.complete, 1000, received: 1000), part: part(1000), expected: .done),
            ], received: 1000),
        Case(
            name: "416 without a size restarts too",
            steps: [
                Step(event: .linked(link), part: part(500), expected: fetch(500)),
                Step(
                    event: done(.rangeNotSatisfiable(size: nil), 500, received: 0), part: part(500), expected: .restart),
            ]),
        Case(
            name: "a second unsatisfiable range after a restart fails with the size",
            steps: [
                Step(event: .linked(link), part: part(1000), expected: fetch(1000)),
                Step(
                    event: done(.rangeNotSatisfiable(size: 900), 1000, received: 0), part: part(1000),
                    expected: .restart),
                Step(event: .partRemoved, part: .missing, expected: fetch(0)),
                Step(
                    event: done(.rangeNotSatisfiable(size: 900), 0, received: 0), part: part(0),
                    expected: .fail(.sizeMismatch(got: 0, announced: 1000))),
            ]),
        Case(
            name: "a finished part of the wrong size fails",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(
                    event: done(.complete, 900, received: 900), part: part(900),
                    expected: .fail(.sizeMismatch(got: 900, announced: 1000))),
            ]),
        Case(
            name: "a body past the announced size fails as oversize",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(
                    event: .transferFailed(status: 200, budgetExceeded: true), part: part(1000),
                    expected: .fail(.oversize(announced: 1000))),
            ], received: 1000),
        Case(
            name: "a 403 renews the link and continues from the bytes on disk",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: part(300), expected: .renewLink),
                Step(event: .linked(renewed), part: part(300), expected: fetch(300, renewed)),
                Step(event: done(.resumed, 1000, received: 700), part: part(1000), expected: .done),
            ], received: 1000),
        Case(
            name: "a 412 (the blob changed since the site cache's ETag was asked for) renews the link",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: .transferFailed(status: 412, budgetExceeded: false), part: .missing, expected: .renewLink),
                Step(event: .linked(renewed), part: .missing, expected: fetch(0, renewed)),
                Step(event: done(.complete, 1000, received: 1000), part: part(1000), expected: .done),
            ], received: 1000),
        Case(
            name: "a link that keeps expiring without bytes is renewed three times, then backs off",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .backOff(attempt: 1)),
                Step(event: .backedOff(retried: false), part: .missing, expected: .fail(.gaveUp)),
            ]),
        Case(
            name: "a renewed link without a size is refused",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(
                    event: .linked(BlobLink(url: link.url, fileSize: 0, blobId: "b")), part: .missing,
                    expected: .fail(.noValidSize)),
            ]),
        Case(
            name: "progress resets the renewals",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: .missing, expected: .renewLink),
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: failed403, part: part(10), expected: .renewLink),
            ]),
        Case(
            name: "a dropped connection backs off and resumes; progress counts as a first attempt again",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(event: dropped, part: .missing, expected: .backOff(attempt: 1)),
                Step(event: .backedOff(retried: true), part: .missing, expected: fetch(0)),
                Step(event: dropped, part: .missing, expected: .backOff(attempt: 2)),
                Step(event: .backedOff(retried: true), part: .missing, expected: fetch(0)),
                Step(event: dropped, part: part(200), expected: .backOff(attempt: 1)),
                Step(event: .backedOff(retried: true), part: part(200), expected: fetch(200)),
                Step(event: dropped, part: part(200), expected: .backOff(attempt: 2)),
            ], received: 200),
        Case(
            name: "a 5xx the policy gives up on fails",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(
                    event: .transferFailed(status: 503, budgetExceeded: false), part: .missing,
                    expected: .backOff(attempt: 1)),
                Step(event: .backedOff(retried: false), part: .missing, expected: .fail(.gaveUp)),
            ]),
        Case(
            name: "a full disk fails the blob",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(
                    event: .writeFailed(outOfSpace: true), part: part(500),
                    expected: .fail(.writeFailed(outOfSpace: true))),
            ]),
        Case(
            name: "another write failure fails the blob too",
            steps: [
                Step(event: .linked(link), part: .missing, expected: fetch(0)),
                Step(
                    event: .writeFailed(outOfSpace: false), part: part(500),
                    expected: .fail(.writeFailed(outOfSpace: false))),
            ]),
        Case(
            name: "a transfer result before any link is answered by fetching one",
            steps: [Step(event: .partRemoved, part: .missing, expected: .renewLink)]),
    ]

    @Test(arguments: cases) func followsTheRules(_ test: Case) {
        var machine = Machine()
        #expect(Machine.start == .renewLink)
        for (index, step) in test.steps.enumerated() {
            let action = machine.handle(step.event, part: step.part)
            #expect(action == step.expected, "step \(index + 1)")
        }
        if let received = test.received { #expect(machine.received == received) }
    }

    @Test(arguments: [
        (Machine.Failure.noValidSize, false), (.gaveUp, false), (.writeFailed(outOfSpace: false), false),
        (.writeFailed(outOfSpace: true), true), (.oversize(announced: 1), true),
        (.sizeMismatch(got: 1, announced: 2), true),
    ])
    func onlyWrongOrSpaceHoldingPartsAreDropped(_ failure: Machine.Failure, _ drops: Bool) {
        #expect(failure.dropsPart == drops)
    }

    @Test(arguments: [
        (Machine.Failure.noValidSize, SyncError.Code.badPackage), (.oversize(announced: 1), .badPackage),
        (.sizeMismatch(got: 1, announced: 2), .badPackage), (.gaveUp, .downloadFailed),
        (.writeFailed(outOfSpace: true), .downloadFailed),
    ])
    func eachFailureBecomesItsSyncError(_ failure: Machine.Failure, _ code: SyncError.Code) {
        #expect(BlobDownloader.error(failure, subject: "blob", cause: nil).code == code)
    }
}

/// The keep / download / refuse decision for one media file.
@Suite(.tags(.small)) struct MediaFileStepTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var fileName: String
        var fileSize: Int64
        var existing: MediaFileStep.Existing
        var expected: MediaFileStep
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "the package's file of the right size is kept", fileName: "a.pdf", fileSize: 10,
            existing: .file(size: 10), expected: .keep),
        Case(
            name: "any size is kept when none is announced", fileName: "a.pdf", fileSize: 0, existing: .file(size: 3),
            expected: .keep),
        Case(
            name: "a file of another size is downloaded", fileName: "a.pdf", fileSize: 10, existing: .file(size: 9),
            expected: .download(name: "a.pdf")),
        Case(
            name: "a file whose size cannot be read is downloaded", fileName: "a.pdf", fileSize: 10,
            existing: .file(size: nil), expected: .download(name: "a.pdf")),
        Case(
            name: "a missing file is downloaded", fileName: "a.pdf", fileSize: 10, existing: .nothing,
            expected: .download(name: "a.pdf")),
        Case(
            name: "a missing file is downloaded even without a size", fileName: "a.pdf", fileSize: 0,
            existing: .nothing, expected: .download(name: "a.pdf")),
        Case(
            name: "a folder in its place is downloaded over", fileName: "a.pdf", fileSize: 0, existing: .folder,
            expected: .download(name: "a.pdf")),
        Case(
            name: "a path is refused", fileName: "../a.pdf", fileSize: 10, existing: .file(size: 10),
            expected: .refuse(detail: "its file name \"../a.pdf\" is not a plain file name")),
        Case(
            name: "an empty name is refused", fileName: "", fileSize: 10, existing: .nothing,
            expected: .refuse(detail: "its file name \"\" is not a plain file name")),
    ]

    @Test(arguments: cases) func decides(_ test: Case) {
        var looked: [String] = []
        let step = MediaFileStep.decide(fileName: test.fileName, fileSize: test.fileSize) { name in
            looked.append(name)
            return test.existing
        }
        #expect(step == test.expected)
        if case .refuse = step { #expect(looked.isEmpty) }
    }
}

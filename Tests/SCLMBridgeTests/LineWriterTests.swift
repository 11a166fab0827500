import Foundation
import SCLMCore
import Testing

@testable import SCLMBridge

/// How ``LineWriter`` batches the answers to one input chunk.
@Suite struct LineWriterTests {
    /// A pipe whose write end a ``LineWriter`` owns (and closes: a `Pipe`'s handle would close it a second
    /// time, possibly under another test's file).
    final class Harness {
        let readEnd: FileHandle
        let writer: LineWriter

        init() throws {
            // Close-on-exec: a child another test spawns meanwhile must not hold the write end open.
            let ends = try #require(try ChildPipes.make(1).first)
            readEnd = FileHandle(fileDescriptor: ends.read, closeOnDealloc: true)
            writer = LineWriter(fileDescriptor: ends.write)
        }

        /// Whether the read end has bytes within `milliseconds`.
        func hasOutput(within milliseconds: Int32) -> Bool {
            var descriptor = pollfd(fd: readEnd.fileDescriptor, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, milliseconds) == 1
        }

        /// Closes the writer and returns every line it wrote.
        func finish() async -> [String] {
            await writer.drain(timeout: .seconds(30))
            writer.close()
            let data = readEnd.readDataToEndOfFile()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    static func line(_ index: Int) -> String { "answer-\(index)-" + String(repeating: "x", count: 90) }

    @Test func aSmallBatchIsHeldUntilItsChunkIsDone() async throws {
        let harness = try Harness()
        var arrivedEarly = true
        harness.writer.batch {
            for index in 0..<5 { harness.writer.writeLine(Array(Self.line(index).utf8)) }
            arrivedEarly = harness.hasOutput(within: 200)
        }
        #expect(!arrivedEarly, "a batch below heldBatchBytes was written before the batch ended")
        #expect(harness.hasOutput(within: 30_000))
        #expect(await harness.finish() == (0..<5).map(Self.line))
    }

    @Test func aLongBatchStartsLeavingBeforeItsChunkIsDone() async throws {
        let harness = try Harness()
        let count = LineWriter.heldBatchBytes / 100 * 3
        var arrivedEarly = false
        harness.writer.batch {
            for index in 0..<count { harness.writer.writeLine(Array(Self.line(index).utf8)) }
            arrivedEarly = harness.hasOutput(within: 30_000)
        }
        #expect(arrivedEarly, "a batch over heldBatchBytes waited for the whole chunk")
        #expect(await harness.finish() == (0..<count).map(Self.line))
    }
}

import SCLMCore

/// The frames of a file descriptor (stdin for `sclm bridge`), read by a ``ReaderThread`` with
/// ``LineReader``; ``stop()`` makes the reader return within ``LineReader/stopCheckMilliseconds``, and
/// ``deliverFrames(maximumLineBytes:to:)`` joins it before returning.
package final class DescriptorFrames: FrameSource {
    private let fileDescriptor: Int32
    private let name: String
    private let stopping = CancellationFlag()

    /// Frames of `fileDescriptor` (not closed), read by a thread named `name`.
    package init(_ fileDescriptor: Int32, name: String = "sclm-bridge-stdin") {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }

    package func deliverFrames(maximumLineBytes: Int, to deliver: @escaping @Sendable ([Frame]) -> Void) async {
        guard !stopping.isCancelled else { return }
        let reader = ReaderThread.start(name: name) { [fileDescriptor, stopping] in
            LineReader.read(
                fileDescriptor, maximumLineBytes: maximumLineBytes, shouldStop: { stopping.isCancelled },
                onFrames: deliver)
        }
        await reader.join()
    }

    package func stop() { stopping.cancel() }
}

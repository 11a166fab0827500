import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The frames of a file descriptor (stdin for `sclm bridge`), read by a ``ReaderThread`` with
/// ``LineReader``; ``stop()`` wakes the reader through a pipe it polls beside the descriptor, and
/// ``deliverFrames(maximumLineBytes:to:)`` joins it (and closes the pipe) before returning.
package final class DescriptorFrames: FrameSource {
    private struct State {
        var isStopped = false
        /// The write end of the reader's wake-up pipe while it runs.
        var wake: Int32?
    }

    private let fileDescriptor: Int32
    private let name: String
    private let state = Mutex(State())

    /// Frames of `fileDescriptor` (not closed), read by a thread named `name`.
    package init(_ fileDescriptor: Int32, name: String = "sclm-bridge-stdin") {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }

    package func deliverFrames(maximumLineBytes: Int, to deliver: @escaping @Sendable ([Frame]) -> Void) async {
        guard let wake = try? ChildPipes.make(1).first else { return }
        defer {
            close(wake.read)
            close(wake.write)
        }
        let started = state.withLock { state in
            guard !state.isStopped else { return false }
            state.wake = wake.write
            return true
        }
        guard started else { return }
        let reader = ReaderThread.start(name: name) { [fileDescriptor] in
            LineReader.read(fileDescriptor, maximumLineBytes: maximumLineBytes, stop: wake.read, onFrames: deliver)
        }
        await reader.join()
        state.withLock { $0.wake = nil }
    }

    package func stop() {
        state.withLock { state in
            state.isStopped = true
            if let wake = state.wake {
                var byte: UInt8 = 1
                _ = write(wake, &byte, 1)
            }
        }
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file descriptor with blocking `read(2)` on a dedicated thread and hands out complete lines.
///
/// `FileHandle.bytes` does not exist on Linux, and a blocking read must not park a cooperative-pool
/// thread, so the reader owns an OS thread (with a stack large enough for deeply nested JSON, which the
/// frame handler may parse on it). The descriptor is left blocking: setting `O_NONBLOCK` on inherited
/// stdio would leak to the parent's other processes. Each read's lines are passed to `onFrames` in one
/// call; `onEnd` runs once after end of file or a read error.
enum LineReader {
    /// Starts the reader thread.
    ///
    /// - Parameters:
    ///   - fileDescriptor: read until end of file; not closed.
    ///   - maximumLineBytes: longer lines become ``Frame/overlong(byteCount:)``.
    ///   - name: the thread name (for debuggers).
    ///   - onFrames: called on the reader thread with the frames of each read; may block (backpressure).
    ///   - onEnd: called on the reader thread after the last frames.
    static func start(
        fileDescriptor: Int32, maximumLineBytes: Int, name: String,
        onFrames: @escaping @Sendable ([Frame]) -> Void, onEnd: @escaping @Sendable () -> Void
    ) {
        let thread = Thread {
            readLines(fileDescriptor, maximumLineBytes: maximumLineBytes, onFrames: onFrames)
            onEnd()
        }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    private static func readLines(
        _ fileDescriptor: Int32, maximumLineBytes: Int, onFrames: ([Frame]) -> Void
    ) {
        var framer = LineFramer(maximumLineBytes: maximumLineBytes)
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var frames: [Frame] = []
        while true {
            let count = read(fileDescriptor, buffer.baseAddress, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: &frames)
            if !frames.isEmpty {
                onFrames(frames)
                frames.removeAll(keepingCapacity: true)
            }
        }
        framer.finish(to: &frames)
        if !frames.isEmpty { onFrames(frames) }
    }
}

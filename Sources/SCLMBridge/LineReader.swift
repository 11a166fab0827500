#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file descriptor with blocking `read(2)` and hands out complete lines, on the caller's thread.
///
/// `FileHandle.bytes` does not exist on Linux, and a blocking read must not park a cooperative-pool
/// thread, so callers run it on a ``ReaderThread`` (whose stack is large enough for deeply nested JSON,
/// which the frame handler may parse on it). The descriptor is left blocking: setting `O_NONBLOCK` on
/// inherited stdio would leak to the parent's other processes.
enum LineReader {
    /// Reads `fileDescriptor` (not closed) until end of file, a read error or a stop, handing the frames of
    /// each read to `onFrames` in one call; lines longer than `maximumLineBytes` become
    /// ``Frame/overlong(byteCount:)``.
    ///
    /// With `stop` (a descriptor — a pipe's read end — that becomes readable when the reader must stop), the reader waits with
    /// `poll(2)` on both descriptors, so a reader of a quiet stdin wakes at once to be joined — no timeout,
    /// no polling; a stop seen before a read wins over input waiting there.
    static func read(
        _ fileDescriptor: Int32, maximumLineBytes: Int, stop: Int32? = nil, onFrames: ([Frame]) -> Void
    ) {
        var framer = LineFramer(maximumLineBytes: maximumLineBytes)
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var frames: [Frame] = []
        while true {
            if let stop, !waitForInput(fileDescriptor, stop: stop) { return }
            let count = Glibc.read(fileDescriptor, buffer.baseAddress, capacity)
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

    /// Waits until `fileDescriptor` has input (or end of file) — `true` — or `stop` is readable — `false`.
    private static func waitForInput(_ fileDescriptor: Int32, stop: Int32) -> Bool {
        var descriptors = [
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return true }  // a failing poll: let read(2) say what is wrong
            return descriptors[0].revents == 0
        }
    }
}

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
    /// How often a reader asked to stop looks at its flag while no input arrives.
    static let stopCheckMilliseconds: Int32 = 50

    /// Reads `fileDescriptor` (not closed) until end of file, a read error or `shouldStop`, handing the
    /// frames of each read to `onFrames` in one call; lines longer than `maximumLineBytes` become
    /// ``Frame/overlong(byteCount:)``.
    ///
    /// With `shouldStop`, the reader waits for input with `poll(2)` and looks at it every
    /// ``stopCheckMilliseconds`` and between reads, so a reader of a quiet stdin can still be joined.
    static func read(
        _ fileDescriptor: Int32, maximumLineBytes: Int, shouldStop: (() -> Bool)? = nil,
        onFrames: ([Frame]) -> Void
    ) {
        var framer = LineFramer(maximumLineBytes: maximumLineBytes)
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var frames: [Frame] = []
        while true {
            if let shouldStop, !waitForInput(fileDescriptor, shouldStop: shouldStop) { break }
            let count = Glibc.read(fileDescriptor, buffer.baseAddress, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: &frames)
            if !frames.isEmpty {
                onFrames(frames)
                frames.removeAll(keepingCapacity: true)
            }
        }
        guard !(shouldStop?() ?? false) else { return }
        framer.finish(to: &frames)
        if !frames.isEmpty { onFrames(frames) }
    }

    /// Waits until `fileDescriptor` has input (or end of file) — `true` — or `shouldStop` says so — `false`.
    private static func waitForInput(_ fileDescriptor: Int32, shouldStop: () -> Bool) -> Bool {
        while !shouldStop() {
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, stopCheckMilliseconds)
            if ready != 0 && !(ready < 0 && errno == EINTR) { return true }
        }
        return false
    }
}

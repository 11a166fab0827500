/// Where a ``BridgeServer``'s input comes from: framed lines (``Frame``), in order.
///
/// `sclm bridge` reads stdin (``DescriptorFrames``); a browser page's bridge pushes the payloads of its
/// binding in-process (``FrameInlet``). Either way the server frames with the same ``LineFramer`` limits,
/// so an overlong line is answered 413 alike.
package protocol FrameSource: Sendable {
    /// Hands the input's frames to `deliver` in order, batch by batch, until the input ends or ``stop()``;
    /// returns only once `deliver` has returned for the last time and will not be called again.
    ///
    /// - Parameters:
    ///   - maximumLineBytes: the ``LineFramer`` limit; longer lines become ``Frame/overlong(byteCount:)``.
    ///   - deliver: called on the source's thread (a reader thread, or whoever pushed); may block briefly
    ///     (backpressure).
    func deliverFrames(maximumLineBytes: Int, to deliver: @escaping @Sendable ([Frame]) -> Void) async

    /// Ends the input soon (a running ``deliverFrames(maximumLineBytes:to:)`` returns; one not yet started
    /// returns at once). Safe from any thread, any number of times.
    func stop()
}

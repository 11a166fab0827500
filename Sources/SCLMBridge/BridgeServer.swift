import Dispatch
import SCLMCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stdio bridge host: NDJSON requests in, responses and events out (docs/bridge.md).
///
/// A thin driver around ``BridgeCore``, which makes every decision: the server feeds it what happens
/// (frames from its ``FrameSource``, handler results, its one deadline timer, the input's end, a cancel)
/// and carries out the actions it returns — writing lines to its ``BridgeOutput``, asking a module for an
/// inline answer, running a handler, cancelling one. One task group inside ``run(from:)`` owns the reader
/// and every handler task; ``run(from:)`` returns only once all of them ended and the output drained.
///
/// ```swift
/// let output = BridgeOutput()
/// let server = BridgeServer(registry: try ModuleRegistry([MyModule()]), output: output)
/// await server.run(input: 0)   // until stdin ends
/// ```
package final class BridgeServer: Sendable {
    /// The modules and their commands.
    package let registry: ModuleRegistry
    /// Size, concurrency and time bounds.
    package let limits: BridgeLimits
    let output: BridgeOutput
    let logger: Logger
    private let serverInfo: JSONValue

    /// Creates a host routing through `registry` and writing to `output`.
    package init(
        registry: ModuleRegistry, output: BridgeOutput, limits: BridgeLimits = BridgeLimits(),
        logger: Logger = Logger(), serverInfo: JSONValue = [:]
    ) {
        self.registry = registry
        self.output = output
        self.limits = limits
        self.logger = logger
        self.serverInfo = serverInfo
    }

    /// Serves `input` until it ends, then drains (docs/bridge.md) and returns; see ``run(from:)``.
    package func run(input fileDescriptor: Int32) async {
        await run(from: DescriptorFrames(fileDescriptor))
    }

    /// Serves the frames of `source` until it ends, then drains (docs/bridge.md) and returns.
    ///
    /// Cancelling the calling task stops at once: nothing more is dispatched (a frame batch under way stops
    /// at its next frame), running work is answered 503 without the grace period and cancelled, and the run
    /// still waits for the cancelled handlers to end, so nothing runs after it returns.
    package func run(from source: some FrameSource) async {
        signal(SIGPIPE, SIG_IGN)
        let run = BridgeRun(
            core: BridgeCore(registry: registry, limits: limits, serverInfo: serverInfo), registry: registry,
            output: output, logger: logger)
        await withTaskCancellationHandler {
            // Shielded: the run's own cancellation reaches its handlers only as the core decides (503 first).
            await withCancellationShield { await run.serve(source) }
        } onCancel: {
            run.cancel()
            source.stop()
        }
        if !(await output.drain(timeout: limits.shutdownGrace)) {
            logger.warning("stdout is not being read; exiting with answers unwritten")
        }
    }
}

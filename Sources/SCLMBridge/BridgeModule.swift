import Foundation
import SCLMCore

/// A set of bridge commands served by one piece of code (StoryContent's `SCLMBridgeModule`).
///
/// A module declares its commands; ``ModuleRegistry`` routes each command to exactly one module (a
/// command declared twice fails at start-up). ``handle(_:context:)`` runs as its own task per request:
/// it may suspend, should check cancellation in long work (`bridge.cancel` and timeouts cancel the
/// task), and reports failure by throwing — a ``BridgeError`` chooses the code, any other error maps
/// through its ``ErrorCategory``. A thrown error never stops the host.
///
/// ```swift
/// struct Clock: BridgeModule {
///     let name = "Clock"
///     let commands: [BridgeCommand] = ["clock.now"]
///     func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply {
///         .ok(["now": .string(Timestamp.string(from: Date()))])
///     }
/// }
/// ```
///
/// An implementation must answer every command it declares (unknown ones: throw ``BridgeError`` 404),
/// never write to stdout itself (use ``BridgeContext/emit(_:_:)`` for events) and never trap.
package protocol BridgeModule: Sendable {
    /// The module's name, shown by `bridge.describe`.
    var name: String { get }
    /// The commands it serves.
    var commands: [BridgeCommand] { get }
    /// Commands of modules with the same non-`nil` lane run one at a time in arrival order (state that
    /// content changes and then reads, like navigation); `nil` runs them concurrently.
    var lane: String? { get }
    /// Runs one request.
    ///
    /// - Throws: ``BridgeError`` or any error (mapped to a code), `CancellationError` when cancelled.
    func handle(_ request: BridgeRequest, context: BridgeContext) async throws -> BridgeReply
    /// Answers a request at once, without a task, or returns `nil` to have ``handle(_:context:)`` run it.
    ///
    /// For commands that only read in-memory state (`getCurrentSlideName`): the host calls it on its
    /// dispatching thread, and for a laned module only while nothing of its lane is queued or running, so
    /// the answer reflects every earlier command. It must not block or suspend. The default returns `nil`.
    ///
    /// - Throws: like ``handle(_:context:)``.
    func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply?
    /// The module's own work for the length of a bridge run (an external module restarts its program after
    /// a crash): a child of the run's task group, started with the run; it returns after ``stop()``. The
    /// default returns at once.
    func supervise() async
    /// Ends what the module runs (an external module's program); called by the run once every request is
    /// answered, and by an owner whose run never started. Idempotent; the default does nothing.
    func stop() async
}

extension BridgeModule {
    package var lane: String? { nil }
    package func reply(immediatelyTo request: BridgeRequest) throws -> BridgeReply? { nil }
    package func supervise() async {}
    package func stop() async {}
}

/// A command a module declares, with an optional timeout of its own.
package struct BridgeCommand: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The command name content sends.
    package var name: String
    /// Overrides the host's default timeout for this command.
    package var timeout: Duration?

    /// Declares `name` with an optional timeout.
    package init(_ name: String, timeout: Duration? = nil) {
        self.name = name
        self.timeout = timeout
    }

    package init(stringLiteral name: String) { self.init(name) }
}

/// One request as a module sees it.
package struct BridgeRequest: Sendable, Equatable {
    /// The command, trimmed.
    package var command: String
    /// The request's `Data` (`{}` when absent).
    package var data: JSONValue
    /// The GUID, or `nil` for a notification (whose result nobody reads).
    package var guid: String?

    /// Creates a request.
    package init(command: String, data: JSONValue = [:], guid: String? = nil) {
        self.command = command
        self.data = data
        self.guid = guid
    }

    /// `Data` decoded as `T`, so each command validates its parameters in one typed place.
    ///
    /// - Throws: ``BridgeError`` (400) naming the command and what is wrong.
    package func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONValueDecoder.decode(T.self, from: data)
        } catch {
            throw BridgeError(.badRequest, "bad Data for \(command): \(JSONValue.describe(decodingError: error))")
        }
    }
}

/// What a handler returns: data, and for pass-through commands (HTTP) a code and status of their own.
package struct BridgeReply: Sendable, Equatable {
    /// Sent as `Data`.
    package var data: JSONValue
    /// Sent as `ErrorCode` (200 unless the command reports a real status).
    package var code: Int
    /// Sent as `Status`; `nil` derives `Success`/`Failure` from the code.
    package var status: String?
    /// Sent as `ErrorMessage`.
    package var message: String

    /// Creates a reply.
    package init(data: JSONValue, code: Int = 200, status: String? = nil, message: String = "") {
        self.data = data
        self.code = code
        self.status = status
        self.message = message
    }

    /// A 200 reply carrying `data`.
    package static func ok(_ data: JSONValue = [:]) -> BridgeReply { BridgeReply(data: data) }
}

/// What a running handler may use besides its request: events, cancellation, logging.
package struct BridgeContext: Sendable {
    /// The GUID being answered, if any.
    package let guid: String?
    /// Diagnostics to stderr.
    package let logger: Logger
    let output: BridgeOutput
    private let cancelled: @Sendable () -> Bool

    /// Creates a context writing events to `output`; `cancelled` says whether the request was cancelled
    /// (by default, whether the current task is).
    package init(
        guid: String?, output: BridgeOutput, logger: Logger,
        cancelled: @escaping @Sendable () -> Bool = { Task.isCancelled }
    ) {
        self.guid = guid
        self.output = output
        self.logger = logger
        self.cancelled = cancelled
    }

    /// Emits an `{"Event":name,"Data":data}` line, e.g. what a screen would show.
    package func emit(_ name: BridgeEventName, _ data: JSONValue) {
        output.emit(BridgeEvent(name, data))
    }

    /// Whether the request was cancelled (by `bridge.cancel`, its timeout or shutdown).
    package var isCancelled: Bool { cancelled() || Task.isCancelled }

    /// Throws `CancellationError` when the request was cancelled.
    ///
    /// - Throws: `CancellationError`.
    package func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }
}

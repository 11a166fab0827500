import SCLMCore

extension BridgeServer {
    /// Handles one input frame on the reader thread: validate, parse, split batches, route.
    func dispatch(_ frame: Frame) {
        switch frame {
        case .overlong(let byteCount):
            output.send(
                BridgeResponse(
                    guid: nil,
                    error: BridgeError(
                        .payloadTooLarge,
                        "a line of \(byteCount) bytes exceeds the limit of \(limits.maximumLineBytes) bytes and was skipped; send smaller messages"
                    )))
        case .line(let bytes):
            dispatch(line: bytes)
        }
    }

    private func dispatch(line bytes: [UInt8]) {
        switch Envelope.line(bytes) {
        case .message(let members): dispatch(members: members)
        case .batch(let items): dispatch(batch: items)
        case .bad(let message): badLine(message)
        }
    }

    private func badLine(_ message: String) {
        output.send(BridgeResponse(guid: nil, error: BridgeError(.badRequest, message)))
    }

    /// A `GetQueue()` batch: each item is its own message; an oversized batch answers each GUID 400.
    private func dispatch(batch items: [JSONValue]) {
        guard !items.isEmpty else { return badLine("an empty batch; send at least one message") }
        guard items.count <= limits.maximumBatchItems else {
            let error = BridgeError(
                .badRequest,
                "a batch of \(items.count) messages exceeds the limit of \(limits.maximumBatchItems); send smaller batches"
            )
            var answered = false
            for item in items {
                guard let members = item.objectValue,
                    let request = try? Envelope.decode(members.lazy.map { ($0.key, $0.value) }, limits: limits),
                    let guid = request.guid
                else { continue }
                output.send(BridgeResponse(guid: guid, error: error))
                answered = true
            }
            if !answered { output.send(BridgeResponse(guid: nil, error: error)) }
            return
        }
        for item in items {
            guard let members = item.objectValue else {
                badLine(
                    "a batch item must be a JSON object {\"Command\":…,\"Data\":…,\"GUID\":…}, got \(Envelope.preview(item))"
                )
                continue
            }
            dispatch(members: members.lazy.map { (key: $0.key, value: $0.value) })
        }
    }

    private func dispatch(members: some Sequence<(key: String, value: JSONValue)>) {
        let request: BridgeRequest
        do {
            request = try Envelope.decode(members, limits: limits)
        } catch {
            return reject(guid: error.guid, command: nil, error.error, isNotification: error.isNotification)
        }
        dispatch(request)
    }

    /// Routes one checked message.
    func dispatch(_ request: BridgeRequest) {
        if request.command.hasPrefix(ModuleRegistry.reservedPrefix) {
            return dispatchTransport(request)
        }
        guard let route = registry.route(for: request.command) else {
            return reject(
                guid: request.guid, command: request.command,
                BridgeError.unknownCommand(request.command), isNotification: request.guid == nil)
        }
        start(request, route: route)
    }

    private func dispatchTransport(_ request: BridgeRequest) {
        if let guid = request.guid, table.isRunning(guid: guid) {
            return output.send(
                BridgeResponse(
                    guid: guid, error: BridgeError.inFlight(guid)))
        }
        switch request.command {
        case "bridge.ping":
            if let guid = request.guid { output.send(BridgeResponse(guid: guid, reply: .ok())) }
        case "bridge.describe":
            if let guid = request.guid { output.send(BridgeResponse(guid: guid, reply: .ok(describe))) }
        case "bridge.cancel":
            cancel(request)
        default:
            reject(
                guid: request.guid, command: request.command,
                BridgeError.unknownCommand(
                    request.command, hint: "the host has bridge.ping, bridge.describe, bridge.cancel"),
                isNotification: request.guid == nil)
        }
    }
}

import Dispatch
import SCLMCore

extension BridgeCore {
    /// One input frame: validate, parse, split batches, route.
    mutating func dispatch(_ frame: Frame, now: DispatchTime, into actions: inout [Action]) {
        switch frame {
        case .overlong(let byteCount):
            let message =
                "a line of \(byteCount) bytes exceeds the limit of \(limits.maximumLineBytes) bytes and was skipped; send smaller messages"
            actions.append(.write(BridgeResponse(guid: nil, error: BridgeError(.payloadTooLarge, message))))
        case .line(let bytes):
            switch Envelope.line(bytes) {
            case .message(let members): dispatch(members: members, now: now, into: &actions)
            case .batch(let items): dispatch(batch: items, now: now, into: &actions)
            case .bad(let message): badLine(message, into: &actions)
            }
        }
    }

    private func badLine(_ message: String, into actions: inout [Action]) {
        actions.append(.write(BridgeResponse(guid: nil, error: BridgeError(.badRequest, message))))
    }

    /// A `GetQueue()` batch: each item is its own message; an oversized batch answers each GUID 400.
    private mutating func dispatch(batch items: [JSONValue], now: DispatchTime, into actions: inout [Action]) {
        guard !items.isEmpty else { return badLine("an empty batch; send at least one message", into: &actions) }
        guard items.count <= limits.maximumBatchItems else {
            let error = BridgeError(
                .badRequest,
                "a batch of \(items.count) messages exceeds the limit of \(limits.maximumBatchItems); send smaller batches"
            )
            let guids = items.compactMap { item in
                item.objectValue.flatMap { members in
                    try? Envelope.decode(members.lazy.map { ($0.key, $0.value) }, limits: limits).guid
                }
            }
            for guid in guids { actions.append(.write(BridgeResponse(guid: guid, error: error))) }
            if guids.isEmpty { actions.append(.write(BridgeResponse(guid: nil, error: error))) }
            return
        }
        for item in items {
            guard let members = item.objectValue else {
                badLine(
                    "a batch item must be a JSON object {\"Command\":…,\"Data\":…,\"GUID\":…}, got \(Envelope.preview(item))",
                    into: &actions)
                continue
            }
            dispatch(members: members.lazy.map { (key: $0.key, value: $0.value) }, now: now, into: &actions)
        }
    }

    private mutating func dispatch(
        members: some Sequence<(key: String, value: JSONValue)>, now: DispatchTime, into actions: inout [Action]
    ) {
        let request: BridgeRequest
        do {
            request = try Envelope.decode(members, limits: limits)
        } catch {
            return reject(guid: error.guid, command: nil, error.error, isNotification: error.isNotification, &actions)
        }
        dispatch(request, now: now, into: &actions)
    }

    /// Routes one checked message.
    mutating func dispatch(_ request: BridgeRequest, now: DispatchTime, into actions: inout [Action]) {
        if request.command.hasPrefix(ModuleRegistry.reservedPrefix) {
            return transport(request, into: &actions)
        }
        guard let route = routes[request.command] else {
            return reject(request, BridgeError.unknownCommand(request.command), &actions)
        }
        start(request, route: route, now: now, into: &actions)
    }
}

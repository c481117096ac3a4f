/// What became of one delivery, and the HTTP status to answer it with.
///
/// A sender retries what it gets a non-2xx for, so only ``handled(id:kind:)`` and
/// ``duplicate(id:kind:)`` are 2xx; a failed handler answers 500 and an event another replica
/// is handling 503, so the event comes again.
public enum WebhookResult: Sendable, Hashable, CustomStringConvertible {
    /// Verified, new, and every matching handler succeeded (200).
    case handled(id: WebhookEventID?, kind: String)
    /// Verified, but already handled (or being handled) under this id; handlers did not run (200).
    case duplicate(id: WebhookEventID, kind: String)
    /// Verified, but another receiver sharing the ledger is handling this event right now;
    /// handlers did not run, and the sender should deliver again later (503).
    case inFlight(id: WebhookEventID, kind: String)
    /// The signature header was missing or empty (401).
    case unsigned
    /// The signature did not match the body (403).
    case badSignature
    /// The body was larger than the receiver accepts (413).
    case tooLarge(limit: Int)
    /// The body was not an event the receiver can read (400).
    case malformed(reason: String)
    /// A handler or middleware threw; the event is not marked handled (500).
    case handlerFailed(id: WebhookEventID?, kind: String, reason: String)

    /// The HTTP status code for the answer.
    public var statusCode: Int {
        switch self {
        case .handled, .duplicate: return 200
        case .unsigned: return 401
        case .badSignature: return 403
        case .tooLarge: return 413
        case .malformed: return 400
        case .handlerFailed: return 500
        case .inFlight: return 503
        }
    }

    /// Whether the sender should consider the delivery done (a 2xx).
    public var isAccepted: Bool { statusCode < 300 }

    /// A short line for logs and the response body; it never holds the secret or the body.
    public var description: String {
        switch self {
        case .handled(let id, let kind): return "handled \(kind)" + (id.map { " \($0)" } ?? "")
        case .duplicate(let id, let kind): return "duplicate \(kind) \(id), already handled"
        case .inFlight(let id, let kind): return "in flight \(kind) \(id), being handled elsewhere; retry later"
        case .unsigned: return "rejected: no signature"
        case .badSignature: return "rejected: bad signature"
        case .tooLarge(let limit): return "rejected: body larger than \(limit) bytes"
        case .malformed(let reason): return "rejected: malformed event (\(reason))"
        case .handlerFailed(let id, let kind, let reason):
            return "failed \(kind)" + (id.map { " \($0)" } ?? "") + ": \(reason)"
        }
    }

    /// The text to answer with: the description, except a handler's reason stays private.
    public var responseText: String {
        if case .handlerFailed = self { return "handler failed; retry later" }
        return description
    }
}

import APISandbox
import Basecamp
import Foundation
import HTTPCore

/// One request to the Basecamp API, matched to its Spec operation: what the handlers read, and
/// the one way they write (``write(_:)``).
@available(macOS 14, iOS 17, tvOS 17, *)
struct Call {
    let server: BasecampServer
    let operation: BasecampOperation
    /// The path's values by the Spec's parameter names, percent-decoded.
    let pathValues: [String: String]
    let query: QueryItems
    let received: Body
    /// `http://host:port` as the client addressed the sandbox, for links in the answer.
    let origin: String
    let path: String
    /// The request's `Content-Type`, for uploaded bytes.
    let contentType: String?

    /// A request body: in memory, or streamed to a file of ``BasecampServer/files``.
    enum Body {
        case data(Data)
        case file(BodyFiles.Stored)
    }

    var body: Data {
        if case .data(let data) = received { data } else { Data() }
    }
    var store: AccountStore { server.store }
    /// The time as the module's clock tells it, as Basecamp writes times.
    var now: String { server.timeSource.now().formatted(.utcTimestampWithFraction) }

    func renderer(_ data: AccountData) -> Renderer {
        Renderer(origin: origin, storageOrigin: server.storageOrigin, basePath: server.basePath, data: data)
    }

    func integer(_ name: String) -> Int? { pathValues[name].flatMap { Int($0) } }

    /// What the operation's last path parameter names: the record it acts on, or what holds the
    /// records it creates or lists; `nil` when the path names nothing but the account.
    var lastID: Int? {
        operation.pathParameters.count > 1 ? operation.pathParameters.last.flatMap { integer($0.name) } : nil
    }

    /// The body's members the operation's body schema names, or `400` when it is not a JSON object.
    func jsonObject() throws -> [String: JSONValue] {
        guard !body.isEmpty else { throw APIFailure(400, "The request needs a JSON body.") }
        guard case .object(let members) = try? JSONValue(parsing: body) else {
            throw APIFailure(400, "The request body is not a JSON object.")
        }
        // Basecamp ignores members its body schema does not name; a webhook's `secret` is the sandbox's own.
        let named = BasecampExamples.body(schema: operation.bodySchema ?? "").members
            .union(operation.id.hasSuffix("Webhook") ? ["secret"] : [])
        return named.isEmpty ? members : members.filter { named.contains($0.key) }
    }

    /// Applies `change` at the time it is given, which stamps the event it makes too, in one save, then hands
    /// the event to the webhooks. `change` returns the record it wrote, if any; the event is about that record
    /// or, when it is no recording, about the one the path names (a boost's recording).
    @discardableResult
    func write(_ change: (inout AccountData, String) throws -> Int?) throws -> (data: AccountData, id: Int?) {
        let now = self.now
        let action = Self.action(of: operation.id)
        let (data, id, event) = try store.update { data -> (AccountData, Int?, EventRecord?) in
            let id = try change(&data, now)
            let recording = [id, lastID].compactMap { $0 }.compactMap { data.recording($0) }.first
            guard let action, let recording else { return (data, id, nil) }
            let event = EventRecord(
                id: data.makeID(),
                recordingID: recording.id,
                projectID: recording.projectID,
                action: action,
                creatorID: data.meID,
                createdAt: now
            )
            data.events.append(event)
            return (data, id, event)
        }
        if let event { server.webhooks.announce(event, in: data, origin: origin, storageOrigin: server.storageOrigin) }
        return (data, id)
    }

    /// The event's action for an operation, from its verb; `nil` for one that changes nothing a
    /// timeline shows (bookmarking, subscribing, deleting).
    static func action(of operationID: String) -> String? {
        if operationID == "CreateRecordingBoost" { return "boosted" }
        if operationID == "CreateBookmark" || operationID == "UpdateSubscription" { return nil }
        let verbs: [(String, String)] = [
            ("Create", "created"), ("Update", "content_changed"), ("Replace", "content_changed"),
            ("Trash", "trashed"), ("Archive", "archived"), ("Unarchive", "unarchived"), ("Complete", "completed"),
            ("Uncomplete", "uncompleted"), ("Move", "moved"), ("Reposition", "repositioned"),
            ("SetCardStepCompletion", "completion_changed"), ("Set", "changed"),
        ]
        return verbs.first { operationID.hasPrefix($0.0) }?.1
    }
}

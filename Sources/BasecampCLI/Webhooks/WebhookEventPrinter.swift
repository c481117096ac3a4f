import Basecamp
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreWebhooks

/// How `webhooks listen` shows what arrives: events on stdout (a readable line, or the event's
/// JSON on one line), everything else on stderr.
///
/// Each event is shown once. An event whose forward failed is answered 500, so the sender
/// delivers it again; that redelivery is said on stderr rather than shown a second time.
struct WebhookEventPrinter: Sendable {
    /// How many events awaiting redelivery are remembered; the oldest are forgotten first.
    static let pendingLimit = 10_000

    let context: CommandContext
    let json: Bool
    /// Events shown whose handling failed, oldest first, which the sender will deliver again.
    private let pending = Locked<[WebhookEventID]>([])

    init(context: CommandContext, json: Bool) {
        self.context = context
        self.json = json
    }

    /// Prints a verified, new event, or says that a shown one came again.
    func show(_ event: WebhookEvent, _ delivery: WebhookContext) {
        if let id = delivery.eventID, pending.withLock({ $0.contains(id) }) {
            context.note("redelivery of \(delivery.kind) \(id), shown above")
            return
        }
        if json {
            let value = (try? JSONValue(parsing: delivery.body)) ?? .object([:])
            context.printJSONLine(value)
        } else {
            context.print(line(for: event, receivedAt: delivery.receivedAt))
        }
    }

    /// Reports a delivery that was not simply handled: a rejection with its reason and the
    /// status it was answered with, a duplicate, or a failed forward (which the sender retries).
    func report(_ result: WebhookResult) {
        switch result {
        case .handled(let id, _):
            if let id { pending.withLock { $0.removeAll { $0 == id } } }
        case .duplicate:
            context.note(result.description)
        case .handlerFailed(let id, _, _):
            if let id {
                pending.withLock { pending in
                    if !pending.contains(id) { pending.append(id) }
                    if pending.count > Self.pendingLimit { pending.removeFirst(pending.count - Self.pendingLimit) }
                }
            }
            context.note("\(result); the sender will deliver it again")
        default:
            context.note("\(result) (answered \(result.statusCode))")
        }
    }

    /// `09:12  todo_created  Draft the launch announcement  by Victor Cooper in The Leto Laptop`.
    func line(for event: WebhookEvent, receivedAt: Date) -> String {
        let dates = context.dates
        var parts = [dates.time(event.createdAt ?? receivedAt), event.webhookEventKind]
        if let recording = event.recording {
            parts.append(Self.oneLine(recording.title.isEmpty ? "(\(recording.type))" : recording.title))
        }
        var tail: [String] = []
        if let creator = event.creator?.name ?? event.recording?.creator.name { tail.append("by \(creator)") }
        if let project = event.recording?.bucket.name { tail.append("in \(Self.oneLine(project))") }
        if !tail.isEmpty { parts.append(tail.joined(separator: " ")) }
        return parts.joined(separator: "  ")
    }

    /// Text with its line breaks and control characters turned into spaces, so one event stays
    /// one line whatever a title holds.
    static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) })
    }
}

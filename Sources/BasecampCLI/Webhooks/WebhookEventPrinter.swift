import Basecamp
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreWebhooks

/// How `webhooks listen` shows what arrives: events on stdout (a readable line, or the event's
/// JSON on one line), everything else on stderr.
struct WebhookEventPrinter: Sendable {
    let context: CommandContext
    let json: Bool

    /// Prints a verified, new event.
    func show(_ event: WebhookEvent, _ delivery: WebhookContext) {
        if json {
            let value = (try? JSONValue(parsing: delivery.body)) ?? .object([:])
            context.print(String(decoding: value.encoded(), as: UTF8.self))
        } else {
            context.print(line(for: event, receivedAt: delivery.receivedAt))
        }
    }

    /// Reports a delivery that was not shown: a rejection with its reason, a duplicate, or a
    /// failed relay.
    func report(_ result: WebhookResult) {
        switch result {
        case .handled: return
        case .duplicate: context.note("\(result) (\(result.statusCode))")
        default: context.note("\(result) (answered \(result.statusCode))")
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

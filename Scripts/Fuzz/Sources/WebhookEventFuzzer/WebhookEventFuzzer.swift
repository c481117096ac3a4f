import Basecamp
import Foundation
import HTTPCoreWebhooks

/// The webhook event parsers take any body without trapping: Basecamp's typed `WebhookEvent`
/// (re-encoded and read back when accepted), the generic event with its integer-or-string id,
/// and the signature check and kind patterns fed the same bytes as text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebhookEvents(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let event = try? BasecampWebhooks.decodeEvent(data) {
        _ = event.webhookEventID
        _ = event.webhookEventKind
        if let encoded = try? JSONEncoder().encode(event) {
            _ = try? BasecampWebhooks.decodeEvent(encoded)
        }
    }
    if let event = try? JSONDecoder().decode(GenericWebhookEvent.self, from: data) {
        _ = event.id?.description
    }
    let text = String(decoding: data, as: UTF8.self)
    _ = BasecampWebhooks.signature(secret: "fuzz").isValid(text, for: data)
    let pattern = WebhookKindPattern(String(text.prefix(64)))
    _ = pattern.matches(text)
    return 0
}

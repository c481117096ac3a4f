import Foundation

/// Describes a `DecodingError` by the key path that failed, e.g. `classes[0].start_time`, and the
/// JSON it wanted in JSON's words ("an object", "a string"), never a Swift type's name.
package enum DecodingFailure {
    /// - Parameter body: The text that failed to decode, when at hand: Foundation reports a number
    ///   that does not fit its type (`645.5` or `1e30` for an `Int`) as invalid JSON with no key
    ///   path, and the body tells the two apart.
    package static func describe(_ error: any Error, body: Data? = nil) -> String {
        guard let decodingError = error as? DecodingError else {
            return "Could not decode the response: \(error)"
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "Could not decode the response: missing key `\(path(context.codingPath + [key]))`."
        case .typeMismatch(let type, let context):
            return "Could not decode the response: expected \(jsonKind(type)) at `\(path(context.codingPath))`."
        case .valueNotFound(let type, let context):
            return
                "Could not decode the response: null where \(jsonKind(type)) was expected at `\(path(context.codingPath))`."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                if let body, (try? JSONValue(parsing: body)) != nil {
                    return
                        "Could not decode the response: it is JSON, but a number in it does not fit its type (too large, or a fraction where a whole number belongs)."
                }
                return "Could not decode the response: the body is not valid JSON."
            }
            return
                "Could not decode the response: invalid value at `\(path(context.codingPath))` (\(context.debugDescription.prefix(120)))."
        @unknown default:
            return "Could not decode the response."
        }
    }

    /// What JSON a Swift type is read from: `Dictionary<String, Any>` is "an object".
    package static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is any BinaryInteger.Type: return "a whole number"
        case is any FloatingPoint.Type, is Decimal.Type: return "a number"
        default: break
        }
        let name = String(describing: type)
        let objects = ["Dictionary<", "KeyedDecodingContainer<"]
        if objects.contains(where: name.hasPrefix) || name.hasPrefix("[") && name.contains(":") { return "an object" }
        if ["Array<", "UnkeyedDecodingContainer", "["].contains(where: name.hasPrefix) { return "an array" }
        // A type of the app's own: its name means nothing in the JSON.
        return "a value"
    }

    package static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "(root)" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

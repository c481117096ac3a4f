/// Describes a `DecodingError` by the key path that failed, e.g. `classes[0].start_time`.
package enum DecodingFailure {
    package static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else {
            return "Could not decode the response: \(error)"
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "Could not decode the response: missing key `\(path(context.codingPath + [key]))`."
        case .typeMismatch(let type, let context):
            return "Could not decode the response: expected \(type) at `\(path(context.codingPath))`."
        case .valueNotFound(let type, let context):
            return "Could not decode the response: null where \(type) was expected at `\(path(context.codingPath))`."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "Could not decode the response: the body is not valid JSON."
            }
            return
                "Could not decode the response: invalid value at `\(path(context.codingPath))` (\(context.debugDescription.prefix(120)))."
        @unknown default:
            return "Could not decode the response."
        }
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

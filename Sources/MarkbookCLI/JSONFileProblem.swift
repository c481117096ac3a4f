import Foundation

/// Says where a JSON file the user gave goes wrong, by the path of its keys, for the message that
/// refuses it: `classlist[0].name is missing.`, `students has the wrong type.`.
enum JSONFileProblem {
    /// The problem `error` (from `JSONDecoder`) names, as a sentence.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing."
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type."
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON." : "\(path(context.codingPath)) is invalid."
        default:
            return "it cannot be read."
        }
    }

    /// `classlist[0].name`, or `the top level` for the document itself.
    private static func path(_ keys: [any CodingKey]) -> String {
        let path = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
    }
}

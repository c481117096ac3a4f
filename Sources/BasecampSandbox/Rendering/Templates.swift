import Basecamp
import Foundation
import HTTPCore

/// The Spec's examples, parsed once: what every answer is built from.
enum Templates {
    /// What the routes answer besides kept records, which take their kind's example.
    static let person = parsed("Person")
    static let event = parsed("Event")
    static let timelineEvent = parsed("TimelineEvent")
    static let bookmark = parsed("Bookmark")
    static let subscription = parsed("Subscription")
    static let searchResult = parsed("SearchResult")
    static let uploadVersion = parsed("UploadVersion")

    private static let examples = Dictionary(uniqueKeysWithValues: RecordKind.allCases.map { ($0, parsed($0.schema)) })
    private static let blanks = examples.mapValues(\.blanked)

    /// The kind's example as the Spec gives it.
    static func example(of kind: RecordKind) -> JSONValue { examples[kind] ?? .null }

    /// The kind's example with its made-up facts cleared, so that a record shows only what was
    /// written: every member the SDK expects, none of the example's people or text.
    static func blank(of kind: RecordKind) -> JSONValue { blanks[kind] ?? .null }

    /// The example for `schema` as JSON; `.null` when the Spec has none, which a test catches.
    static func parsed(_ schema: String) -> JSONValue {
        guard let text = BasecampExamples.json(schema: schema) else { return .null }
        return (try? JSONValue(parsing: Data(text.utf8))) ?? .null
    }
}

extension JSONValue {
    /// The object with `members` set (added or replaced); any other value is returned as it is.
    func merging(_ members: [String: JSONValue]) -> JSONValue {
        guard case .object(var current) = self else { return .object(members) }
        for (key, value) in members { current[key] = value }
        return .object(current)
    }

    /// The example with lists emptied, text cleared (links and dates stay, so they still parse)
    /// and completion facts unset; what a record sets is merged over it.
    fileprivate var blanked: JSONValue {
        guard case .object(var members) = self else { return self }
        for (key, value) in members {
            switch value {
            case .array: members[key] = []
            case .string(let text) where !text.hasPrefix("http") && CalendarDate(text) == nil: members[key] = ""
            default: break
            }
        }
        for key in ["completer", "completed_at", "due_on", "starts_on"] where members[key] != nil {
            members[key] = .null
        }
        if members["completed"] != nil { members["completed"] = false }
        return .object(members)
    }
}

import Basecamp
import Foundation
import HTTPCore
import Testing

@Suite("Decoding Basecamp's JSON")
struct DecodingTests {
    /// Each example payload and the model it must decode into.
    static let examples: [(name: String, decode: @Sendable (Data) throws -> any Encodable)] = [
        ("Account", { try JSONDecoder().decode(Account.self, from: $0) }),
        ("Campfire", { try JSONDecoder().decode(Campfire.self, from: $0) }),
        ("CampfireLine", { try JSONDecoder().decode(CampfireLine.self, from: $0) }),
        ("Card", { try JSONDecoder().decode(Card.self, from: $0) }),
        ("CardColumn", { try JSONDecoder().decode(CardColumn.self, from: $0) }),
        ("CardStep", { try JSONDecoder().decode(CardStep.self, from: $0) }),
        ("CardTable", { try JSONDecoder().decode(CardTable.self, from: $0) }),
        ("Comment", { try JSONDecoder().decode(Basecamp.Comment.self, from: $0) }),
        ("Document", { try JSONDecoder().decode(Document.self, from: $0) }),
        ("Message", { try JSONDecoder().decode(Message.self, from: $0) }),
        ("MessageBoard", { try JSONDecoder().decode(MessageBoard.self, from: $0) }),
        ("Person", { try JSONDecoder().decode(Person.self, from: $0) }),
        ("Project", { try JSONDecoder().decode(Project.self, from: $0) }),
        ("Question", { try JSONDecoder().decode(Question.self, from: $0) }),
        ("QuestionAnswer", { try JSONDecoder().decode(QuestionAnswer.self, from: $0) }),
        ("Questionnaire", { try JSONDecoder().decode(Questionnaire.self, from: $0) }),
        ("Schedule", { try JSONDecoder().decode(Schedule.self, from: $0) }),
        ("ScheduleEntry", { try JSONDecoder().decode(ScheduleEntry.self, from: $0) }),
        ("Todo", { try JSONDecoder().decode(Todo.self, from: $0) }),
        ("Todolist", { try JSONDecoder().decode(Todolist.self, from: $0) }),
        ("Todoset", { try JSONDecoder().decode(Todoset.self, from: $0) }),
        ("Upload", { try JSONDecoder().decode(Upload.self, from: $0) }),
        ("Vault", { try JSONDecoder().decode(Vault.self, from: $0) }),
        ("Webhook", { try JSONDecoder().decode(Webhook.self, from: $0) }),
        ("WebhookEvent", { try JSONDecoder().decode(WebhookEvent.self, from: $0) }),
    ]

    @Test("Every example payload decodes and re-encodes to the same JSON", arguments: examples.map(\.name))
    func examplePayload(_ name: String) throws {
        let entry = try #require(Self.examples.first { $0.name == name })
        let data = try specData("examples/\(name).json")
        let value = try entry.decode(data)
        let reencoded = try JSONValue(parsing: try JSONEncoder().encode(value))
        #expect(reencoded == Self.withoutNulls(try JSONValue(parsing: data)).normalisingTimestamps())
    }

    @Test("Every file in Spec/Basecamp/examples has a decoding test")
    func everyExampleIsTested() throws {
        let folder = repositoryRoot.appendingPathComponent("Spec/Basecamp/examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }
        #expect(Set(files) == Set(Self.examples.map(\.name)))
        #expect(files.count >= 7)
    }

    @Test("A whole number sent as a float decodes (may-be-float)")
    func wholeNumberAsFloat() throws {
        let decoded = try Self.decodedExample(
            "Upload",
            as: Upload.self,
            changing: ["width": 1024.0, "height": .number(768.4)]
        )
        #expect(decoded.width == 1024)
        #expect(decoded.height == 768)
    }

    @Test("An integer id sent as a string decodes (may-be-numeric-string)")
    func numericStringID() throws {
        let decoded = try Self.decodedExample("Person", as: Person.self, changing: ["id": "1049715913"])
        #expect(decoded.id == 1_049_715_913)
        #expect(throws: DecodingError.self) {
            try Self.decodedExample("Person", as: Person.self, changing: ["id": "not a number"])
        }
    }

    @Test("A timestamp sent as a bare date decodes as midnight UTC (may-be-date-only)")
    func dateOnlyTimestamp() throws {
        let decoded = try Self.decodedExample(
            "ScheduleEntry",
            as: ScheduleEntry.self,
            changing: ["starts_at": "2026-03-01", "ends_at": "2026-03-02T17:30:00.250-05:00"]
        )
        #expect(decoded.startsAt == Date(timeIntervalSince1970: 1_772_323_200))
        #expect(decoded.endsAt == Date(timeIntervalSince1970: 1_772_490_600.25))
    }

    @Test("A bare date is refused where the Spec does not allow it")
    func dateOnlyRefusedElsewhere() throws {
        #expect(throws: DecodingError.self) {
            try Self.decodedExample("Todo", as: Todo.self, changing: ["created_at": "2026-03-01"])
        }
    }

    @Test("Unknown enum values decode as .unknown and round-trip")
    func unknownEnumValue() throws {
        let decoded = try Self.decodedExample("Todo", as: Todo.self, changing: ["status": "frozen"])
        #expect(decoded.status == .unknown("frozen"))
        let encoded = try JSONValue(parsing: try JSONEncoder().encode(decoded))
        #expect(encoded["status"] == "frozen")
        #expect(Todo.Status(rawValue: "archived") == .archived)
        #expect(FirstWeekDay(rawValue: "Monday") == .monday)
    }

    @Test("Fields the SDK does not know are ignored; missing optional fields are nil")
    func tolerantDecoding() throws {
        let changes: [String: JSONValue?] = [
            "a_field_from_the_future": .object(["nested": [1, 2, 3]]), "description": nil, "due_on": .null,
        ]
        let decoded = try Self.decodedExample("Todo", as: Todo.self, changing: changes)
        #expect(decoded.description == nil)
        #expect(decoded.dueOn == nil)
        #expect(throws: DecodingError.self) {
            try Self.decodedExample("Todo", as: Todo.self, changing: changes.merging(["content": nil]) { $1 })
        }
    }

    @Test("Calendar dates parse strictly and print as YYYY-MM-DD")
    func calendarDates() throws {
        #expect(CalendarDate("2024-02-29")?.description == "2024-02-29")
        #expect(CalendarDate("2023-02-29") == nil)
        #expect(CalendarDate("2024-13-01") == nil)
        #expect(CalendarDate("24-1-1") == nil)
        #expect(CalendarDate("2024-05-01T10:00:00Z") == CalendarDate(year: 2024, month: 5, day: 1))
        #expect(CalendarDate(year: 2024, month: 5, day: 1) < CalendarDate(year: 2024, month: 5, day: 2))
        let todo = try JSONDecoder().decode(Todo.self, from: try specData("examples/Todo.json"))
        #expect(todo.dueOn == CalendarDate(year: 2026, month: 2, day: 6))
    }

    /// The Spec's example of `schema` with `changes` made to its members (`nil` removes one),
    /// decoded as `model`.
    static func decodedExample<Model: Decodable>(
        _ schema: String,
        as model: Model.Type,
        changing changes: [String: JSONValue?]
    ) throws -> Model {
        var members = try #require(try example(schema).objectValue)
        for (key, value) in changes { members[key] = value }
        return try JSONDecoder().decode(model, from: JSONValue.object(members).encoded())
    }

    /// The example with `null` members dropped, as the models leave `nil` out when encoding.
    static func withoutNulls(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.filter { !$0.value.isNull }.mapValues(withoutNulls))
        case .array(let items):
            return .array(items.map(withoutNulls))
        default:
            return value
        }
    }
}

extension JSONValue {
    /// Timestamps with fractional seconds, as the models write them: whole seconds, UTC.
    func normalisingTimestamps() -> JSONValue {
        switch self {
        case .object(let members):
            return .object(members.mapValues { $0.normalisingTimestamps() })
        case .array(let items):
            return .array(items.map { $0.normalisingTimestamps() })
        case .string(let text):
            guard text.count == 24, text.hasSuffix("Z"), text.dropFirst(19).first == "." else { return self }
            return .string(String(text.prefix(19)) + "Z")
        default:
            return self
        }
    }
}

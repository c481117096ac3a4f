import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

/// The read-modify-write helpers change only the fields they are told to, send the rest back as
/// read, in one read and one write, and leave alone a record changed since the copy a person
/// edited.
@Suite("Safe edits: only the named fields change on the wire")
struct SafeEditTests {
    private static func record(_ name: String, updatedAt: String? = nil) throws -> JSONValue {
        var members = try #require(try example(name).objectValue)
        if let updatedAt { members["updated_at"] = .string(updatedAt) }
        return .object(members)
    }

    /// The record the Spec's `schema` example describes and the body of the write `edit` makes of
    /// it, after exactly one read and one write.
    private static func sentEdit(
        of schema: String,
        _ edit: (AccountClient) async throws -> Void
    ) async throws -> (current: JSONValue, body: JSONValue) {
        let current = try record(schema)
        let transport = ScriptedTransport([jsonResponse(current), jsonResponse(current)])
        try await edit(try makeBasecamp(transport).forAccount("999"))
        let requests = transport.requests
        #expect(requests.map(\.request.method) == [.get, .put])
        return (current, try JSONValue(parsing: try #require(requests.last?.body)))
    }

    @Test("A to-do edit changes the due date and keeps content, description, start and people")
    func todo() async throws {
        let (current, body) = try await Self.sentEdit(of: "Todo") { account in
            _ = try await account.todos.modify(todoID: 42) { $0.dueOn = CalendarDate(year: 2026, month: 3, day: 1) }
        }
        #expect(body["due_on"] == "2026-03-01")
        #expect(body["content"] == current["content"])
        #expect(body["description"] == current["description"])
        #expect((body["starts_on"] ?? .null) == (current["starts_on"] ?? .null))
        #expect(body["assignee_ids"]?.arrayValue?.count == current["assignees"]?.arrayValue?.count)
    }

    /// An edit of one field of a record Basecamp replaces whole, and the members its write must
    /// send: the changed one, and the others as read.
    struct OneFieldEdit: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var schema: String
        var sent: [String: JSONValue]
        var change: @Sendable (AccountClient) async throws -> Void
    }

    static let oneFieldEdits = [
        OneFieldEdit(
            testDescription: "A to-do list edit renames it and keeps its description",
            schema: "Todolist",
            sent: ["name": "Gear", "description": "<div>Everything with a plug.</div>"]
        ) { _ = try await $0.todolists.modify(id: 7) { $0.name = "Gear" } },
        OneFieldEdit(
            testDescription: "A document edit changes the title and keeps the content",
            schema: "Document",
            sent: ["title": "Release notes 1.1", "content": "<div>Version 1.0</div>"]
        ) { _ = try await $0.documents.modify(documentID: 5) { $0.title = "Release notes 1.1" } },
        OneFieldEdit(
            testDescription: "A schedule entry edit changes the summary and keeps times, all-day and description",
            schema: "ScheduleEntry",
            sent: [
                "summary": "Launch!", "description": "Example description", "all_day": true,
                "starts_at": "2026-03-01", "ends_at": "2026-03-01",
            ]
        ) { _ = try await $0.schedules.modifyEntry(entryID: 9) { $0.summary = "Launch!" } },
    ]

    @Test("An edit of one field sends it changed and the record's other fields as read", arguments: oneFieldEdits)
    func oneField(_ edit: OneFieldEdit) async throws {
        let (_, body) = try await Self.sentEdit(of: edit.schema, edit.change)
        for (member, value) in edit.sent {
            #expect(body[member] == value, "\(member)")
        }
    }

    @Test("A record changed since the copy a person edited is not overwritten, and costs no extra read")
    func concurrentChange() async throws {
        let edited = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse("2026-01-31T08:36:22.481Z")
        let changed = try Self.record("Todo", updatedAt: "2026-01-31T09:00:00.000Z")
        let transport = ScriptedTransport([jsonResponse(changed)])
        let account = try makeBasecamp(transport).forAccount("999")
        let error = await expectAPIError(.apiError) {
            _ = try await account.todos.modify(todoID: 42, unchangedSince: edited) { $0.content = "Mine" }
        }
        #expect(error?.message.contains("changed while it was being edited") == true)
        #expect(transport.requests.map(\.request.method) == [.get])
    }

    @Test("A copy still current is written with one read and one write")
    func unchangedCopy() async throws {
        let current = try Self.record("Todo", updatedAt: "2026-01-31T08:36:22.481Z")
        let edited = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse("2026-01-31T08:36:22.481Z")
        let transport = ScriptedTransport([jsonResponse(current), jsonResponse(current)])
        let account = try makeBasecamp(transport).forAccount("999")
        _ = try await account.todos.modify(todoID: 42, unchangedSince: edited) { $0.content = "Mine" }
        #expect(transport.requests.map(\.request.method) == [.get, .put])
    }
}

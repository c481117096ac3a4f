import Basecamp
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

/// Every writable member of every `edit` command, set and cleared, as it goes on the wire: the
/// command runs in-process on a scripted transport that answers the read with the sandbox's record
/// and records the write.
@Suite("Edit commands set and clear every writable member")
struct EditFieldTests {
    /// One member of one edit command: the options that set it and what the write then carries,
    /// and the options that clear it (`--clear-…` or `--no-…`) and what the write carries then
    /// (`nil`: the member is left out, which clears it in a body that replaces the record).
    struct Member: Sendable, CustomTestStringConvertible {
        var command: String
        var member: String
        var set: [String]
        var sent: JSONValue
        var clear: [String]? = nil
        var cleared: JSONValue? = nil

        var testDescription: String { "\(command) \(member)" }
    }

    /// The command line before the member options: the record's id, and what a command needs whatever is changed.
    static let commands: [String: [String]] = [
        "todos edit": ["todos", "edit", "1069479395"],
        "todolists edit": ["todolists", "edit", "1069479338"],
        "documents edit": ["documents", "edit", "1069481024"],
        "schedules edit-entry": ["schedules", "edit-entry", "1069490030"],
        "cloud-files edit": ["cloud-files", "edit", "1069479351"],
        "google-documents edit": ["google-documents", "edit", "1069479351"],
        "messages edit": ["messages", "edit", "1069479988"],
        "cards edit": ["cards", "edit", "1069490010"],
    ]

    static let people: JSONValue = [.integer(1_049_715_914), .integer(1_049_715_913)]
    static let peopleOptions = ["1049715914", "1049715913"]

    static func text(_ command: String, _ member: String, clearable: Bool = true) -> Member {
        let option = "--" + member.replacingOccurrences(of: "_", with: "-")
        return Member(
            command: command,
            member: member,
            set: [option, "New \(member)"],
            sent: .string("New \(member)"),
            clear: clearable ? ["--clear-" + option.dropFirst(2)] : nil,
            cleared: clearable ? "" : nil
        )
    }

    static func ids(_ command: String, _ member: String) -> Member {
        let option = "--" + member.replacingOccurrences(of: "_", with: "-")
        return Member(
            command: command,
            member: member,
            set: peopleOptions.flatMap { [option, $0] },
            sent: people,
            clear: ["--clear-" + option.dropFirst(2)],
            cleared: []
        )
    }

    static func flag(_ command: String, _ member: String) -> Member {
        let option = member.replacingOccurrences(of: "_", with: "-")
        return Member(
            command: command,
            member: member,
            set: ["--" + option],
            sent: true,
            clear: ["--no-" + option],
            cleared: false
        )
    }

    /// A date, cleared by leaving it out (`replaces`) or by sending `null`.
    static func day(_ command: String, _ member: String, replaces: Bool) -> Member {
        let option = member.replacingOccurrences(of: "_", with: "-")
        return Member(
            command: command,
            member: member,
            set: ["--" + option, "2026-03-01"],
            sent: "2026-03-01",
            clear: ["--clear-" + option],
            cleared: replaces ? nil : .null
        )
    }

    static let members: [Member] = [
        text("todos edit", "content", clearable: false),
        text("todos edit", "description"),
        ids("todos edit", "assignee_ids"),
        ids("todos edit", "completion_subscriber_ids"),
        flag("todos edit", "notify"),
        day("todos edit", "due_on", replaces: true),
        day("todos edit", "starts_on", replaces: true),

        text("todolists edit", "name", clearable: false),
        text("todolists edit", "description"),

        text("documents edit", "title"),
        text("documents edit", "content"),

        text("schedules edit-entry", "summary"),
        Member(
            command: "schedules edit-entry",
            member: "starts_at",
            set: ["--starts-at", "2026-03-01T09:00:00Z"],
            sent: "2026-03-01T09:00:00Z"
        ),
        Member(
            command: "schedules edit-entry",
            member: "ends_at",
            set: ["--ends-at", "2026-03-01T10:00:00Z"],
            sent: "2026-03-01T10:00:00Z"
        ),
        text("schedules edit-entry", "description"),
        ids("schedules edit-entry", "participant_ids"),
        flag("schedules edit-entry", "all_day"),
        flag("schedules edit-entry", "notify"),
        text("schedules edit-entry", "url"),
        flag("schedules edit-entry", "highlighted"),

        text("cloud-files edit", "url", clearable: false),
        text("cloud-files edit", "service", clearable: false),
        text("cloud-files edit", "title"),
        text("cloud-files edit", "description"),
        ids("cloud-files edit", "subscriptions"),

        text("google-documents edit", "url", clearable: false),
        text("google-documents edit", "document_type", clearable: false),
        text("google-documents edit", "title"),
        text("google-documents edit", "description"),
        Member(command: "google-documents edit", member: "status", set: ["--status", "drafted"], sent: "drafted"),
        ids("google-documents edit", "subscriptions"),

        text("messages edit", "subject"),
        text("messages edit", "content"),
        Member(command: "messages edit", member: "status", set: ["--status", "drafted"], sent: "drafted"),
        Member(
            command: "messages edit",
            member: "category_id",
            set: ["--category-id", "1069490070"],
            sent: .integer(1_069_490_070),
            clear: ["--clear-category-id"],
            cleared: .null
        ),

        text("cards edit", "title"),
        text("cards edit", "content"),
        day("cards edit", "due_on", replaces: false),
        ids("cards edit", "assignee_ids"),
    ]

    /// The `edit` commands, by `group name`, with the operation each makes.
    static let editCommands: [String: any EditCommand.Type] = Dictionary(
        uniqueKeysWithValues: ServiceCommands.all.flatMap { group in
            group.configuration.subcommands.compactMap { command -> (String, any EditCommand.Type)? in
                guard let edit = command as? any EditCommand.Type else { return nil }
                return ("\(group.configuration.commandName ?? "") \(edit.configuration.commandName ?? "")", edit)
            }
        }
    )

    /// The record each command's read answers, from the sandbox through `basecamp api`.
    static func record(for command: any EditCommand.Type, id: String) async throws -> JSONValue {
        let write = command.operation
        let read = try #require(
            OperationCatalog.all.first { $0.method == .get && $0.pathTemplate == write.pathTemplate }
        )
        let parameter = try #require(read.pathParameters.last?.name)
        let result = await basecamp(["--sandbox", "api", read.id, "--param", "\(parameter)=\(id)"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try JSONValue(parsing: Data(result.stdout.utf8))
    }

    /// The records the reads answer, each read once: the members of one command edit the same
    /// record, and each read starts a sandbox (136 cases, eight records).
    static let records = RecordShelf()

    actor RecordShelf {
        private var reads: [String: Task<JSONValue, any Error>] = [:]

        func record(of command: String, id: String) async throws -> JSONValue {
            let key = "\(command) \(id)"
            if let read = reads[key] { return try await read.value }
            let read = Task {
                try await EditFieldTests.record(for: try #require(EditFieldTests.editCommands[command]), id: id)
            }
            reads[key] = read
            return try await read.value
        }
    }

    /// Runs the edit with `options` on a scripted transport and returns the body it wrote.
    static func written(_ member: Member, _ options: [String]) async throws -> JSONValue {
        let command = try #require(editCommands[member.command])
        let base = try #require(commands[member.command])
        let replaces = command.operation.replacesWholeRecord
        let record = try await records.record(of: member.command, id: base[2])
        let transport = ScriptedTransport(replaces ? [.json(record), .json(record)] : [.json(record)])
        // What the record cannot supply is required; the url and subscriptions rows set it themselves.
        var arguments = base + options
        if ["cloud-files edit", "google-documents edit"].contains(member.command) {
            if member.member != "url" { arguments += ["--url", "https://example.com/file"] }
            if member.member != "subscriptions" { arguments += ["--subscriptions", "1049715913"] }
        }
        let result = await basecamp(arguments, variables: credentials("http://127.0.0.1:9/basecamp")) {
            $0.transport = transport
        }
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        let requests = transport.requests
        #expect(requests.map(\.request.method) == (replaces ? [.get, .put] : [.put]))
        let body = try JSONValue(parsing: try #require(requests.last?.body))
        if !replaces {
            // Basecamp keeps what a patch leaves out, so only the named member is sent.
            #expect(body.objectValue?.keys.sorted() == [member.member])
        }
        return body
    }

    @Test("Each member is sent as set", arguments: members)
    func set(_ member: Member) async throws {
        let body = try await Self.written(member, member.set)
        #expect(body[member.member] == member.sent)
    }

    @Test(
        "Each clearable member is sent empty (or left out where that clears it)",
        arguments: members.filter { $0.clear != nil }
    )
    func clear(_ member: Member) async throws {
        let body = try await Self.written(member, member.clear ?? [])
        #expect(body[member.member] == member.cleared)
    }

    @Test(
        "Editing a cloud file or Google document needs its subscribers, which the record does not carry: nothing is written without",
        arguments: ["cloud-files", "google-documents"]
    )
    func subscriptionsRequired(_ service: String) async throws {
        let command = "\(service) edit"
        let record = try await Self.records.record(of: command, id: "1069479351")
        let transport = ScriptedTransport([.json(record), .json(record)])
        let arguments = [service, "edit", "1069479351", "--url", "https://example.com/file", "--title", "T"]
        let refused = await basecamp(arguments, variables: credentials("http://127.0.0.1:9/basecamp")) {
            $0.transport = transport
        }
        #expect(refused.exitCode == 64)
        #expect(refused.stderr.contains("needs `subscriptions`"))
        #expect(!transport.requests.contains { $0.request.method == .put })
        // --clear-subscriptions says "nobody", on purpose.
        let none = await basecamp(
            arguments + ["--clear-subscriptions"],
            variables: credentials("http://127.0.0.1:9/basecamp")
        ) { $0.transport = ScriptedTransport([.json(record), .json(record)]) }
        #expect(none.exitCode == 0, "\(none.stderr)")
    }

    @Test("The table covers every writable member of every edit command, and a clear for each optional one")
    func everyMember() throws {
        let spec = try JSONValue(
            parsing: Data(contentsOf: packageRoot.appending(path: "Spec/Basecamp/openapi.json"))
        )
        #expect(Set(Self.editCommands.keys) == Set(Self.commands.keys))
        for (name, command) in Self.editCommands {
            let schema = try #require(Self.requestSchema(of: command.operation.id, in: spec), "\(name)")
            let properties = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? [])
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let rows = Self.members.filter { $0.command == name }
            #expect(Set(rows.map(\.member)) == properties, "\(name)")
            let clearable = properties.subtracting(required).filter { member in
                // An enum has nothing empty to send.
                schema["properties"]?[member]?["enum"] == nil
            }
            #expect(Set(rows.filter { $0.clear != nil }.map(\.member)) == clearable, "\(name)")
        }
    }

    private static func requestSchema(of operationID: String, in spec: JSONValue) -> JSONValue? {
        for (_, item) in spec["paths"]?.objectValue ?? [:] {
            for (_, operation) in item.objectValue ?? [:] where operation["operationId"]?.stringValue == operationID {
                guard
                    let reference = operation["requestBody"]?["content"]?["application/json"]?["schema"]?["$ref"]?
                        .stringValue,
                    let name = reference.split(separator: "/").last
                else { return nil }
                return spec["components"]?["schemas"]?[String(name)]
            }
        }
        return nil
    }
}

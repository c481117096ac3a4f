import APISandbox
import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampSandbox

/// The one table that says how each operation is answered, the kinds it keeps, the clock it reads
/// and the state files of the layout before it.
@Suite("The sandbox's operation table and kept kinds")
struct OperationTableTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every row names an operation of the Spec; the rest are the canned ones")
    func rowsNameSpecOperations() {
        let operations = Set(OperationCatalog.all.map(\.id))
        for id in OperationTable.answers.keys { #expect(operations.contains(id), "\(id) is not in the Spec") }
        #expect(OperationTable.answers.count + BasecampSandboxModule.cannedOperations.count == operations.count)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Each kind is read by the operation its row names, and takes its type and path from the Spec")
    func kindsFromTheSpec() {
        for kind in RecordKind.allCases {
            guard case .kept(let kept, .get)? = OperationTable.answers[kind.facts.reader.id] else {
                Issue.record("\(kind): \(kind.facts.reader.id) does not read it")
                continue
            }
            #expect(kept == kind)
            #expect(Templates.blank(of: kind) != .null, "\(kind) has no example")
        }
        #expect(RecordKind.card.type == "Kanban::Card")
        #expect(RecordKind.cardColumn.type == "Kanban::Column")
        let line = Record(
            id: 7,
            kind: .campfireLine,
            projectID: 1,
            parentID: 5,
            fields: [:],
            creatorID: 1,
            createdAt: "",
            updatedAt: ""
        )
        #expect(RecordKind.campfireLine.path(of: line) == "/chats/5/lines/7")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Times the sandbox writes come from the module's clock")
    func pinnedClock() async throws {
        let pinned = Date(timeIntervalSince1970: 1_780_000_000)
        var module = BasecampSandboxModule()
        module.timeSource = TestClock(start: pinned)
        try await withBasecampSandbox(module: module) { sandbox in
            let account = try sandbox.account(retry: false)
            let todo = try await account.todos.create(
                todolistID: Int64(BasecampSandboxSeed.launchChecklistTodolistID),
                CreateTodoRequest(content: "Pinned")
            )
            #expect(todo.createdAt == pinned)
            #expect(todo.updatedAt == pinned)
            #expect(try await account.events.list(recordingID: todo.id).items.map(\.createdAt) == [pinned])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A state file of the previous layout loads with everything in it, and is rewritten in today's")
    func layoutOne() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "layout-one-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(layoutOneStateFile.utf8).write(to: file)
        try await withBasecampSandbox(module: try BasecampSandboxModule(stateFile: file)) { sandbox in
            let account = try sandbox.account(retry: false)
            let moved = try #require(try await account.projects.list().first { $0.name == "Moved house" })
            let tools = moved.dock?.map(\.name) ?? []
            #expect(
                tools == ["message_board", "todoset", "vault", "kanban_board", "schedule", "chat", "questionnaire"]
            )
            #expect(try await account.cardTables.get(cardTableID: moved.id + 30_000_000_000).title == "Card Table")

            let checklist = Int64(BasecampSandboxSeed.launchChecklistTodolistID)
            let done = try await account.todos.list(todolistID: checklist, completed: true)
            let kept = try #require(done.first { $0.content == "Kept in layout 1" })
            #expect(kept.assignees?.map(\.name) == ["Annie Bryan"])
            #expect(kept.dueOn == CalendarDate(year: 2026, month: 3, day: 1))
            #expect(try await account.comments.list(recordingID: kept.id).map(\.content) == ["<div>Noted.</div>"])
            #expect(
                try await account.events.list(recordingID: kept.id).items.map(\.action) == ["completed", "created"]
            )
            let lists = try await account.todolists.list(todosetID: Int64(BasecampSandboxSeed.letoLaptopTodosetID))
            #expect(lists.map(\.name).contains("Moving day"))

            #expect(try await account.messages.get(messageID: 1_069_500_186).status == "archived")
            #expect(try await account.subscriptions.get(recordingID: 1_069_500_186).subscribed == false)

            let root = Int64(BasecampSandboxSeed.letoLaptopVaultID)
            #expect(try await account.vaults.get(vaultID: root).title == "Leto files")
            #expect(try await account.vaults.list(vaultID: root).items.map(\.title) == ["Drawings"])
            let upload = try await account.uploads.get(uploadID: 1_069_500_190)
            #expect(upload.filename == "plan2.txt")
            #expect(
                try await account.download(try #require(upload.downloadURL)).data
                    == Data("layout one bytes, second version".utf8)
            )
            #expect(try await account.uploads.listVersions(uploadID: upload.id).count == 2)
            #expect(try await account.documents.get(documentID: 1_069_500_194).content == "<div>Two rooms.</div>")
            #expect(try await account.cards.get(cardID: 1_069_500_196).title == "Pack the prototypes")
            #expect(try await account.bookmarks.get(recordingID: 1_069_500_196).bookmarked)
            let hook = try await account.webhooks.get(webhookID: 1_069_500_172)
            #expect(hook.recentDeliveries?.count == 1)
            #expect(hook.recentDeliveries?.first?.request?.body?.kind == .todoCreated)

            _ = try await account.todos.create(todolistID: checklist, CreateTodoRequest(content: "Written in layout 2"))
        }
        let saved = try JSONValue(parsing: Data(contentsOf: file))
        #expect(saved["version"] == 2)
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        #expect(try BasecampSandboxModule(stateFile: file).stateFile == file)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A damaged file of the previous layout, or one of a later layout, is refused naming the file")
    func unreadableLayouts() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "layout-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        var layout = try #require(try JSONValue(parsing: Data(layoutOneStateFile.utf8)).objectValue)
        layout["todos"] = [["content": "No id"]]
        try JSONValue.object(layout).encoded().write(to: file)
        #expect {
            try BasecampSandboxModule(stateFile: file)
        } throws: { error in
            let error = error as? SandboxStateFileError
            return error?.problem == .notValid && error?.description.contains(file.path) == true
        }
        try Data(#"{"version": 3}"#.utf8).write(to: file)
        #expect {
            try BasecampSandboxModule(stateFile: file)
        } throws: { error in
            (error as? SandboxStateFileError)?.problem == .otherVersion
        }
    }
}

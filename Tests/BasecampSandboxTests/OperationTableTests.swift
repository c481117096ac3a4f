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
    @Test("A state file of the previous layout is refused, naming the file and how to start afresh, and kept")
    func previousLayout() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "layout-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let layoutOne = Data(#"{"version": 1, "accountID": 195539477, "todos": []}"#.utf8)
        try layoutOne.write(to: file)
        #expect {
            try BasecampSandboxModule(stateFile: file)
        } throws: { error in
            (error as? SandboxStateFileError)?.description
                == "The sandbox state file \(file.path) is from another version of the sandbox: it holds layout 1, "
                + "this sandbox reads layout 2; delete it to start afresh."
        }
        #expect(try Data(contentsOf: file) == layoutOne)
    }
}

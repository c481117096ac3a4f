import Basecamp
import HTTPCore

/// How the sandbox answers one Spec operation.
@available(macOS 14, iOS 17, tvOS 17, *)
enum Answer: Sendable {
    /// An action on records of a kept kind. The operation's last path parameter names the
    /// record, or what holds the records it creates or lists.
    case kept(RecordKind, KeptAction)
    /// A handler of its own: people, search, events, bookmarks, a file's bytes, the status of
    /// any recording (trash, archive, unarchive)…
    case route(@Sendable (Call) throws -> APIReply)
}

/// What an operation does to records of its kind (``Call/perform(_:on:)`` says how).
enum KeptAction: Sendable {
    case create, list, get, update, move, delete
    /// Sets these members, whatever the body says (completing a to-do).
    case set([String: JSONValue])
    /// Sets the record's status (a project's trash, archive, unarchive).
    case status(String)
}

/// How each Spec operation is answered, by operation id: the one table the routes consult. An
/// operation not listed answers the Spec's example (``BasecampSandboxModule/cannedOperations``).
@available(macOS 14, iOS 17, tvOS 17, *)
enum OperationTable {
    static let answers: [String: Answer] = [
        // Account, people and projects
        "GetAccount": .route { $0.account() },
        "ListPeople": .route { $0.people { _ in true } },
        "ListPingablePeople": .route { $0.people { !$0.isClient } },
        "ListProjectPeople": .route { try $0.projectPeople() },
        "GetPerson": .route { try $0.person() },
        "GetMyProfile": .route { try $0.person() },
        "ListProjects": .kept(.project, .list),
        "GetProject": .kept(.project, .get),
        "CreateProject": .kept(.project, .create),
        "UpdateProject": .kept(.project, .update),
        "TrashProject": .kept(.project, .status("trashed")),
        "ArchiveProject": .kept(.project, .status("archived")),
        "UnarchiveProject": .kept(.project, .status("active")),
        // Any recording
        "TrashRecording": .route { try $0.setStatus("trashed", of: nil) },
        "ArchiveRecording": .route { try $0.setStatus("archived", of: nil) },
        "UnarchiveRecording": .route { try $0.setStatus("active", of: nil) },
        "ListEvents": .route { try $0.events() },
        "GetProjectTimeline": .route { try $0.timeline() },
        "Search": .route { try $0.search() },
        "ListRecordings": .route { try $0.recordings() },
        "ListComments": .kept(.comment, .list),
        "GetComment": .kept(.comment, .get),
        "CreateComment": .kept(.comment, .create),
        "UpdateComment": .kept(.comment, .update),
        "ListRecordingBoosts": .kept(.boost, .list),
        "GetBoost": .kept(.boost, .get),
        "CreateRecordingBoost": .kept(.boost, .create),
        "DeleteBoost": .kept(.boost, .delete),
        "GetBookmark": .route { try $0.bookmark() },
        "CreateBookmark": .route { try $0.changeBookmark() },
        "DeleteBookmark": .route { try $0.changeBookmark() },
        "ListMyBookmarks": .route { $0.bookmarks() },
        "GetSubscription": .route { try $0.subscription() },
        "Subscribe": .route { try $0.changeSubscription() },
        "Unsubscribe": .route { try $0.changeSubscription() },
        "UpdateSubscription": .route { try $0.changeSubscription() },
        // To-dos
        "GetTodoset": .kept(.todoset, .get),
        "ListTodolists": .kept(.todolist, .list),
        "GetTodolistOrGroup": .kept(.todolist, .get),
        "CreateTodolist": .kept(.todolist, .create),
        "UpdateTodolistOrGroup": .kept(.todolist, .update),
        "ListTodos": .kept(.todo, .list),
        "GetTodo": .kept(.todo, .get),
        "CreateTodo": .kept(.todo, .create),
        "ReplaceTodo": .kept(.todo, .update),
        "CompleteTodo": .kept(.todo, .set(["completed": true])),
        "UncompleteTodo": .kept(.todo, .set(["completed": false])),
        "RepositionTodo": .kept(.todo, .move),
        // Messages
        "GetMessageBoard": .kept(.messageBoard, .get),
        "ListMessages": .kept(.message, .list),
        "GetMessage": .kept(.message, .get),
        "CreateMessage": .kept(.message, .create),
        "UpdateMessage": .kept(.message, .update),
        "ListMessageTypes": .kept(.messageType, .list),
        "GetMessageType": .kept(.messageType, .get),
        "CreateMessageType": .kept(.messageType, .create),
        "UpdateMessageType": .kept(.messageType, .update),
        "DeleteMessageType": .kept(.messageType, .delete),
        // Docs & Files
        "CreateAttachment": .route { try $0.createAttachment() },
        "GetVault": .kept(.vault, .get),
        "ListVaults": .kept(.vault, .list),
        "CreateVault": .kept(.vault, .create),
        "UpdateVault": .kept(.vault, .update),
        "ListDocuments": .kept(.document, .list),
        "GetDocument": .kept(.document, .get),
        "CreateDocument": .kept(.document, .create),
        "ReplaceDocument": .kept(.document, .update),
        "ListUploads": .kept(.upload, .list),
        "GetUpload": .kept(.upload, .get),
        "CreateUpload": .kept(.upload, .create),
        "UpdateUpload": .kept(.upload, .update),
        "CreateUploadVersion": .kept(.upload, .update),
        "ListUploadVersions": .route { try $0.uploadVersions() },
        // Card tables
        "GetCardTable": .kept(.cardTable, .get),
        "CreateCardColumn": .kept(.cardColumn, .create),
        "GetCardColumn": .kept(.cardColumn, .get),
        "UpdateCardColumn": .kept(.cardColumn, .update),
        "SetCardColumnColor": .kept(.cardColumn, .update),
        "CreateCard": .kept(.card, .create),
        "ListCards": .kept(.card, .list),
        "GetCard": .kept(.card, .get),
        "UpdateCard": .kept(.card, .update),
        "MoveCard": .kept(.card, .move),
        "CreateCardStep": .kept(.cardStep, .create),
        "GetCardStep": .kept(.cardStep, .get),
        "UpdateCardStep": .kept(.cardStep, .update),
        "SetCardStepCompletion": .kept(.cardStep, .update),
        // Schedules, Campfire and check-ins
        "GetSchedule": .kept(.schedule, .get),
        "CreateScheduleEntry": .kept(.scheduleEntry, .create),
        "ListScheduleEntries": .kept(.scheduleEntry, .list),
        "GetScheduleEntry": .kept(.scheduleEntry, .get),
        "ReplaceScheduleEntry": .kept(.scheduleEntry, .update),
        "ListCampfires": .route { $0.campfires() },
        "GetCampfire": .kept(.campfire, .get),
        "CreateCampfireLine": .kept(.campfireLine, .create),
        "ListCampfireLines": .kept(.campfireLine, .list),
        "GetCampfireLine": .kept(.campfireLine, .get),
        "UpdateCampfireLine": .kept(.campfireLine, .update),
        "DeleteCampfireLine": .kept(.campfireLine, .delete),
        "GetQuestionnaire": .kept(.questionnaire, .get),
        "CreateQuestion": .kept(.question, .create),
        "ListQuestions": .kept(.question, .list),
        "GetQuestion": .kept(.question, .get),
        "UpdateQuestion": .kept(.question, .update),
        "CreateAnswer": .kept(.answer, .create),
        "ListAnswers": .kept(.answer, .list),
        "GetAnswer": .kept(.answer, .get),
        "UpdateAnswer": .kept(.answer, .update),
        // Webhooks
        "ListWebhooks": .kept(.webhook, .list),
        "GetWebhook": .kept(.webhook, .get),
        "CreateWebhook": .kept(.webhook, .create),
        "UpdateWebhook": .kept(.webhook, .update),
        "DeleteWebhook": .kept(.webhook, .delete),
    ]
}

extension Call {
    /// The answer to this request: its operation's row of ``OperationTable``, or the Spec's example when it has none.
    func reply() throws -> APIReply {
        switch OperationTable.answers[operation.id] {
        case .kept(let kind, let action)?: return try perform(action, on: kind)
        case .route(let handler)?: return try handler(self)
        case nil: return try example()
        }
    }
}

extension BasecampSandboxModule {
    /// The Basecamp operations the sandbox still answers with the Spec's example whatever was written before
    /// (`api-sandbox --canned` prints them). Every other operation reads and writes the account's data.
    public static var cannedOperations: [String] {
        OperationCatalog.all.map(\.id).filter { OperationTable.answers[$0] == nil }.sorted()
    }
}

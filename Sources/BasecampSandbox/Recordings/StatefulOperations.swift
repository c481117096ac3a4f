import Basecamp

extension Handlers {
    /// Every operation answered from the account's data. The rest answer the Spec's example
    /// (marked `X-Sandbox-Example: true`); a test checks the two agree.
    static let statefulOperations: Set<String> =
        [
            "GetAccount", "ListProjects", "GetProject", "CreateProject", "UpdateProject", "TrashProject",
            "ArchiveProject", "UnarchiveProject", "ListPeople", "ListPingablePeople", "ListProjectPeople",
            "GetPerson", "GetMyProfile", "GetTodoset", "ListTodolists", "GetTodolistOrGroup", "CreateTodolist",
            "UpdateTodolistOrGroup", "ListTodos", "GetTodo", "CreateTodo", "ReplaceTodo", "CompleteTodo",
            "UncompleteTodo", "RepositionTodo", "TrashRecording", "ArchiveRecording", "UnarchiveRecording",
            "GetMessageBoard", "ListMessages", "GetMessage", "CreateMessage", "UpdateMessage", "ListComments",
            "GetComment", "CreateComment", "UpdateComment", "ListWebhooks", "GetWebhook", "CreateWebhook",
            "UpdateWebhook", "DeleteWebhook", "ListEvents", "GetProjectTimeline", "Search", "ListRecordings",
            // Files
            "CreateAttachment", "GetVault", "ListVaults", "CreateVault", "UpdateVault", "ListUploads", "GetUpload",
            "CreateUpload", "UpdateUpload", "CreateUploadVersion", "ListUploadVersions", "ListDocuments",
            "GetDocument", "CreateDocument", "ReplaceDocument",
            // Dock tools, bookmarks and subscriptions
            "GetCardTable", "GetSchedule", "GetCampfire", "GetQuestionnaire", "ListCampfires", "GetBookmark",
            "CreateBookmark", "DeleteBookmark", "ListMyBookmarks", "GetSubscription", "Subscribe", "Unsubscribe",
            "UpdateSubscription",
        ].reduce(into: Set(RecordingRoute.table.keys)) { $0.insert($1) }
}

extension BasecampSandboxModule {
    /// The Basecamp operations the sandbox still answers with the Spec's example whatever was
    /// written before (`api-sandbox --canned` prints them). Every other operation reads and
    /// writes the account's data.
    public static var cannedOperations: [String] {
        OperationCatalog.all.map(\.id).filter { !Handlers.statefulOperations.contains($0) }.sorted()
    }
}

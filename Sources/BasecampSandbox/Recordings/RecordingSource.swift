import HTTPCore

/// Any recording the account holds, seen the same way whatever its kind: what search, the
/// recordings list, events, comments, status changes and webhooks need to know of it.
struct RecordingSource {
    var id: Int
    /// Basecamp's `type` (`Todo`, `Kanban::Card`…).
    var type: String
    /// How webhook event kinds about it start (`todo`, `kanban_card`…).
    var eventPrefix: String
    var projectID: Int
    var title: String
    /// The text search looks in besides the title.
    var text: String
    var status: String
    var creatorID: Int
    var createdAt: String
    var updatedAt: String
    /// The API path, relative to the account.
    var path: String
    /// Its full JSON, as its own `GET` answers.
    var render: (Renderer) -> JSONValue
}

/// What every kept recording carries, whatever its kind.
protocol RecordingFacts {
    var id: Int { get }
    var projectID: Int { get }
    var status: String { get }
    var creatorID: Int { get }
    var createdAt: String { get }
    var updatedAt: String { get }
}

extension TodoRecord: RecordingFacts {}
extension TodolistRecord: RecordingFacts {}
extension MessageRecord: RecordingFacts {}
extension CommentRecord: RecordingFacts {}
extension DocumentRecord: RecordingFacts {}
extension UploadRecord: RecordingFacts {}
extension StoredRecording: RecordingFacts {}
extension VaultRecord: RecordingFacts {}

extension RecordingSource {
    /// `record` as a source; `path` defaults to the type's plural (`/todos/ID`).
    init(
        _ record: some RecordingFacts,
        _ type: String,
        _ eventPrefix: String,
        title: String,
        text: String,
        path: String? = nil,
        render: @escaping (Renderer) -> JSONValue
    ) {
        self.init(
            id: record.id,
            type: type,
            eventPrefix: eventPrefix,
            projectID: record.projectID,
            title: title,
            text: text,
            status: record.status,
            creatorID: record.creatorID,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            path: path ?? "/\(eventPrefix)s/\(record.id)",
            render: render
        )
    }
}

extension AccountData {
    /// The recording with `id`, of any kind.
    func recordingSource(_ id: Int) -> RecordingSource? {
        if let todo = todo(id) { return source(todo) }
        if let list = todolist(id) { return source(list) }
        if let message = message(id) { return source(message) }
        if let comment = comment(id) { return source(comment) }
        if let document = document(id) { return source(document) }
        if let upload = upload(id) { return source(upload) }
        if let record = stored(id), record.kind.isRecording { return source(record) }
        return nil
    }

    /// Every recording the account holds, oldest first within each kind.
    func allRecordingSources() -> [RecordingSource] {
        todolists.map(source) + todos.map(source) + messages.map(source) + comments.map(source)
            + (files?.documents ?? []).map(source) + (files?.uploads ?? []).map(source)
            + keptRecords.recordings.filter(\.kind.isRecording).map(source)
    }

    private func source(_ todo: TodoRecord) -> RecordingSource {
        RecordingSource(todo, "Todo", "todo", title: todo.content, text: todo.description) { $0.todo(todo) }
    }

    private func source(_ list: TodolistRecord) -> RecordingSource {
        RecordingSource(list, "Todolist", "todolist", title: list.name, text: list.description) { $0.todolist(list) }
    }

    private func source(_ message: MessageRecord) -> RecordingSource {
        RecordingSource(message, "Message", "message", title: message.subject, text: message.content) {
            $0.message(message)
        }
    }

    private func source(_ comment: CommentRecord) -> RecordingSource {
        RecordingSource(comment, "Comment", "comment", title: comment.content, text: "") { $0.comment(comment) }
    }

    private func source(_ document: DocumentRecord) -> RecordingSource {
        RecordingSource(document, "Document", "document", title: document.title, text: document.content) {
            $0.document(document)
        }
    }

    private func source(_ upload: UploadRecord) -> RecordingSource {
        RecordingSource(upload, "Upload", "upload", title: upload.filename, text: upload.description) {
            $0.upload(upload)
        }
    }

    private func source(_ record: StoredRecording) -> RecordingSource {
        let text = ["content", "description"].compactMap { record.fields[$0]?.stringValue }
            .filter { $0 != record.title }.joined(separator: " ")
        let kind = record.kind
        return RecordingSource(
            record,
            kind.type,
            kind.eventPrefix,
            title: record.title,
            text: text,
            path: kind.path(id: record.id, parentID: record.parentID, projectID: record.projectID)
        ) { $0.stored(record) }
    }

    /// Sets the status of the recording `id`, whatever its kind, stamped with `now`.
    ///
    /// - Throws: ``APIFailure`` 404 when there is no such recording.
    mutating func setStatus(_ status: String, ofRecording id: Int, at now: String) throws {
        if todo(id) != nil {
            try change(\.todos, id, noun: "To-do", at: now) { $0.status = status }
        } else if todolist(id) != nil {
            try change(\.todolists, id, noun: "To-do list", at: now) { $0.status = status }
        } else if message(id) != nil {
            try change(\.messages, id, noun: "Message", at: now) { $0.status = status }
        } else if comment(id) != nil {
            try change(\.comments, id, noun: "Comment", at: now) { $0.status = status }
        } else if document(id) != nil {
            try change(\.documentRecords, id, noun: "Document", at: now) { $0.status = status }
        } else if upload(id) != nil {
            try change(\.fileRecords.uploads, id, noun: "Upload", at: now) { $0.status = status }
        } else if stored(id)?.kind.isRecording == true {
            try change(\.keptRecords.recordings, id, noun: "Recording", at: now) { $0.status = status }
        } else {
            throw APIFailure.notFound("Recording \(id)")
        }
    }

    /// The documents, read and written as a plain list.
    var documentRecords: [DocumentRecord] {
        get { files?.documents ?? [] }
        set { fileRecords.documents = newValue }
    }
}

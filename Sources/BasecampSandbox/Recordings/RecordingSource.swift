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
        RecordingSource(
            id: todo.id,
            type: "Todo",
            eventPrefix: "todo",
            projectID: todo.projectID,
            title: todo.content,
            text: todo.description,
            status: todo.status,
            creatorID: todo.creatorID,
            createdAt: todo.createdAt,
            updatedAt: todo.updatedAt,
            path: "/todos/\(todo.id)",
            render: { $0.todo(todo) }
        )
    }

    private func source(_ list: TodolistRecord) -> RecordingSource {
        RecordingSource(
            id: list.id,
            type: "Todolist",
            eventPrefix: "todolist",
            projectID: list.projectID,
            title: list.name,
            text: list.description,
            status: list.status,
            creatorID: list.creatorID,
            createdAt: list.createdAt,
            updatedAt: list.updatedAt,
            path: "/todolists/\(list.id)",
            render: { $0.todolist(list) }
        )
    }

    private func source(_ message: MessageRecord) -> RecordingSource {
        RecordingSource(
            id: message.id,
            type: "Message",
            eventPrefix: "message",
            projectID: message.projectID,
            title: message.subject,
            text: message.content,
            status: message.status,
            creatorID: message.creatorID,
            createdAt: message.createdAt,
            updatedAt: message.updatedAt,
            path: "/messages/\(message.id)",
            render: { $0.message(message) }
        )
    }

    private func source(_ comment: CommentRecord) -> RecordingSource {
        RecordingSource(
            id: comment.id,
            type: "Comment",
            eventPrefix: "comment",
            projectID: comment.projectID,
            title: comment.content,
            text: "",
            status: comment.status,
            creatorID: comment.creatorID,
            createdAt: comment.createdAt,
            updatedAt: comment.updatedAt,
            path: "/comments/\(comment.id)",
            render: { $0.comment(comment) }
        )
    }

    private func source(_ document: DocumentRecord) -> RecordingSource {
        RecordingSource(
            id: document.id,
            type: "Document",
            eventPrefix: "document",
            projectID: document.projectID,
            title: document.title,
            text: document.content,
            status: document.status,
            creatorID: document.creatorID,
            createdAt: document.createdAt,
            updatedAt: document.updatedAt,
            path: "/documents/\(document.id)",
            render: { $0.document(document) }
        )
    }

    private func source(_ upload: UploadRecord) -> RecordingSource {
        RecordingSource(
            id: upload.id,
            type: "Upload",
            eventPrefix: "upload",
            projectID: upload.projectID,
            title: upload.filename,
            text: upload.description,
            status: upload.status,
            creatorID: upload.creatorID,
            createdAt: upload.createdAt,
            updatedAt: upload.updatedAt,
            path: "/uploads/\(upload.id)",
            render: { $0.upload(upload) }
        )
    }

    private func source(_ record: StoredRecording) -> RecordingSource {
        let text = ["content", "description"].compactMap { record.fields[$0]?.stringValue }
            .filter { $0 != record.title }.joined(separator: " ")
        return RecordingSource(
            id: record.id,
            type: record.kind.type,
            eventPrefix: record.kind.eventPrefix,
            projectID: record.projectID,
            title: record.title,
            text: text,
            status: record.status,
            creatorID: record.creatorID,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
            path: record.kind.path(id: record.id, parentID: record.parentID, projectID: record.projectID),
            render: { $0.stored(record) }
        )
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

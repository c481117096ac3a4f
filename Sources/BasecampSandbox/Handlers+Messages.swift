import Foundation
import HTTPCore

extension Handlers {
    /// Newest first, as on the board.
    func listMessages() throws -> APIReply {
        try listed(in: "boardId", "Message board", AccountData.messageBoard, Renderer.message) { data, id in
            data.messages.filter { $0.boardID == id && $0.status == "active" }.sorted { $0.createdAt > $1.createdAt }
        }
    }

    func createMessage() throws -> APIReply {
        let boardID = try id("boardId")
        let body = try request.jsonObject()
        let subject = try requiredText(body, "subject")
        let now = Self.now()
        return try created(AccountData.message, Renderer.message) { data in
            guard let board = data.messageBoard(boardID) else { throw APIFailure.notFound("Message board \(boardID)") }
            let id = data.makeID()
            data.messages.append(
                MessageRecord(
                    id: id,
                    projectID: board.projectID,
                    boardID: boardID,
                    subject: subject,
                    content: body["content"]?.stringValue ?? "",
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    func updateMessage() throws -> APIReply {
        let id = try id("messageId")
        let body = try request.jsonObject()
        if body["subject"] != nil { _ = try requiredText(body, "subject") }
        return try updated(\.messages, id, noun: "Message", Renderer.message) { message, _ in
            if let subject = body["subject"]?.stringValue { message.subject = subject }
            if let content = body["content"]?.stringValue { message.content = content }
        }
    }

    /// Oldest first, as in a thread.
    func listComments() throws -> APIReply {
        try listed(in: "recordingId", "Recording", AccountData.recordingSource, Renderer.comment) { data, id in
            data.comments.filter { $0.recordingID == id && $0.status == "active" }
        }
    }

    func createComment() throws -> APIReply {
        let recordingID = try id("recordingId")
        let body = try request.jsonObject()
        let content = try requiredText(body, "content")
        let now = Self.now()
        return try created(AccountData.comment, Renderer.comment) { data in
            guard let project = data.recordingSource(recordingID)?.projectID else {
                throw APIFailure.notFound("Recording \(recordingID)")
            }
            let id = data.makeID()
            data.comments.append(
                CommentRecord(
                    id: id,
                    projectID: project,
                    recordingID: recordingID,
                    content: content,
                    creatorID: data.meID,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return id
        }
    }

    func updateComment() throws -> APIReply {
        let id = try id("commentId")
        let body = try request.jsonObject()
        let content = try requiredText(body, "content")
        return try updated(\.comments, id, noun: "Comment", Renderer.comment) { comment, _ in comment.content = content
        }
    }
}

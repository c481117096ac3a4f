import Foundation
import HTTPCore

extension Handlers {
    /// Newest first, as on the board.
    func listMessages() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("boardId")
        guard data.messageBoard(id) != nil else { throw APIFailure.notFound("Message board \(id)") }
        let render = renderer(data)
        let messages = data.messages.filter { $0.boardID == id && $0.status == "active" }
            .sorted { $0.createdAt > $1.createdAt }
        return .list(messages, render.message)
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
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            try data.change(\.messages, id, noun: "Message", at: now) { message in
                if let subject = body["subject"]?.stringValue { message.subject = subject }
                if let content = body["content"]?.stringValue { message.content = content }
            }
            return data
        }
        guard let message = data.message(id) else { throw APIFailure.notFound("Message \(id)") }
        return .json(renderer(data).message(message), status: 200)
    }

    /// Oldest first, as in a thread.
    func listComments() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("recordingId")
        guard data.recordingSource(id) != nil else { throw APIFailure.notFound("Recording \(id)") }
        let render = renderer(data)
        return .list(data.comments.filter { $0.recordingID == id && $0.status == "active" }, render.comment)
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
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            try data.change(\.comments, id, noun: "Comment", at: now) { $0.content = content }
            return data
        }
        guard let comment = data.comment(id) else { throw APIFailure.notFound("Comment \(id)") }
        return .json(renderer(data).comment(comment), status: 200)
    }
}

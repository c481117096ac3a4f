import HTTPCore

/// Bookmarks and subscriptions: who follows a recording, and what the signed-in person saved.
extension Handlers {
    /// Answers bookmark and subscription operations; `nil` for any other.
    func followingReply() throws -> APIReply? {
        switch request.operation.id {
        case "GetBookmark": return try bookmarkStatus()
        case "CreateBookmark": return try createBookmark()
        case "DeleteBookmark": return try deleteBookmark()
        case "ListMyBookmarks": return listBookmarks()
        case "GetSubscription": return try subscription()
        case "Subscribe": return try changeSubscription(adding: [store.snapshot().meID], removing: [])
        case "Unsubscribe":
            _ = try changeSubscription(adding: [], removing: [store.snapshot().meID])
            return .empty(status: request.operation.successStatus)
        case "UpdateSubscription":
            let body = try request.jsonObject()
            let data = store.snapshot()
            return try changeSubscription(
                adding: try people(body, "subscriptions", data: data),
                removing: try people(body, "unsubscriptions", data: data)
            )
        default: return nil
        }
    }

    private func recordingID(in data: AccountData) throws -> Int {
        let id = try id("recordingId")
        guard data.recordingSource(id) != nil else { throw APIFailure.notFound("Recording \(id)") }
        return id
    }

    private func bookmarkStatus() throws -> APIReply {
        let data = store.snapshot()
        let id = try recordingID(in: data)
        let bookmarked = data.keptRecords.bookmarks.contains { $0.recordingID == id && $0.personID == data.meID }
        return .json(["bookmarked": .bool(bookmarked)], status: 200)
    }

    private func createBookmark() throws -> APIReply {
        let now = Self.now()
        let data = try store.update { data -> AccountData in
            let id = try recordingID(in: data)
            if !data.keptRecords.bookmarks.contains(where: { $0.recordingID == id && $0.personID == data.meID }) {
                let bookmarkID = data.makeID()
                data.keptRecords.bookmarks.append(
                    BookmarkRecord(id: bookmarkID, recordingID: id, personID: data.meID, createdAt: now)
                )
            }
            return data
        }
        let id = try recordingID(in: data)
        guard
            let bookmark = data.keptRecords.bookmarks.first(where: { $0.recordingID == id && $0.personID == data.meID })
        else { throw APIFailure(500, "The bookmark was not stored.") }
        return .json(renderer(data).bookmark(bookmark), status: request.operation.successStatus)
    }

    private func deleteBookmark() throws -> APIReply {
        try store.update { data in
            let (id, me) = (try recordingID(in: data), data.meID)
            data.keptRecords.bookmarks.removeAll { $0.recordingID == id && $0.personID == me }
        }
        return .empty(status: request.operation.successStatus)
    }

    private func listBookmarks() -> APIReply {
        let data = store.snapshot()
        let mine = data.keptRecords.bookmarks.filter {
            $0.personID == data.meID && data.recordingSource($0.recordingID) != nil
        }
        return .list(mine.reversed(), renderer(data).bookmark)
    }

    private func subscription() throws -> APIReply {
        let data = store.snapshot()
        return .json(renderer(data).subscription(try recordingID(in: data)), status: 200)
    }

    private func changeSubscription(adding: [Int], removing: [Int]) throws -> APIReply {
        let data = try store.update { data -> AccountData in
            let id = try recordingID(in: data)
            var subscribers = data.subscribers(of: id).filter { !removing.contains($0) }
            subscribers += adding.filter { !subscribers.contains($0) }
            data.keptRecords.subscriptions.removeAll { $0.recordingID == id }
            data.keptRecords.subscriptions.append(SubscriptionRecord(recordingID: id, personIDs: subscribers))
            return data
        }
        return .json(renderer(data).subscription(try recordingID(in: data)), status: request.operation.successStatus)
    }
}

extension AccountData {
    /// Who follows the recording: as last changed, or else its creator.
    func subscribers(of recordingID: Int) -> [Int] {
        if let kept = kept?.subscriptions.first(where: { $0.recordingID == recordingID }) { return kept.personIDs }
        return recordingSource(recordingID).map { [$0.creatorID] } ?? []
    }
}

extension Renderer {
    func bookmark(_ bookmark: BookmarkRecord) -> JSONValue {
        Templates.bookmark.merging([
            "id": .integer(bookmark.id),
            "created_at": .string(bookmark.createdAt),
            "recording": data.recordingSource(bookmark.recordingID).map { $0.render(self) } ?? .null,
        ])
    }

    func subscription(_ recordingID: Int) -> JSONValue {
        let subscribers = data.subscribers(of: recordingID)
        return Templates.subscription.merging([
            "subscribed": .bool(subscribers.contains(data.meID)),
            "count": .integer(subscribers.count),
            "subscribers": .array(subscribers.map(person)),
            "url": api("/recordings/\(recordingID)/subscription.json"),
        ])
    }
}

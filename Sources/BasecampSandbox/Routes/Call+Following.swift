import HTTPCore

/// Bookmarks and subscriptions: what the signed-in person saved, and who follows a recording.
extension Call {
    func bookmark() throws -> APIReply {
        let data = store.snapshot()
        let id = try named(nil, in: data).id
        return .json(["bookmarked": .bool(data.bookmark(of: id) != nil)], status: 200)
    }

    /// `CreateBookmark` bookmarks the recording once, however often it is asked, and answers
    /// the bookmark; `DeleteBookmark` removes it.
    func changeBookmark() throws -> APIReply {
        let (data, id) = try write { data, now in
            let (id, me) = (try named(nil, in: data).id, data.meID)
            data.bookmarks.removeAll { $0.recordingID == id && $0.personID == me && operation.method == .delete }
            if operation.method == .post, data.bookmark(of: id) == nil {
                data.bookmarks.append(BookmarkRecord(id: data.makeID(), recordingID: id, personID: me, createdAt: now))
            }
            return id
        }
        guard let bookmark = id.flatMap(data.bookmark), operation.method == .post else {
            return .empty(status: operation.successStatus)
        }
        return .json(renderer(data).bookmark(bookmark), status: operation.successStatus)
    }

    /// The signed-in person's bookmarks, newest first.
    func bookmarks() -> APIReply {
        let data = store.snapshot()
        let mine = data.bookmarks.filter { $0.personID == data.meID && data.recording($0.recordingID) != nil }
        return .list(Array(mine.reversed()), renderer(data).bookmark)
    }

    func subscription() throws -> APIReply {
        let data = store.snapshot()
        return .json(renderer(data).subscription(try named(nil, in: data).id), status: 200)
    }

    /// `Subscribe` and `Unsubscribe` the signed-in person, or `UpdateSubscription` adds and
    /// removes the people its body names.
    func changeSubscription() throws -> APIReply {
        let body = operation.bodyKind == nil ? [:] : try jsonObject()
        let (data, id) = try write { data, _ in
            let (id, me) = (try named(nil, in: data).id, data.meID)
            let added = operation.id == "Subscribe" ? [me] : try people(body, "subscriptions", data: data)
            let removed = operation.id == "Unsubscribe" ? [me] : try people(body, "unsubscriptions", data: data)
            var subscribers = data.subscribers(of: id).filter { !removed.contains($0) }
            subscribers += added.filter { !subscribers.contains($0) }
            data.subscriptions.removeAll { $0.recordingID == id }
            data.subscriptions.append(SubscriptionRecord(recordingID: id, personIDs: subscribers))
            return id
        }
        guard operation.responseSchema != nil else { return .empty(status: operation.successStatus) }
        return .json(renderer(data).subscription(id ?? 0), status: operation.successStatus)
    }
}

extension AccountData {
    /// The signed-in person's bookmark of the recording, if they have one.
    func bookmark(of recordingID: Int) -> BookmarkRecord? {
        bookmarks.first { $0.recordingID == recordingID && $0.personID == meID }
    }
}

extension Renderer {
    func bookmark(_ bookmark: BookmarkRecord) -> JSONValue {
        Templates.bookmark.merging([
            "id": .integer(bookmark.id),
            "created_at": .string(bookmark.createdAt),
            "recording": data.record(bookmark.recordingID).map { record($0) } ?? .null,
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

import HTTPCore

/// The account, its people and its Campfires: read from the account, never written.
extension Call {
    func account() -> APIReply {
        let data = store.snapshot()
        let value = Templates.parsed("Account").merging([
            "id": .integer(data.accountID), "name": .string(data.accountName), "active": true,
        ])
        return .json(value, status: 200)
    }

    func people(_ include: (PersonRecord) -> Bool) -> APIReply {
        let data = store.snapshot()
        return .list(data.people.filter(include).map(\.id), renderer(data).person)
    }

    func projectPeople() throws -> APIReply {
        let data = store.snapshot()
        let project = try named(.project, in: data)
        return .list(project.fields["people_ids"]?.arrayValue?.compactMap(\.intValue) ?? [], renderer(data).person)
    }

    /// The person the path names, or the one the token belongs to.
    func person() throws -> APIReply {
        let data = store.snapshot()
        let id = lastID ?? data.meID
        guard data.person(id) != nil else { throw APIFailure.notFound("Person \(id)") }
        return .json(renderer(data).person(id), status: 200)
    }

    /// The Campfire of every active project.
    func campfires() -> APIReply {
        let data = store.snapshot()
        let active = Set(data.records.filter { $0.kind == .project && $0.status == "active" }.map(\.id))
        let render = renderer(data)
        return .list(data.records.filter { $0.kind == .campfire && active.contains($0.projectID) }) {
            render.record($0)
        }
    }
}

import Foundation
import HTTPCore

extension Handlers {
    func account() -> APIReply {
        let data = store.snapshot()
        let value = Templates.parsed("Account").merging([
            "id": .integer(data.accountID), "name": .string(data.accountName), "active": true,
        ])
        return .json(value, status: 200)
    }

    func listProjects() -> APIReply {
        let data = store.snapshot()
        let status = request.queryValue("status") ?? "active"
        let render = renderer(data)
        return .list(data.projects.filter { $0.status == status }, render.project)
    }

    func createProject() throws -> APIReply {
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        let description = body["description"]?.stringValue ?? ""
        let now = Self.now()
        return try created(AccountData.project, Renderer.project) { data in
            let id = data.makeID()
            let todoset = data.makeID()
            let board = data.makeID()
            data.projects.append(
                ProjectRecord(
                    id: id,
                    name: name,
                    description: description,
                    todosetID: todoset,
                    messageBoardID: board,
                    peopleIDs: [data.meID],
                    createdAt: now,
                    updatedAt: now
                )
            )
            data.todosets.append(TodosetRecord(id: todoset, projectID: id, createdAt: now))
            data.messageBoards.append(MessageBoardRecord(id: board, projectID: id, createdAt: now))
            return id
        }
    }

    func updateProject() throws -> APIReply {
        let id = try id("projectId")
        let body = try request.jsonObject()
        let name = try requiredText(body, "name")
        return try updated(\.projects, id, noun: "Project", Renderer.project) { project, _ in
            project.name = name
            if let description = body["description"]?.stringValue { project.description = description }
        }
    }

    func setProjectStatus(_ status: String) throws -> APIReply {
        let id = try id("projectId")
        let now = Self.now()
        try store.update { data in
            try data.change(\.projects, id, noun: "Project", at: now) { $0.status = status }
        }
        return .empty(status: request.operation.successStatus)
    }

    func listPeople(_ include: (PersonRecord) -> Bool) -> APIReply {
        let data = store.snapshot()
        let render = renderer(data)
        return .list(data.people.filter(include)) { render.person($0.id) }
    }

    func listProjectPeople() throws -> APIReply {
        let data = store.snapshot()
        let id = try id("projectId")
        guard let project = data.project(id) else { throw APIFailure.notFound("Project \(id)") }
        let render = renderer(data)
        return .list(project.peopleIDs, render.person)
    }

    func getPerson(_ id: Int) throws -> APIReply {
        let data = store.snapshot()
        guard data.person(id) != nil else { throw APIFailure.notFound("Person \(id)") }
        return .json(renderer(data).person(id), status: 200)
    }
}

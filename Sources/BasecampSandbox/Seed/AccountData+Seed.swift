import Foundation
import HTTPCore

extension AccountData {
    /// The account every sandbox starts with: deterministic, so tests and docs can rely on it.
    /// The order of what is added fixes the ids the sandbox makes up, which the CLI's examples use.
    /// Made once per process: every sandbox start begins from it.
    static let seeded: AccountData = {
        let seed = BasecampSandboxSeed.self
        var data = AccountData(
            accountID: seed.accountID,
            accountName: "Honcho Design",
            meID: seed.ownerID,
            nextID: 1_069_500_000
        )
        let people = [
            ("Victor Cooper", "Chief Strategist"), ("Annie Bryan", "Designer"), ("Cheryl Walters", "Hardware Engineer"),
            ("Jared Davis", "Firmware Engineer"), ("Amy Chen", "Product Manager"), ("Marcus Reid", "Customer Support"),
            ("Lina Ortiz", "Head of Operations"),
        ]
        for (index, (name, title)) in people.enumerated() {
            let first = name.prefix { $0 != " " }.lowercased()
            let client = index == 6
            var person = PersonRecord(
                id: seed.ownerID + index,
                name: name,
                email: first + (client ? "@ortizlabs.example" : "@honchodesign.com"),
                title: title,
                companyID: client ? 1_033_447_818 : 1_033_447_817,
                companyName: client ? "Ortiz Labs" : "Honcho Design",
                createdAt: client ? time(6, 10) : time(5, 9 + index)
            )
            (person.isAdmin, person.isOwner, person.isClient) = (index < 2, index == 0, client)
            data.people.append(person)
        }
        data.seedLetoLaptop()
        data.seedOtherProjects()
        data.seedLetoLaptopTools()
        return data
    }()

    /// Days from Monday 2 February 2026, kept simple: February has 28 days in 2026.
    static func day(_ offset: Int) -> String {
        offset < 27 ? String(format: "2026-02-%02d", 2 + offset) : String(format: "2026-03-%02d", offset - 26)
    }

    static func time(_ day: Int, _ hour: Int) -> String {
        String(format: "2026-01-%02dT%02d:15:00.000Z", day, hour)
    }

    /// A project made on `day` with its people, its to-do set taking the id `todoset` and its
    /// message board `board` (by default the next one).
    mutating func addProject(
        _ id: Int,
        _ project: (name: String, about: String),
        _ people: [Int],
        todoset: Int,
        board: Int? = nil,
        day: Int
    ) {
        let fields: [String: JSONValue] = [
            "name": .string(project.name), "description": .string(project.about),
            "people_ids": .array(people.map(JSONValue.integer)),
        ]
        let dock: [RecordKind: Int] = [.todoset: todoset, .messageBoard: board ?? todoset + 1]
        add(.project, fields, in: 0, id: id, at: Self.time(day, 9), dockIDs: dock)
    }

    /// A to-do list made at `time` and its to-dos; `facts` tells, from each to-do's place, whether
    /// it is done, when it is due, who it is assigned to and when it was made.
    mutating func addList(
        _ id: Int,
        _ name: String,
        _ about: String = "",
        in todoset: Int,
        at time: String,
        todos: [String],
        _ facts: (Int) -> (done: Bool, due: String?, assignee: Int?, time: String)
    ) {
        add(.todolist, ["name": .string(name), "description": .string(about)], in: todoset, id: id, at: time)
        for (place, title) in todos.enumerated() {
            let todo = facts(place)
            addTodo(title, in: id, done: todo.done, due: todo.due, assignee: todo.assignee, at: todo.time)
        }
    }

    /// A to-do, its owner subscribed to its completion.
    mutating func addTodo(
        _ content: String,
        in list: Int,
        id: Int? = nil,
        done: Bool = false,
        due: String?,
        assignee: Int?,
        about: String = "",
        at time: String
    ) {
        var fields: [String: JSONValue] = [
            "content": .string(content), "description": .string(about), "completed": .bool(done),
            "assignee_ids": .array(assignee.map { [.integer($0)] } ?? []),
            "completion_subscriber_ids": [.integer(meID)],
        ]
        fields["due_on"] = due.map(JSONValue.string)
        add(.todo, fields, in: list, id: id, at: time)
    }

    /// Messages on a board, each `(subject, content, author, day, hour)` with its comments, each
    /// `(content, author, day, hour)`; the first message takes `firstID` when given.
    mutating func addMessages(
        on board: Int,
        firstID: Int? = nil,
        _ messages: [(String, String, Int, Int, Int, [(String, Int, Int, Int)])]
    ) {
        for (index, message) in messages.enumerated() {
            let fields: [String: JSONValue] = ["subject": .string(message.0), "content": .string(message.1)]
            let at = Self.time(message.3, message.4)
            let id = add(.message, fields, in: board, id: index == 0 ? firstID : nil, by: message.2, at: at)
            for (content, author, day, hour) in message.5 {
                add(.comment, ["content": .string(content)], in: id, by: author, at: Self.time(day, hour))
            }
        }
    }
}

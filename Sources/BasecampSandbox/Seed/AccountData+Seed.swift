import HTTPCore

extension AccountData {
    /// The account every sandbox starts with: deterministic, so tests and docs can rely on it.
    static func seeded() -> AccountData {
        var data = AccountData(
            accountID: BasecampSandboxSeed.accountID,
            accountName: "Honcho Design",
            meID: BasecampSandboxSeed.ownerID,
            nextID: 1_069_600_000
        )
        data.seedPeople()
        data.seedLetoLaptop()
        data.seedWebsite()
        data.seedHiring()
        data.seedOfficeMove()
        data.seedLetoLaptopTools()
        return data
    }

    /// Days from Monday 2 February 2026, kept simple: February has 28 days in 2026.
    static func day(_ offset: Int) -> String {
        let day = 2 + offset
        return day <= 28 ? "2026-02-\(twoDigits(day))" : "2026-03-\(twoDigits(day - 28))"
    }

    static func time(_ day: Int, _ hour: Int) -> String {
        "2026-01-\(twoDigits(day))T\(twoDigits(hour)):15:00.000Z"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    private mutating func seedPeople() {
        let people: [(Int, String, String, String)] = [
            (BasecampSandboxSeed.ownerID, "Victor Cooper", "victor@honchodesign.com", "Chief Strategist"),
            (1_049_715_914, "Annie Bryan", "annie@honchodesign.com", "Designer"),
            (1_049_715_915, "Cheryl Walters", "cheryl@honchodesign.com", "Hardware Engineer"),
            (1_049_715_916, "Jared Davis", "jared@honchodesign.com", "Firmware Engineer"),
            (1_049_715_917, "Amy Chen", "amy@honchodesign.com", "Product Manager"),
            (1_049_715_918, "Marcus Reid", "marcus@honchodesign.com", "Customer Support"),
        ]
        for (index, person) in people.enumerated() {
            let (id, name, email, title) = person
            self.people.append(
                PersonRecord(
                    id: id,
                    name: name,
                    email: email,
                    title: title,
                    isAdmin: index < 2,
                    isOwner: index == 0,
                    companyID: 1_033_447_817,
                    companyName: "Honcho Design",
                    createdAt: Self.time(5, 9 + index)
                )
            )
        }
        self.people.append(
            PersonRecord(
                id: 1_049_715_919,
                name: "Lina Ortiz",
                email: "lina@ortizlabs.example",
                title: "Head of Operations",
                isClient: true,
                companyID: 1_033_447_818,
                companyName: "Ortiz Labs",
                createdAt: Self.time(6, 10)
            )
        )
    }

    /// A seeded project with its people, and the to-do set and message board ids it is known by.
    mutating func addProject(
        _ id: Int,
        _ name: String,
        _ description: String,
        people: [Int],
        todoset: Int,
        board: Int,
        status: String = "active",
        at time: String
    ) {
        let fields: [String: JSONValue] = [
            "name": .string(name), "description": .string(description),
            "people_ids": .array(people.map(JSONValue.integer)),
        ]
        add(
            .project,
            fields,
            in: 0,
            id: id,
            status: status,
            at: time,
            dockIDs: [.todoset: todoset, .messageBoard: board]
        )
    }

    /// A seeded to-do list in the project whose to-do set is `todoset`.
    mutating func addList(_ id: Int, _ name: String, _ description: String = "", in todoset: Int, at time: String) {
        add(.todolist, ["name": .string(name), "description": .string(description)], in: todoset, id: id, at: time)
    }

    /// A seeded to-do, its owner subscribed to its completion.
    mutating func addTodo(
        _ content: String,
        in list: Int,
        id: Int? = nil,
        completed: Bool = false,
        due: String? = nil,
        assignees: [Int] = [],
        description: String = "",
        at time: String
    ) {
        var fields: [String: JSONValue] = [
            "content": .string(content), "description": .string(description), "completed": .bool(completed),
            "assignee_ids": .array(assignees.map(JSONValue.integer)), "completion_subscriber_ids": [.integer(meID)],
        ]
        if let due { fields["due_on"] = .string(due) }
        add(.todo, fields, in: list, id: id, at: time)
    }

    /// A seeded message on the board `board`, by `creator`; returns its id.
    @discardableResult
    mutating func addMessage(
        _ subject: String,
        _ content: String,
        on board: Int,
        id: Int? = nil,
        by creator: Int,
        at time: String
    )
        -> Int
    {
        add(
            .message,
            ["subject": .string(subject), "content": .string(content)],
            in: board,
            id: id,
            by: creator,
            at: time
        )
    }

    mutating func addComment(_ content: String, on recording: Int, by creator: Int, at time: String) {
        add(.comment, ["content": .string(content)], in: recording, by: creator, at: time)
    }
}

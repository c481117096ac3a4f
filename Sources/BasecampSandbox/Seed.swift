/// Ids of the account the sandbox starts with, for tests, examples and documentation.
///
/// The account is Honcho Design (`195539477`, as in the Spec's examples) with seven people and
/// four projects. The Leto Laptop's *Hardware* list holds 120 open to-dos, so at Basecamp's 50 per
/// page it spans three pages.
public enum BasecampSandboxSeed {
    /// The only account the sandbox serves; any other account id answers `404`.
    public static let accountID = 195_539_477
    /// Victor Cooper, the account owner and the person the sandbox's tokens belong to.
    public static let ownerID = 1_049_715_913

    /// *The Leto Laptop*: two to-do lists and two messages.
    public static let letoLaptopProjectID = 2_085_958_504
    /// The Leto Laptop's to-do set.
    public static let letoLaptopTodosetID = 1_069_479_300
    /// The Leto Laptop's message board.
    public static let letoLaptopMessageBoardID = 1_069_479_340
    /// *Hardware*: 120 open to-dos, three pages at 50 per page.
    public static let hardwareTodolistID = 1_069_479_338
    /// *Launch checklist*: nine to-dos, three of them completed.
    public static let launchChecklistTodolistID = 1_069_479_341
    /// *Program the flux capacitor*, the first to-do on the Hardware list.
    public static let fluxCapacitorTodoID = 1_069_479_395
    /// *Kickoff*, a message with three comments.
    public static let kickoffMessageID = 1_069_479_988

    /// *Marketing Website Relaunch*.
    public static let websiteProjectID = 2_085_958_505
    /// *Hiring: Backend Engineer*.
    public static let hiringProjectID = 2_085_958_506
    /// *Office Move*, archived.
    public static let officeMoveProjectID = 2_085_958_507

    /// A paused webhook of The Leto Laptop (inactive, so it delivers nothing until turned on).
    public static let pausedWebhookID = 1_069_479_351
}

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
        data.files = seededFiles()
        data.kept = seededRecordings()
        data.seedWebhooks()
        return data
    }

    static func day(_ offset: Int) -> String {
        // Days from Monday 2 February 2026, kept simple: February has 28 days in 2026.
        let day = 2 + offset
        return day <= 28 ? "2026-02-\(twoDigits(day))" : "2026-03-\(twoDigits(day - 28))"
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    static func time(_ day: Int, _ hour: Int) -> String {
        "2026-01-\(twoDigits(day))T\(twoDigits(hour)):15:00.000Z"
    }

    mutating func seedPeople() {
        let honcho = (id: 1_033_447_817, name: "Honcho Design")
        let people: [(Int, String, String, String)] = [
            (BasecampSandboxSeed.ownerID, "Victor Cooper", "victor@honchodesign.com", "Chief Strategist"),
            (1_049_715_914, "Annie Bryan", "annie@honchodesign.com", "Designer"),
            (1_049_715_915, "Cheryl Walters", "cheryl@honchodesign.com", "Hardware Engineer"),
            (1_049_715_916, "Jared Davis", "jared@honchodesign.com", "Firmware Engineer"),
            (1_049_715_917, "Amy Chen", "amy@honchodesign.com", "Product Manager"),
            (1_049_715_918, "Marcus Reid", "marcus@honchodesign.com", "Customer Support"),
        ]
        for (index, person) in people.enumerated() {
            self.people.append(
                PersonRecord(
                    id: person.0,
                    name: person.1,
                    email: person.2,
                    title: person.3,
                    isAdmin: index < 2,
                    isOwner: index == 0,
                    companyID: honcho.id,
                    companyName: honcho.name,
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

    var staffIDs: [Int] { people.filter { !$0.isClient }.map(\.id) }

    mutating func addProject(
        id: Int,
        name: String,
        description: String,
        todosetID: Int,
        boardID: Int,
        people: [Int],
        created: String
    ) {
        projects.append(
            ProjectRecord(
                id: id,
                name: name,
                description: description,
                todosetID: todosetID,
                messageBoardID: boardID,
                peopleIDs: people,
                createdAt: created,
                updatedAt: created
            )
        )
        todosets.append(TodosetRecord(id: todosetID, projectID: id, createdAt: created))
        messageBoards.append(MessageBoardRecord(id: boardID, projectID: id, createdAt: created))
    }

    mutating func addList(_ id: Int, project: Int, name: String, description: String, created: String) {
        guard let todoset = self.project(project)?.todosetID else { return }
        todolists.append(
            TodolistRecord(
                id: id,
                projectID: project,
                todosetID: todoset,
                name: name,
                description: description,
                creatorID: meID,
                createdAt: created,
                updatedAt: created
            )
        )
    }

    mutating func addTodo(
        _ content: String,
        list: Int,
        id: Int? = nil,
        completed: Bool = false,
        due: String? = nil,
        assignees: [Int] = [],
        description: String = "",
        created: String
    ) {
        guard let project = todolist(list)?.projectID else { return }
        todos.append(
            TodoRecord(
                id: id ?? makeID(),
                projectID: project,
                todolistID: list,
                content: content,
                description: description,
                completed: completed,
                dueOn: due,
                assigneeIDs: assignees,
                completionSubscriberIDs: [meID],
                creatorID: meID,
                createdAt: created,
                updatedAt: created
            )
        )
    }

    mutating func addMessage(
        _ id: Int?,
        project: Int,
        subject: String,
        content: String,
        creator: Int,
        created: String
    ) -> Int {
        let messageID = id ?? makeID()
        guard let board = self.project(project)?.messageBoardID else { return messageID }
        messages.append(
            MessageRecord(
                id: messageID,
                projectID: project,
                boardID: board,
                subject: subject,
                content: content,
                creatorID: creator,
                createdAt: created,
                updatedAt: created
            )
        )
        return messageID
    }

    mutating func addComment(on recording: Int, project: Int, content: String, creator: Int, created: String) {
        comments.append(
            CommentRecord(
                id: makeID(),
                projectID: project,
                recordingID: recording,
                content: content,
                creatorID: creator,
                createdAt: created,
                updatedAt: created
            )
        )
    }
}

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
        return data
    }

    private static func day(_ offset: Int) -> String {
        // Days from Monday 2 February 2026, kept simple: February has 28 days in 2026.
        let day = 2 + offset
        return day <= 28 ? "2026-02-\(twoDigits(day))" : "2026-03-\(twoDigits(day - 28))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    private static func time(_ day: Int, _ hour: Int) -> String {
        "2026-01-\(twoDigits(day))T\(twoDigits(hour)):15:00.000Z"
    }

    private mutating func seedPeople() {
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

    private var staffIDs: [Int] { people.filter { !$0.isClient }.map(\.id) }

    private mutating func addProject(
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

    private mutating func addList(_ id: Int, project: Int, name: String, description: String, created: String) {
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

    private mutating func addTodo(
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

    private mutating func addMessage(
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

    private mutating func addComment(on recording: Int, project: Int, content: String, creator: Int, created: String) {
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

    private mutating func seedLetoLaptop() {
        let project = BasecampSandboxSeed.letoLaptopProjectID
        nextID = 1_069_500_000
        addProject(
            id: project,
            name: "The Leto Laptop",
            description: "Laptop product launch.",
            todosetID: BasecampSandboxSeed.letoLaptopTodosetID,
            boardID: BasecampSandboxSeed.letoLaptopMessageBoardID,
            people: staffIDs + [1_049_715_919],
            created: Self.time(8, 9)
        )
        let hardware = BasecampSandboxSeed.hardwareTodolistID
        addList(
            hardware,
            project: project,
            name: "Hardware",
            description: "<div>Everything with a plug.</div>",
            created: Self.time(8, 10)
        )
        let actions = [
            "Source", "Prototype", "Stress-test", "Order samples of", "Review the spec for", "Certify", "Cost out",
            "Sign off",
        ]
        let parts = [
            "the hinge assembly", "the keyboard deck", "the trackpad", "the battery cells", "the USB-C ports",
            "the display panel", "the cooling fan", "the speaker grilles", "the webcam module", "the chassis screws",
            "the power adapter", "the fingerprint reader", "the Wi-Fi antenna", "the SSD bracket",
            "the palm-rest coating",
        ]
        let engineers = [1_049_715_915, 1_049_715_916, 1_049_715_914]
        var index = 0
        for action in actions {
            for part in parts {
                defer { index += 1 }
                if index == 0 {
                    addTodo(
                        "Program the flux capacitor",
                        list: hardware,
                        id: BasecampSandboxSeed.fluxCapacitorTodoID,
                        due: Self.day(4),
                        assignees: [1_049_715_914],
                        description: "<div>Use the <strong>1.21 gigawatt</strong> setting.</div>",
                        created: Self.time(9, 8)
                    )
                    continue
                }
                addTodo(
                    "\(action) \(part)",
                    list: hardware,
                    due: index % 3 == 0 ? nil : Self.day(index % 40),
                    assignees: index % 4 == 0 ? [] : [engineers[index % engineers.count]],
                    created: Self.time(9 + index % 20, 8 + index % 10)
                )
            }
        }

        let checklist = BasecampSandboxSeed.launchChecklistTodolistID
        addList(
            checklist,
            project: project,
            name: "Launch checklist",
            description: "<div>What has to be true on launch day.</div>",
            created: Self.time(10, 11)
        )
        let steps = [
            ("Book the launch venue", true), ("Brief the press", true), ("Record the demo video", true),
            ("Publish the product page", false), ("Stock the first 500 units", false),
            ("Train the support team", false), ("Schedule the launch email", false),
            ("Prepare the FAQ", false), ("Run the launch rehearsal", false),
        ]
        for (offset, step) in steps.enumerated() {
            addTodo(
                step.0,
                list: checklist,
                completed: step.1,
                due: Self.day(20 + offset),
                assignees: [offset % 2 == 0 ? 1_049_715_917 : 1_049_715_918],
                created: Self.time(11, 9 + offset)
            )
        }

        let kickoff = addMessage(
            BasecampSandboxSeed.kickoffMessageID,
            project: project,
            subject: "Kickoff",
            content: "<div>Welcome aboard! The Leto ships in March; the Hardware list is where the work is.</div>",
            creator: meID,
            created: Self.time(8, 14)
        )
        addComment(
            on: kickoff,
            project: project,
            content: "<div>Great news!</div>",
            creator: 1_049_715_914,
            created: Self.time(8, 15)
        )
        addComment(
            on: kickoff,
            project: project,
            content: "<div>Hinge samples arrive next week.</div>",
            creator: 1_049_715_915,
            created: Self.time(8, 16)
        )
        addComment(
            on: kickoff,
            project: project,
            content: "<div>Firmware branch is up.</div>",
            creator: 1_049_715_916,
            created: Self.time(8, 17)
        )
        let shortlist = addMessage(
            nil,
            project: project,
            subject: "Supplier shortlist",
            content: "<div>Three hinge suppliers made the cut; details inside.</div>",
            creator: 1_049_715_915,
            created: Self.time(12, 10)
        )
        addComment(
            on: shortlist,
            project: project,
            content: "<div>Let's go with the second one.</div>",
            creator: meID,
            created: Self.time(12, 12)
        )
        addComment(
            on: BasecampSandboxSeed.fluxCapacitorTodoID,
            project: project,
            content: "<div>Careful with the plutonium.</div>",
            creator: 1_049_715_916,
            created: Self.time(13, 9)
        )
    }

    private mutating func seedWebsite() {
        let project = BasecampSandboxSeed.websiteProjectID
        addProject(
            id: project,
            name: "Marketing Website Relaunch",
            description: "A faster, friendlier honchodesign.com.",
            todosetID: 1_069_479_400,
            boardID: 1_069_479_401,
            people: [BasecampSandboxSeed.ownerID, 1_049_715_914, 1_049_715_917],
            created: Self.time(14, 9)
        )
        addList(1_069_479_402, project: project, name: "Design", description: "", created: Self.time(14, 10))
        let design = [
            "Moodboard", "Type scale", "Colour palette", "Home page hero", "Navigation", "Footer", "Pricing table",
            "Case study template", "Blog layout", "Contact form", "Dark mode", "Icon set", "Illustrations",
            "Accessibility review",
        ]
        for (offset, title) in design.enumerated() {
            addTodo(
                title,
                list: 1_069_479_402,
                completed: offset < 5,
                due: Self.day(offset + 3),
                assignees: [1_049_715_914],
                created: Self.time(14, 11)
            )
        }
        addList(1_069_479_403, project: project, name: "Content", description: "", created: Self.time(15, 10))
        let content = [
            "About page copy", "Product pages", "Team bios", "Press kit", "Careers page", "Privacy policy",
            "Launch blog post",
        ]
        for (offset, title) in content.enumerated() {
            addTodo(
                title,
                list: 1_069_479_403,
                due: offset % 2 == 0 ? Self.day(offset + 10) : nil,
                assignees: [1_049_715_917],
                created: Self.time(15, 11)
            )
        }
        _ = addMessage(
            nil,
            project: project,
            subject: "Sitemap draft",
            content: "<div>First pass at the new sitemap.</div>",
            creator: 1_049_715_917,
            created: Self.time(15, 14)
        )
        _ = addMessage(
            nil,
            project: project,
            subject: "Copy tone guide",
            content: "<div>Friendly, short, no jargon.</div>",
            creator: BasecampSandboxSeed.ownerID,
            created: Self.time(16, 9)
        )
    }

    private mutating func seedHiring() {
        let project = BasecampSandboxSeed.hiringProjectID
        addProject(
            id: project,
            name: "Hiring: Backend Engineer",
            description: "Find our next backend engineer.",
            todosetID: 1_069_479_500,
            boardID: 1_069_479_501,
            people: [BasecampSandboxSeed.ownerID, 1_049_715_916],
            created: Self.time(18, 9)
        )
        addList(1_069_479_502, project: project, name: "Interview loop", description: "", created: Self.time(18, 10))
        let loop = [
            "Write the job description", "Post to job boards", "Screen applications", "Phone screens",
            "Technical interviews", "Make an offer",
        ]
        for (offset, title) in loop.enumerated() {
            addTodo(
                title,
                list: 1_069_479_502,
                completed: offset < 2,
                due: Self.day(offset * 5),
                assignees: [offset % 2 == 0 ? BasecampSandboxSeed.ownerID : 1_049_715_916],
                created: Self.time(18, 11)
            )
        }
        _ = addMessage(
            nil,
            project: project,
            subject: "Job description v2",
            content: "<div>Updated with the on-call details.</div>",
            creator: 1_049_715_916,
            created: Self.time(19, 9)
        )
    }

    private mutating func seedOfficeMove() {
        let project = BasecampSandboxSeed.officeMoveProjectID
        addProject(
            id: project,
            name: "Office Move",
            description: "Moving to the new studio.",
            todosetID: 1_069_479_600,
            boardID: 1_069_479_601,
            people: [BasecampSandboxSeed.ownerID, 1_049_715_918],
            created: Self.time(2, 9)
        )
        if let index = projects.firstIndex(where: { $0.id == project }) { projects[index].status = "archived" }
        addList(1_069_479_602, project: project, name: "Packing", description: "", created: Self.time(2, 10))
        for title in ["Label the boxes", "Book the movers", "Forward the mail", "Set up the network", "Hang the art"] {
            addTodo(
                title,
                list: 1_069_479_602,
                completed: true,
                assignees: [1_049_715_918],
                created: Self.time(2, 11)
            )
        }
    }
}

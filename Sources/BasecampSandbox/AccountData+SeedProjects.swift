/// The four seeded projects, with their to-do lists, to-dos, messages and comments.
extension AccountData {
    mutating func seedLetoLaptop() {
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

    mutating func seedWebsite() {
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

    mutating func seedHiring() {
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

    mutating func seedOfficeMove() {
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

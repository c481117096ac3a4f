/// The four seeded projects, with their to-do lists, to-dos, messages and comments. The order of
/// what is added fixes the ids the sandbox makes up, which the CLI's examples use.
extension AccountData {
    var staffIDs: [Int] { people.filter { !$0.isClient }.map(\.id) }

    mutating func seedLetoLaptop() {
        let seed = BasecampSandboxSeed.self
        nextID = 1_069_500_000
        addProject(
            seed.letoLaptopProjectID,
            "The Leto Laptop",
            "Laptop product launch.",
            people: staffIDs + [1_049_715_919],
            todoset: seed.letoLaptopTodosetID,
            board: seed.letoLaptopMessageBoardID,
            at: Self.time(8, 9)
        )
        let hardware = seed.hardwareTodolistID
        addList(
            hardware,
            "Hardware",
            "<div>Everything with a plug.</div>",
            in: seed.letoLaptopTodosetID,
            at: Self.time(8, 10)
        )
        addTodo(
            "Program the flux capacitor",
            in: hardware,
            id: seed.fluxCapacitorTodoID,
            due: Self.day(4),
            assignees: [1_049_715_914],
            description: "<div>Use the <strong>1.21 gigawatt</strong> setting.</div>",
            at: Self.time(9, 8)
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
        // The first of the 120 is the flux capacitor above.
        for index in 1..<(actions.count * parts.count) {
            addTodo(
                "\(actions[index / parts.count]) \(parts[index % parts.count])",
                in: hardware,
                due: index % 3 == 0 ? nil : Self.day(index % 40),
                assignees: index % 4 == 0 ? [] : [engineers[index % engineers.count]],
                at: Self.time(9 + index % 20, 8 + index % 10)
            )
        }

        let checklist = seed.launchChecklistTodolistID
        addList(
            checklist,
            "Launch checklist",
            "<div>What has to be true on launch day.</div>",
            in: seed.letoLaptopTodosetID,
            at: Self.time(10, 11)
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
                in: checklist,
                completed: step.1,
                due: Self.day(20 + offset),
                assignees: [offset % 2 == 0 ? 1_049_715_917 : 1_049_715_918],
                at: Self.time(11, 9 + offset)
            )
        }

        let board = seed.letoLaptopMessageBoardID
        let kickoff = addMessage(
            "Kickoff",
            "<div>Welcome aboard! The Leto ships in March; the Hardware list is where the work is.</div>",
            on: board,
            id: seed.kickoffMessageID,
            by: meID,
            at: Self.time(8, 14)
        )
        addComment("<div>Great news!</div>", on: kickoff, by: 1_049_715_914, at: Self.time(8, 15))
        addComment("<div>Hinge samples arrive next week.</div>", on: kickoff, by: 1_049_715_915, at: Self.time(8, 16))
        addComment("<div>Firmware branch is up.</div>", on: kickoff, by: 1_049_715_916, at: Self.time(8, 17))
        let shortlist = addMessage(
            "Supplier shortlist",
            "<div>Three hinge suppliers made the cut; details inside.</div>",
            on: board,
            by: 1_049_715_915,
            at: Self.time(12, 10)
        )
        addComment("<div>Let's go with the second one.</div>", on: shortlist, by: meID, at: Self.time(12, 12))
        addComment(
            "<div>Careful with the plutonium.</div>",
            on: seed.fluxCapacitorTodoID,
            by: 1_049_715_916,
            at: Self.time(13, 9)
        )
    }

    mutating func seedWebsite() {
        let owner = BasecampSandboxSeed.ownerID
        addProject(
            BasecampSandboxSeed.websiteProjectID,
            "Marketing Website Relaunch",
            "A faster, friendlier honchodesign.com.",
            people: [owner, 1_049_715_914, 1_049_715_917],
            todoset: 1_069_479_400,
            board: 1_069_479_401,
            at: Self.time(14, 9)
        )
        addList(1_069_479_402, "Design", in: 1_069_479_400, at: Self.time(14, 10))
        let design = [
            "Moodboard", "Type scale", "Colour palette", "Home page hero", "Navigation", "Footer", "Pricing table",
            "Case study template", "Blog layout", "Contact form", "Dark mode", "Icon set", "Illustrations",
            "Accessibility review",
        ]
        for (offset, title) in design.enumerated() {
            addTodo(
                title,
                in: 1_069_479_402,
                completed: offset < 5,
                due: Self.day(offset + 3),
                assignees: [1_049_715_914],
                at: Self.time(14, 11)
            )
        }
        addList(1_069_479_403, "Content", in: 1_069_479_400, at: Self.time(15, 10))
        let content = [
            "About page copy", "Product pages", "Team bios", "Press kit", "Careers page", "Privacy policy",
            "Launch blog post",
        ]
        for (offset, title) in content.enumerated() {
            addTodo(
                title,
                in: 1_069_479_403,
                due: offset % 2 == 0 ? Self.day(offset + 10) : nil,
                assignees: [1_049_715_917],
                at: Self.time(15, 11)
            )
        }
        addMessage(
            "Sitemap draft",
            "<div>First pass at the new sitemap.</div>",
            on: 1_069_479_401,
            by: 1_049_715_917,
            at: Self.time(15, 14)
        )
        addMessage(
            "Copy tone guide",
            "<div>Friendly, short, no jargon.</div>",
            on: 1_069_479_401,
            by: owner,
            at: Self.time(16, 9)
        )
    }

    mutating func seedHiring() {
        let owner = BasecampSandboxSeed.ownerID
        addProject(
            BasecampSandboxSeed.hiringProjectID,
            "Hiring: Backend Engineer",
            "Find our next backend engineer.",
            people: [owner, 1_049_715_916],
            todoset: 1_069_479_500,
            board: 1_069_479_501,
            at: Self.time(18, 9)
        )
        addList(1_069_479_502, "Interview loop", in: 1_069_479_500, at: Self.time(18, 10))
        let loop = [
            "Write the job description", "Post to job boards", "Screen applications", "Phone screens",
            "Technical interviews", "Make an offer",
        ]
        for (offset, title) in loop.enumerated() {
            addTodo(
                title,
                in: 1_069_479_502,
                completed: offset < 2,
                due: Self.day(offset * 5),
                assignees: [offset % 2 == 0 ? owner : 1_049_715_916],
                at: Self.time(18, 11)
            )
        }
        addMessage(
            "Job description v2",
            "<div>Updated with the on-call details.</div>",
            on: 1_069_479_501,
            by: 1_049_715_916,
            at: Self.time(19, 9)
        )
    }

    mutating func seedOfficeMove() {
        addProject(
            BasecampSandboxSeed.officeMoveProjectID,
            "Office Move",
            "Moving to the new studio.",
            people: [BasecampSandboxSeed.ownerID, 1_049_715_918],
            todoset: 1_069_479_600,
            board: 1_069_479_601,
            status: "archived",
            at: Self.time(2, 9)
        )
        addList(1_069_479_602, "Packing", in: 1_069_479_600, at: Self.time(2, 10))
        for title in ["Label the boxes", "Book the movers", "Forward the mail", "Set up the network", "Hang the art"] {
            addTodo(title, in: 1_069_479_602, completed: true, assignees: [1_049_715_918], at: Self.time(2, 11))
        }
    }
}

import HTTPCore

/// The four seeded projects, with their to-do lists, to-dos, messages and comments.
extension AccountData {
    private static let owner = BasecampSandboxSeed.ownerID
    private static let (annie, cheryl, jared) = (owner + 1, owner + 2, owner + 3)
    private static let (amy, marcus) = (owner + 4, owner + 5)

    mutating func seedLetoLaptop() {
        let seed = BasecampSandboxSeed.self
        let (todoset, hardware, flux) = (seed.letoLaptopTodosetID, seed.hardwareTodolistID, seed.fluxCapacitorTodoID)
        let everyone = people.map(\.id)
        let leto = ("The Leto Laptop", "Laptop product launch.")
        addProject(seed.letoLaptopProjectID, leto, everyone, todoset: todoset, board: 1_069_479_340, day: 8)
        let plug: [String: JSONValue] = ["name": "Hardware", "description": "<div>Everything with a plug.</div>"]
        add(.todolist, plug, in: todoset, id: hardware, at: Self.time(8, 10))
        let tip = "<div>Use the <strong>1.21 gigawatt</strong> setting.</div>"
        let title = "Program the flux capacitor"
        addTodo(title, in: hardware, id: flux, due: Self.day(4), assignee: Self.annie, about: tip, at: Self.time(9, 8))
        let actions = [
            "Source", "Prototype", "Stress-test", "Order samples of", "Review the spec for", "Certify", "Cost out",
        ]
        let parts = [
            "the hinge assembly", "the keyboard deck", "the trackpad", "the battery cells", "the USB-C ports",
            "the display panel", "the cooling fan", "the speaker grilles", "the webcam module", "the chassis screws",
            "the power adapter", "the fingerprint reader", "the Wi-Fi antenna", "the SSD bracket",
            "the palm-rest coating",
        ]
        for index in 1..<120 {
            let title = "\((actions + ["Sign off"])[index / parts.count]) \(parts[index % parts.count])"
            let assignee = index % 4 == 0 ? nil : [Self.cheryl, Self.jared, Self.annie][index % 3]
            let due = index % 3 == 0 ? nil : Self.day(index % 40)
            addTodo(title, in: hardware, due: due, assignee: assignee, at: Self.time(9 + index % 20, 8 + index % 10))
        }
        let checklist = [
            "Book the launch venue", "Brief the press", "Record the demo video", "Publish the product page",
            "Stock the first 500 units", "Train the support team", "Schedule the launch email", "Prepare the FAQ",
            "Run the launch rehearsal",
        ]
        let launch = (seed.launchChecklistTodolistID, "<div>What has to be true on launch day.</div>")
        addList(launch.0, "Launch checklist", launch.1, in: todoset, at: Self.time(10, 11), todos: checklist) {
            ($0 < 3, Self.day(20 + $0), $0 % 2 == 0 ? Self.amy : Self.marcus, Self.time(11, 9 + $0))
        }
        let kickoff = [
            ("<div>Great news!</div>", Self.annie, 8, 15),
            ("<div>Hinge samples arrive next week.</div>", Self.cheryl, 8, 16),
            ("<div>Firmware branch is up.</div>", Self.jared, 8, 17),
        ]
        let welcome = "<div>Welcome aboard! The Leto ships in March; the Hardware list is where the work is.</div>"
        let shortlist = "<div>Three hinge suppliers made the cut; details inside.</div>"
        let second = [("<div>Let's go with the second one.</div>", Self.owner, 12, 12)]
        addMessages(
            on: 1_069_479_340,
            firstID: seed.kickoffMessageID,
            [
                ("Kickoff", welcome, Self.owner, 8, 14, kickoff),
                ("Supplier shortlist", shortlist, Self.cheryl, 12, 10, second),
            ]
        )
        let careful: JSONValue = "<div>Careful with the plutonium.</div>"
        add(.comment, ["content": careful], in: flux, by: Self.jared, at: Self.time(13, 9))
    }

    mutating func seedOtherProjects() {
        let seed = BasecampSandboxSeed.self
        let website = ("Marketing Website Relaunch", "A faster, friendlier honchodesign.com.")
        addProject(seed.websiteProjectID, website, [Self.owner, Self.annie, Self.amy], todoset: 1_069_479_400, day: 14)
        let design = [
            "Moodboard", "Type scale", "Colour palette", "Home page hero", "Navigation", "Footer", "Pricing table",
            "Case study template", "Blog layout", "Contact form", "Dark mode", "Icon set", "Illustrations",
            "Accessibility review",
        ]
        addList(1_069_479_402, "Design", in: 1_069_479_400, at: Self.time(14, 10), todos: design) {
            ($0 < 5, Self.day($0 + 3), Self.annie, Self.time(14, 11))
        }
        let content = [
            "About page copy", "Product pages", "Team bios", "Press kit", "Careers page", "Privacy policy",
            "Launch blog post",
        ]
        addList(1_069_479_403, "Content", in: 1_069_479_400, at: Self.time(15, 10), todos: content) {
            (false, $0 % 2 == 0 ? Self.day($0 + 10) : nil, Self.amy, Self.time(15, 11))
        }
        let sitemap = (
            "Sitemap draft", "<div>First pass at the new sitemap.</div>", Self.amy, 15, 14, [(String, Int, Int, Int)]()
        )
        addMessages(
            on: 1_069_479_401,
            [sitemap, ("Copy tone guide", "<div>Friendly, short, no jargon.</div>", Self.owner, 16, 9, [])]
        )

        let hiring = ("Hiring: Backend Engineer", "Find our next backend engineer.")
        addProject(seed.hiringProjectID, hiring, [Self.owner, Self.jared], todoset: 1_069_479_500, day: 18)
        let loop = [
            "Write the job description", "Post to job boards", "Screen applications", "Phone screens",
            "Technical interviews", "Make an offer",
        ]
        addList(1_069_479_502, "Interview loop", in: 1_069_479_500, at: Self.time(18, 10), todos: loop) {
            ($0 < 2, Self.day($0 * 5), $0 % 2 == 0 ? Self.owner : Self.jared, Self.time(18, 11))
        }
        addMessages(
            on: 1_069_479_501,
            [("Job description v2", "<div>Updated with the on-call details.</div>", Self.jared, 19, 9, [])]
        )

        let move = ("Office Move", "Moving to the new studio.")
        addProject(seed.officeMoveProjectID, move, [Self.owner, Self.marcus], todoset: 1_069_479_600, day: 2)
        try? change(seed.officeMoveProjectID, at: Self.time(2, 9)) { $0.status = "archived" }
        let packing = ["Label the boxes", "Book the movers", "Forward the mail", "Set up the network", "Hang the art"]
        addList(1_069_479_602, "Packing", in: 1_069_479_600, at: Self.time(2, 10), todos: packing) { _ in
            (true, nil, Self.marcus, Self.time(2, 11))
        }
    }
}

/// The kinds of record the sandbox keeps in one shape (``StoredRecording``): each row says which
/// Spec schema renders it, what it lives in, and which body member is its title.
///
/// Adding a kind is a case here and its operations in ``RecordingRoute/table``.
enum RecordingKind: String, Codable, Sendable, CaseIterable {
    case cardColumn
    case card
    case cardStep
    case scheduleEntry
    case campfireLine
    case question
    case answer
    case messageType
    case boost

    /// Everything the sandbox needs to know of a kind, one row per kind.
    private struct Facts {
        /// The Spec schema whose example supplies every member the SDK expects.
        var schema: String
        /// Basecamp's `type`.
        var type: String
        /// How webhook event kinds start (`kanban_card_created`).
        var eventPrefix: String
        /// How errors name it (`Card 12 not found.`).
        var noun: String
        /// The body member that titles the record in lists, search and events.
        var titleField: String
        var container: Container
        /// The API path below the account, from the record's id, container id and project id.
        var path: (_ id: Int, _ parentID: Int, _ projectID: Int) -> String
    }

    private var facts: Facts {
        switch self {
        case .cardColumn:
            Facts(
                schema: "CardColumn",
                type: "Kanban::Column",
                eventPrefix: "kanban_column",
                noun: "Card column",
                titleField: "title",
                container: .tool(.cardTable),
                path: { id, _, _ in "/card_tables/columns/\(id)" }
            )
        case .card:
            Facts(
                schema: "Card",
                type: "Kanban::Card",
                eventPrefix: "kanban_card",
                noun: "Card",
                titleField: "title",
                container: .kind(.cardColumn),
                path: { id, _, _ in "/card_tables/cards/\(id)" }
            )
        case .cardStep:
            Facts(
                schema: "CardStep",
                type: "Kanban::Step",
                eventPrefix: "kanban_step",
                noun: "Card step",
                titleField: "title",
                container: .kind(.card),
                path: { id, _, _ in "/card_tables/steps/\(id)" }
            )
        case .scheduleEntry:
            Facts(
                schema: "ScheduleEntry",
                type: "Schedule::Entry",
                eventPrefix: "schedule_entry",
                noun: "Schedule entry",
                titleField: "summary",
                container: .tool(.schedule),
                path: { id, _, _ in "/schedule_entries/\(id)" }
            )
        case .campfireLine:
            Facts(
                schema: "CampfireLine",
                type: "Chat::Lines::Text",
                eventPrefix: "chat_line",
                noun: "Campfire line",
                titleField: "content",
                container: .tool(.campfire),
                path: { id, campfire, _ in "/chats/\(campfire)/lines/\(id)" }
            )
        case .question:
            Facts(
                schema: "Question",
                type: "Question",
                eventPrefix: "question",
                noun: "Question",
                titleField: "title",
                container: .tool(.questionnaire),
                path: { id, _, _ in "/questions/\(id)" }
            )
        case .answer:
            Facts(
                schema: "QuestionAnswer",
                type: "Question::Answer",
                eventPrefix: "question_answer",
                noun: "Answer",
                titleField: "content",
                container: .kind(.question),
                path: { id, _, _ in "/question_answers/\(id)" }
            )
        case .messageType:
            Facts(
                schema: "MessageType",
                type: "Message::Category",
                eventPrefix: "message_category",
                noun: "Message type",
                titleField: "name",
                container: .project,
                path: { id, _, project in "/buckets/\(project)/categories/\(id)" }
            )
        case .boost:
            Facts(
                schema: "Boost",
                type: "Boost",
                eventPrefix: "boost",
                noun: "Boost",
                titleField: "content",
                container: .anyRecording,
                path: { id, _, _ in "/boosts/\(id)" }
            )
        }
    }

    /// The Spec schema whose example supplies every member the SDK expects.
    var schema: String { facts.schema }
    /// Basecamp's `type` for the recording (also what `type` filters of search and
    /// `/projects/recordings.json` name).
    var type: String { facts.type }
    /// How webhook event kinds start for this recording (`kanban_card_created`).
    var eventPrefix: String { facts.eventPrefix }
    /// How errors name it (`Card 12 not found.`).
    var noun: String { facts.noun }
    /// The body member that titles the record in lists, search and events.
    var titleField: String { facts.titleField }
    /// What holds records of this kind.
    var container: Container { facts.container }

    /// Whether Basecamp treats it as a recording: comments, status changes, events, search.
    var isRecording: Bool { self != .messageType && self != .boost }

    /// The API path of a record, relative to the account.
    func path(id: Int, parentID: Int, projectID: Int) -> String {
        facts.path(id, parentID, projectID)
    }

    /// What a record of a kind lives in.
    enum Container: Equatable {
        /// One of the project's dock tools.
        case tool(ProjectTool)
        /// A record of another kind (a card's column).
        case kind(RecordingKind)
        /// The project itself.
        case project
        /// Any recording (what a boost is on).
        case anyRecording
    }
}

/// The tools on every project's dock that hold kept records. Like the root vault, each has an id
/// derived from its project's, so every project (seeded, created, or from an older state file)
/// has them without a stored record.
enum ProjectTool: Int, Codable, Sendable, CaseIterable {
    case cardTable = 3
    case schedule = 4
    case campfire = 5
    case questionnaire = 6

    private static let stride = 10_000_000_000

    func id(ofProject projectID: Int) -> Int { projectID + rawValue * Self.stride }

    /// The project a tool id belongs to, when it is this tool's.
    func projectID(fromToolID id: Int) -> Int? {
        let projectID = id - rawValue * Self.stride
        return (1..<Self.stride).contains(projectID) ? projectID : nil
    }

    var schema: String {
        switch self {
        case .cardTable: "CardTable"
        case .schedule: "Schedule"
        case .campfire: "Campfire"
        case .questionnaire: "Questionnaire"
        }
    }

    var type: String {
        switch self {
        case .cardTable: "Kanban::Board"
        case .schedule: "Schedule"
        case .campfire: "Chat::Transcript"
        case .questionnaire: "Questionnaire"
        }
    }

    /// The dock's `name` and `title`.
    var dockName: String {
        switch self {
        case .cardTable: "kanban_board"
        case .schedule: "schedule"
        case .campfire: "chat"
        case .questionnaire: "questionnaire"
        }
    }

    var title: String {
        switch self {
        case .cardTable: "Card Table"
        case .schedule: "Schedule"
        case .campfire: "Campfire"
        case .questionnaire: "Automatic Check-ins"
        }
    }

    func path(_ id: Int) -> String {
        switch self {
        case .cardTable: "/card_tables/\(id)"
        case .schedule: "/schedules/\(id)"
        case .campfire: "/chats/\(id)"
        case .questionnaire: "/questionnaires/\(id)"
        }
    }
}

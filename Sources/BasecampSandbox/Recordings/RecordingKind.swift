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

    /// The Spec schema whose example supplies every member the SDK expects.
    var schema: String {
        switch self {
        case .cardColumn: "CardColumn"
        case .card: "Card"
        case .cardStep: "CardStep"
        case .scheduleEntry: "ScheduleEntry"
        case .campfireLine: "CampfireLine"
        case .question: "Question"
        case .answer: "QuestionAnswer"
        case .messageType: "MessageType"
        case .boost: "Boost"
        }
    }

    /// Basecamp's `type` for the recording (also what `type` filters of search and
    /// `/projects/recordings.json` name).
    var type: String {
        switch self {
        case .cardColumn: "Kanban::Column"
        case .card: "Kanban::Card"
        case .cardStep: "Kanban::Step"
        case .scheduleEntry: "Schedule::Entry"
        case .campfireLine: "Chat::Lines::Text"
        case .question: "Question"
        case .answer: "Question::Answer"
        case .messageType: "Message::Category"
        case .boost: "Boost"
        }
    }

    /// How webhook event kinds start for this recording (`kanban_card_created`).
    var eventPrefix: String {
        switch self {
        case .cardColumn: "kanban_column"
        case .card: "kanban_card"
        case .cardStep: "kanban_step"
        case .scheduleEntry: "schedule_entry"
        case .campfireLine: "chat_line"
        case .question: "question"
        case .answer: "question_answer"
        case .messageType: "message_category"
        case .boost: "boost"
        }
    }

    /// How errors name it (`Card 12 not found.`).
    var noun: String {
        switch self {
        case .cardColumn: "Card column"
        case .card: "Card"
        case .cardStep: "Card step"
        case .scheduleEntry: "Schedule entry"
        case .campfireLine: "Campfire line"
        case .question: "Question"
        case .answer: "Answer"
        case .messageType: "Message type"
        case .boost: "Boost"
        }
    }

    /// The body member that titles the record in lists, search and events.
    var titleField: String {
        switch self {
        case .cardColumn, .card, .cardStep, .question: "title"
        case .scheduleEntry: "summary"
        case .campfireLine, .answer, .boost: "content"
        case .messageType: "name"
        }
    }

    /// What holds records of this kind.
    var container: Container {
        switch self {
        case .cardColumn: .tool(.cardTable)
        case .card: .kind(.cardColumn)
        case .cardStep: .kind(.card)
        case .scheduleEntry: .tool(.schedule)
        case .campfireLine: .tool(.campfire)
        case .question: .tool(.questionnaire)
        case .answer: .kind(.question)
        case .messageType: .project
        case .boost: .anyRecording
        }
    }

    /// Whether Basecamp treats it as a recording: comments, status changes, events, search.
    var isRecording: Bool { self != .messageType && self != .boost }

    /// The API path of a record, relative to the account.
    func path(id: Int, parentID: Int, projectID: Int) -> String {
        switch self {
        case .cardColumn: "/card_tables/columns/\(id)"
        case .card: "/card_tables/cards/\(id)"
        case .cardStep: "/card_tables/steps/\(id)"
        case .scheduleEntry: "/schedule_entries/\(id)"
        case .campfireLine: "/chats/\(parentID)/lines/\(id)"
        case .question: "/questions/\(id)"
        case .answer: "/question_answers/\(id)"
        case .messageType: "/buckets/\(projectID)/categories/\(id)"
        case .boost: "/boosts/\(id)"
        }
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

import Basecamp
import HTTPCore

/// The kinds of ``Record``, with what the Spec cannot say about each: the operation that reads
/// one, how errors name it, what titles it, what holds it, how its events start and where it sits
/// on a project's dock. Its schema, path and Basecamp `type` come from the Spec, through that
/// operation and the schema's example.
///
/// The order is the dock's: message board, to-dos, files, then the tools.
enum RecordKind: String, Codable, Sendable, CaseIterable {
    case project, messageBoard, message, comment, todoset, todolist, todo, vault, document, upload
    case cardTable, cardColumn, card, cardStep, schedule, scheduleEntry, campfire, campfireLine
    case questionnaire, question, answer, messageType, boost, webhook

    /// What holds a record of a kind; the path parameter that names it is the operation's last.
    enum Container: Equatable {
        case account, project
        /// A record of another kind (a card's column).
        case kind(RecordKind)
        /// Any recording (what a comment or boost is on).
        case anyRecording
    }

    /// The kind's row: the Spec operation that reads one (its answer's schema renders the kind,
    /// and its path is each record's `url`), how errors name it (`To-do 12 not found.`), the
    /// member that titles it in lists, search and events, and what holds it.
    var facts: (reader: BasecampOperation, noun: String, title: String, container: Container) {
        typealias Spec = OperationCatalog
        switch self {
        case .project: return (Spec.getProject, "Project", "name", .account)
        case .messageBoard: return (Spec.getMessageBoard, "Message board", "title", .project)
        case .message: return (Spec.getMessage, "Message", "subject", .kind(.messageBoard))
        case .comment: return (Spec.getComment, "Comment", "content", .anyRecording)
        case .todoset: return (Spec.getTodoset, "To-do set", "title", .project)
        case .todolist: return (Spec.getTodolistOrGroup, "To-do list", "name", .kind(.todoset))
        case .todo: return (Spec.getTodo, "To-do", "content", .kind(.todolist))
        case .vault: return (Spec.getVault, "Vault", "title", .kind(.vault))
        case .document: return (Spec.getDocument, "Document", "title", .kind(.vault))
        case .upload: return (Spec.getUpload, "Upload", "filename", .kind(.vault))
        case .cardTable: return (Spec.getCardTable, "Card Table", "title", .project)
        case .cardColumn: return (Spec.getCardColumn, "Card column", "title", .kind(.cardTable))
        case .card: return (Spec.getCard, "Card", "title", .kind(.cardColumn))
        case .cardStep: return (Spec.getCardStep, "Card step", "title", .kind(.card))
        case .schedule: return (Spec.getSchedule, "Schedule", "title", .project)
        case .scheduleEntry:
            return (Spec.getScheduleEntry, "Schedule entry", "summary", .kind(.schedule))
        case .campfire: return (Spec.getCampfire, "Campfire", "title", .project)
        case .campfireLine: return (Spec.getCampfireLine, "Campfire line", "content", .kind(.campfire))
        case .questionnaire: return (Spec.getQuestionnaire, "Automatic Check-ins", "title", .project)
        case .question: return (Spec.getQuestion, "Question", "title", .kind(.questionnaire))
        case .answer: return (Spec.getAnswer, "Answer", "content", .kind(.question))
        case .messageType: return (Spec.getMessageType, "Message type", "name", .project)
        case .boost: return (Spec.getBoost, "Boost", "content", .anyRecording)
        case .webhook: return (Spec.getWebhook, "Webhook", "payload_url", .project)
        }
    }

    /// How its events' kinds start (`todo` in `todo_created`); `nil` for a record people do not follow:
    /// it has no events, comments, bookmarks or status changes, and search does not find it.
    var events: String? {
        switch self {
        case .message, .comment, .todolist, .todo, .document, .upload, .question: rawValue
        case .cardColumn: "kanban_column"
        case .card: "kanban_card"
        case .cardStep: "kanban_step"
        case .scheduleEntry: "schedule_entry"
        case .campfireLine: "chat_line"
        case .answer: "question_answer"
        default: nil
        }
    }

    /// Its place on every project's dock: the dock's `name`, the tool's title, and what is added
    /// to the project's id to make the tool's (the ids sandboxes have always given them).
    var dock: (name: String, title: String, idOffset: Int)? {
        switch self {
        case .messageBoard: ("message_board", "Message Board", 80_000_000_000)
        case .todoset: ("todoset", "To-dos", 70_000_000_000)
        case .vault: ("vault", "Docs & Files", 2_000_000_000)
        case .cardTable: ("kanban_board", "Card Table", 30_000_000_000)
        case .schedule: ("schedule", "Schedule", 40_000_000_000)
        case .campfire: ("chat", "Campfire", 50_000_000_000)
        case .questionnaire: ("questionnaire", "Automatic Check-ins", 60_000_000_000)
        default: nil
        }
    }

    /// Where it stands on the dock, from 1; 0 for a kind that is not on it.
    var dockPosition: Int { Self.docked.firstIndex(of: self).map { $0 + 1 } ?? 0 }

    private static let docked = allCases.filter { $0.dock != nil }

    var noun: String { facts.noun }
    var titleMember: String { facts.title }
    var container: Container { facts.container }
    /// Whether it is a recording people follow (see ``events``).
    var isRecording: Bool { events != nil }

    /// The Spec schema its records answer with.
    var schema: String { facts.reader.responseSchema ?? "" }

    /// Basecamp's `type` (`Kanban::Card`), as the schema's example gives it.
    var type: String { Templates.example(of: self)["type"]?.stringValue ?? "" }

    /// A record's API path below the account: the reading operation's template with the record's
    /// id last, its project for `bucketId`, and what holds it for anything else.
    func path(of record: Record) -> String {
        let reader = facts.reader
        let last = reader.pathParameters.count - 1
        // Below the account: its placeholder is left empty, and the template's first `/` dropped.
        let path = reader.path { place, parameter in
            guard place > 0 else { return "" }
            return String(place == last ? record.id : parameter.name == "bucketId" ? record.projectID : record.parentID)
        }
        return String(path.dropFirst())
    }
}

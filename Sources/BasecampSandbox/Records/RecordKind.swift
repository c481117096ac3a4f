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

    /// What the Spec does not say about a kind.
    struct Facts {
        /// The Spec operation that reads one record: its answer's schema renders the kind, and its
        /// path is each record's `url`.
        var reader: BasecampOperation
        /// How errors name it (`To-do 12 not found.`).
        var noun: String
        /// The member that titles it in lists, search and events.
        var titleMember: String
        var container: Container

        init(_ reader: BasecampOperation, _ noun: String, title: String = "title", in container: Container) {
            (self.reader, self.noun, self.titleMember, self.container) = (reader, noun, title, container)
        }
    }

    /// What holds a record of a kind; the path parameter that names it is the operation's last.
    enum Container: Equatable {
        /// The account: the record has no parent.
        case account
        /// The project itself.
        case project
        /// A record of another kind (a card's column).
        case kind(RecordKind)
        /// Any recording (what a comment or boost is on).
        case anyRecording
    }

    /// The kind's facts, built once.
    var facts: Facts { Self.table[self] ?? row }

    private static let table = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.row) })

    private var row: Facts {
        typealias Spec = OperationCatalog
        switch self {
        case .project: return Facts(Spec.getProject, "Project", title: "name", in: .account)
        case .messageBoard: return Facts(Spec.getMessageBoard, "Message board", in: .project)
        case .message: return Facts(Spec.getMessage, "Message", title: "subject", in: .kind(.messageBoard))
        case .comment: return Facts(Spec.getComment, "Comment", title: "content", in: .anyRecording)
        case .todoset: return Facts(Spec.getTodoset, "To-do set", in: .project)
        case .todolist: return Facts(Spec.getTodolistOrGroup, "To-do list", title: "name", in: .kind(.todoset))
        case .todo: return Facts(Spec.getTodo, "To-do", title: "content", in: .kind(.todolist))
        case .vault: return Facts(Spec.getVault, "Vault", in: .kind(.vault))
        case .document: return Facts(Spec.getDocument, "Document", in: .kind(.vault))
        case .upload: return Facts(Spec.getUpload, "Upload", title: "filename", in: .kind(.vault))
        case .cardTable: return Facts(Spec.getCardTable, "Card Table", in: .project)
        case .cardColumn: return Facts(Spec.getCardColumn, "Card column", in: .kind(.cardTable))
        case .card: return Facts(Spec.getCard, "Card", in: .kind(.cardColumn))
        case .cardStep: return Facts(Spec.getCardStep, "Card step", in: .kind(.card))
        case .schedule: return Facts(Spec.getSchedule, "Schedule", in: .project)
        case .scheduleEntry:
            return Facts(Spec.getScheduleEntry, "Schedule entry", title: "summary", in: .kind(.schedule))
        case .campfire: return Facts(Spec.getCampfire, "Campfire", in: .project)
        case .campfireLine: return Facts(Spec.getCampfireLine, "Campfire line", title: "content", in: .kind(.campfire))
        case .questionnaire: return Facts(Spec.getQuestionnaire, "Automatic Check-ins", in: .project)
        case .question: return Facts(Spec.getQuestion, "Question", in: .kind(.questionnaire))
        case .answer: return Facts(Spec.getAnswer, "Answer", title: "content", in: .kind(.question))
        case .messageType: return Facts(Spec.getMessageType, "Message type", title: "name", in: .project)
        case .boost: return Facts(Spec.getBoost, "Boost", title: "content", in: .anyRecording)
        case .webhook: return Facts(Spec.getWebhook, "Webhook", title: "payload_url", in: .project)
        }
    }

    /// How its events' kinds start (`todo` in `todo_created`); `nil` for a record that is not a
    /// recording people follow: it has no events, comments, bookmarks or status changes, and
    /// search does not find it.
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
    var titleMember: String { facts.titleMember }
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
        let parameters = facts.reader.pathParameters
        var path = String(facts.reader.pathTemplate.dropFirst("/{accountId}".count))
        for (place, parameter) in parameters.enumerated().dropFirst() {
            let value =
                place == parameters.count - 1
                ? record.id : parameter.name == "bucketId" ? record.projectID : record.parentID
            path = path.replacingOccurrences(of: "{\(parameter.name)}", with: String(value))
        }
        return path
    }
}

import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `basecamp todos edit ID --due-on …`: changes the named fields of a to-do and keeps the rest.
struct TodosEditCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change some fields of a to-do; the others stay as they are.",
        discussion: EditText.discussion("todos edit 1069479395 --due-on 2026-03-01 --content 'Program it twice'")
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The to-do's id.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("The to-do's text.", valueName: "text")) var content: String?
    @Option(name: .customLong("description"), help: ArgumentHelp("Notes (rich text).", valueName: "text"))
    var descriptionText: String?
    @Option(help: ArgumentHelp("Due date (YYYY-MM-DD, today, tomorrow or yesterday).", valueName: "date"))
    var dueOn: CalendarDay?
    @Option(help: ArgumentHelp("Start date (YYYY-MM-DD, today, tomorrow or yesterday).", valueName: "date"))
    var startsOn: CalendarDay?
    @Flag(help: "Remove the due date.") var clearDueOn = false
    @Flag(help: "Remove the start date.") var clearStartsOn = false

    func validate() throws {
        try EditText.requireChange(
            content,
            descriptionText,
            dueOn,
            startsOn,
            clearDueOn ? true : nil,
            clearStartsOn ? true : nil
        )
    }

    func run(in context: CommandContext) async throws {
        let runner = OperationRunner(context: context, root: root)
        let dueOn = try dueOn.map { try EditText.date(runner.dayText($0)) }
        let startsOn = try startsOn.map { try EditText.date(runner.dayText($0)) }
        try await runner.withAccount { account in
            let todo = try await account.todos.modify(todoID: id) { request in
                if let content { request.content = content }
                if let descriptionText { request.description = descriptionText }
                if let dueOn { request.dueOn = dueOn }
                if let startsOn { request.startsOn = startsOn }
                if clearDueOn { request.dueOn = nil }
                if clearStartsOn { request.startsOn = nil }
            }
            try EditText.print(todo, "to-do", todo.id, todo.content, in: context)
        }
    }
}

/// `basecamp todolists edit ID --name …`.
struct TodolistsEditCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a to-do list's name or description; the other stays as it is.",
        discussion: EditText.discussion("todolists edit 1069479338 --name Gear")
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The to-do list's id.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("The list's name.", valueName: "text")) var name: String?
    @Option(
        name: .customLong("description"),
        help: ArgumentHelp("The list's description (rich text).", valueName: "text")
    )
    var descriptionText: String?

    func validate() throws { try EditText.requireChange(name, descriptionText) }

    func run(in context: CommandContext) async throws {
        try await OperationRunner(context: context, root: root).withAccount { account in
            let list = try await account.todolists.modify(id: id) {
                request in
                if let name { request.name = name }
                if let descriptionText { request.description = descriptionText }
            }
            try EditText.print(list, "to-do list", list.id, list.name, in: context)
        }
    }
}

/// `basecamp documents edit ID --title …`.
struct DocumentsEditCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a document's title or content; the other stays as it is.",
        discussion: EditText.discussion("documents edit 1069481024 --title 'Release notes 1.1'")
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The document's id.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("The document's title.", valueName: "text")) var title: String?
    @Option(help: ArgumentHelp("The document's body (rich text).", valueName: "text")) var content: String?

    func validate() throws { try EditText.requireChange(title, content) }

    func run(in context: CommandContext) async throws {
        try await OperationRunner(context: context, root: root).withAccount { account in
            let document = try await account.documents.modify(documentID: id) { request in
                if let title { request.title = title }
                if let content { request.content = content }
            }
            try EditText.print(document, "document", document.id, document.title, in: context)
        }
    }
}

/// `basecamp schedules edit-entry ID --summary …`.
struct SchedulesEditEntryCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit-entry",
        abstract: "Change some fields of a schedule entry; the others stay as they are.",
        discussion: EditText.discussion("schedules edit-entry 1069490030 --summary 'Launch!'")
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The schedule entry's id.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("The entry's title.", valueName: "text")) var summary: String?
    @Option(name: .customLong("description"), help: ArgumentHelp("Notes (rich text).", valueName: "text"))
    var descriptionText: String?
    @Option(
        help: ArgumentHelp("When it starts, as the API writes it (ISO 8601, or YYYY-MM-DD all day).", valueName: "time")
    )
    var startsAt: String?
    @Option(help: ArgumentHelp("When it ends, in the same form.", valueName: "time")) var endsAt: String?

    func validate() throws { try EditText.requireChange(summary, descriptionText, startsAt, endsAt) }

    func run(in context: CommandContext) async throws {
        try await OperationRunner(context: context, root: root).withAccount { account in
            let entry = try await account.schedules.modifyEntry(entryID: id) { request in
                if let summary { request.summary = summary }
                if let descriptionText { request.description = descriptionText }
                if let startsAt { request.startsAt = startsAt }
                if let endsAt { request.endsAt = endsAt }
            }
            try EditText.print(entry, "schedule entry", entry.id, entry.summary, in: context)
        }
    }
}

/// `basecamp messages edit ID --subject …`: Basecamp updates a message field by field, so only
/// the named fields are sent.
struct MessagesEditCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a message's subject or content; the other stays as it is.",
        discussion: EditText.fieldByFieldDiscussion("messages edit 1069479988 --subject 'Kickoff (moved)'")
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The message's id.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("The message's subject.", valueName: "text")) var subject: String?
    @Option(help: ArgumentHelp("The message's body (rich text).", valueName: "text")) var content: String?

    func validate() throws { try EditText.requireChange(subject, content) }

    func run(in context: CommandContext) async throws {
        try await OperationRunner(context: context, root: root).withAccount { account in
            let message = try await account.messages.update(
                messageID: id,
                UpdateMessageRequest(content: content, subject: subject)
            )
            try EditText.print(message, "message", message.id, message.subject, in: context)
        }
    }
}

/// `basecamp cards edit ID --title …`: Basecamp updates a card field by field, so only the
/// named fields are sent.
struct CardsEditCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change some fields of a card; the others stay as they are.",
        discussion: EditText.fieldByFieldDiscussion("cards edit 1069490010 --title 'Ship it' --due-on tomorrow")
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The card's id.", valueName: "id")) var id: Int64
    @Option(help: ArgumentHelp("The card's title.", valueName: "text")) var title: String?
    @Option(help: ArgumentHelp("The card's body (rich text).", valueName: "text")) var content: String?
    @Option(help: ArgumentHelp("Due date (YYYY-MM-DD, today, tomorrow or yesterday).", valueName: "date"))
    var dueOn: CalendarDay?

    func validate() throws { try EditText.requireChange(title, content, dueOn) }

    func run(in context: CommandContext) async throws {
        let runner = OperationRunner(context: context, root: root)
        let dueOn = try dueOn.map { try EditText.date(runner.dayText($0)) }
        try await runner.withAccount { account in
            let card = try await account.cards.update(
                cardID: id,
                UpdateCardRequest(content: content, dueOn: dueOn, title: title)
            )
            try EditText.print(card, "card", card.id, card.title, in: context)
        }
    }
}

/// What the edit commands share: their help, the at-least-one-field rule and the result line.
enum EditText {
    static func discussion(_ example: String) -> String {
        """
        Only the fields you name change: the command reads the record, changes those fields and sends the rest back as it was, so nothing is cleared. If someone changes the record between that read and the write, nothing is sent and the command fails (exit 7); run it again to apply your change to the new version.

        Example:
          basecamp --sandbox \(example)
        """
    }

    static func fieldByFieldDiscussion(_ example: String) -> String {
        """
        Only the fields you name are sent; Basecamp keeps the others as they are.

        Example:
          basecamp --sandbox \(example)
        """
    }

    static func requireChange(_ values: Any?...) throws {
        guard values.contains(where: { $0 != nil }) else {
            throw ValidationError("Name at least one field to change.")
        }
    }

    static func date(_ text: String) throws -> CalendarDate {
        guard let date = CalendarDate(text) else { throw ValidationError("\(text) is not a date.") }
        return date
    }

    static func print(
        _ record: some Encodable,
        _ noun: String,
        _ id: Int64,
        _ title: String?,
        in context: CommandContext
    )
        throws
    {
        try RecordOutput.print(record, in: context, line: "Updated \(noun) \(id)\(title.map { ": \($0)" } ?? "").")
    }
}

import ArgumentParser

/// Hand-written commands that join a generated service group (`basecamp uploads replace`, `basecamp todos edit`…);
/// the generated groups ask for theirs by service name.
enum HandWrittenSubcommands {
    static func of(_ service: String) -> [any ParsableCommand.Type] {
        switch service {
        case "uploads": return [UploadsReplaceCommand.self]
        case "todos": return [TodosEditCommand.self]
        case "todolists": return [TodolistsEditCommand.self]
        case "documents": return [DocumentsEditCommand.self]
        case "schedules": return [SchedulesEditEntryCommand.self]
        case "messages": return [MessagesEditCommand.self]
        case "cards": return [CardsEditCommand.self]
        default: return []
        }
    }
}

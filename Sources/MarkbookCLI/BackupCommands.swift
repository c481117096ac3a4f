import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import Markbook

/// `markbook backup …`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Schedule a backup, then fetch its URL or download it the next day.",
        subcommands: [BackupScheduleCommand.self, BackupURLCommand.self, BackupDownloadCommand.self]
    )
}

/// `markbook backup schedule MATCHING`.
struct BackupScheduleCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Schedule a backup of the markbooks whose names match; it is built overnight."
    )

    @ParentCommand var tool: MarkbookTool

    @Argument(help: ArgumentHelp("Part of the markbook names, at least 2 characters.", valueName: "matching"))
    var matching: String

    func validate() throws {
        let length = matching.trimmingCharacters(in: .whitespaces).count
        guard length >= 2 else {
            throw ValidationError("<matching> needs at least 2 characters, e.g. 10MAT; got \(length).")
        }
    }

    private struct Output: Encodable {
        var matching: String
        var scheduled: Bool
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        try await client.scheduleBackup(matching: matching)
        try context.printRecord(Output(matching: matching, scheduled: true)) {
            context.print("Scheduled a backup of the markbooks matching \"\(matching)\".")
            context.note("It is built at about 1 AM: run 'markbook backup download' tomorrow.")
        }
    }
}

/// `markbook backup url`.
struct BackupURLCommand: MarkbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Show the scheduled backup's URL, or why there is none yet.",
        discussion: """
            The first time the URL is shown, Markbook starts the hour after which it deletes the \
            zip: to fetch the backup, run 'markbook backup download', which asks for the URL and \
            downloads at once.
            """
    )

    @ParentCommand var tool: MarkbookTool

    private struct Output: Encodable {
        var status: String
        var rawStatus: String
        var url: Nullable<String>
    }

    func execute(in context: CommandContext, client: MarkbookClient) async throws {
        let backup = try await client.getBackupURL()
        let status: String
        let text: String
        switch backup.status {
        case .okay:
            status = "okay"
            text = backup.url?.absoluteString ?? ""
        case .errorPending:
            status = "pending"
            text = "The backup is not built yet (it is built at about 1 AM): try again tomorrow."
        case .errorNoBackup:
            status = "noBackup"
            text = "No backup is scheduled: run 'markbook backup schedule MATCHING'."
        case .error(let reason):
            throw APIError.apiError(
                APIError.Details(
                    message: "Markbook refused getbackupurl: \(reason).",
                    rawStatus: backup.status.rawStatus
                )
            )
        }
        try context.printRecord(
            Output(status: status, rawStatus: backup.status.rawStatus, url: Nullable(backup.url?.absoluteString))
        ) {
            context.print(text)
            if backup.isReady { context.note("The zip is deleted about an hour after this URL is first returned.") }
        }
    }
}

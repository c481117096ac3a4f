import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `basecamp upload FILE`: uploads a file into a project's vault in one command.
struct UploadCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a file into a project's Docs & Files (or a folder in it).",
        discussion: """
            Creates the attachment from FILE (streamed from disk, with a progress line on a terminal) and the upload record that shows it in the vault. The content type comes from the file's extension unless --content-type says otherwise. Without --vault the project's Docs & Files is used.
            A new version of an existing upload: basecamp uploads replace UPLOAD_ID FILE.

            Examples:
              basecamp --sandbox upload report.pdf --project 2085958504
              basecamp --sandbox upload report.pdf --project 2085958504 --vault 4085958504 --description 'Q3 numbers'
            """
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The file to upload.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The project's id.", valueName: "id"))
    var project: Int64

    @Option(help: ArgumentHelp("The vault (folder) id; default: the project's Docs & Files.", valueName: "id"))
    var vault: Int64?

    @Option(
        name: .customLong("description"),
        help: ArgumentHelp("The upload's description (rich text).", valueName: "text")
    )
    var descriptionText: String?

    @OptionGroup var media: MediaTypeOption

    func run(in context: CommandContext) async throws {
        try await UploadFileArgument.send(file, in: context, root: root) { account, fileURL, progress in
            let vaultID = try await resolvedVault(on: account)
            return try await account.upload(
                file: fileURL,
                toVault: vaultID,
                description: descriptionText,
                contentType: media.contentType,
                progress: progress
            )
        }
    }

    private func resolvedVault(on account: AccountClient) async throws -> Int64 {
        if let vault { return vault }
        let project = try await account.projects.get(projectID: self.project)
        guard let item = project.dock?.first(where: { $0.name == "vault" && $0.enabled }) else {
            throw APIError.apiError(
                APIError.Details(
                    message: "Project \(project.id) has no Docs & Files switched on.",
                    hint: "Pass --vault ID, or switch on Docs & Files for the project."
                )
            )
        }
        return item.id
    }
}

/// `basecamp uploads replace UPLOAD_ID FILE`: a new version of an upload's file.
struct UploadsReplaceCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "replace",
        abstract: "Replace an upload's file with a new version.",
        discussion: """
            Uploads FILE as an attachment and adds it to the upload as its new version; earlier versions are kept (basecamp uploads list-versions --upload ID).

            Example:
              basecamp --sandbox uploads replace 1069479913 logo-v2.png
            """
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("The upload's id.", valueName: "upload-id"))
    var upload: Int64

    @Argument(help: ArgumentHelp("The new file.", valueName: "file"))
    var file: String

    @Option(name: .customLong("description"), help: ArgumentHelp("A new description (rich text).", valueName: "text"))
    var descriptionText: String?

    @OptionGroup var media: MediaTypeOption

    func run(in context: CommandContext) async throws {
        try await UploadFileArgument.send(file, in: context, root: root) { account, fileURL, progress in
            try await account.replaceUpload(
                upload,
                with: fileURL,
                description: descriptionText,
                contentType: media.contentType,
                progress: progress
            )
        }
    }
}

/// `--content-type`, on the commands that upload a file from disk.
struct MediaTypeOption: ParsableArguments {
    @Option(help: ArgumentHelp("The media type; default: from the file's extension.", valueName: "type"))
    var contentType: String?
}

/// What `upload` and `uploads replace` share: the file check, the progress line and the printed
/// result.
enum UploadFileArgument {
    /// Checks the file at `path`, uploads it with `upload` (given the account, the file and a
    /// progress reporter) and prints the upload it made.
    static func send(
        _ path: String,
        in context: CommandContext,
        root: BasecampCommand,
        _ upload: (AccountClient, URL, (@Sendable (TransferProgress) -> Void)?) async throws -> Upload
    ) async throws {
        let fileURL = try readable(path)
        try await OperationRunner(context: context, root: root).withAccount { account in
            let progress = TransferProgressText.reporter("Uploading", fileURL.lastPathComponent, to: context.progress)
            let sent = try await upload(account, fileURL, progress)
            context.progress.clear()
            try print(sent, in: context)
        }
    }

    /// The file at `path`; a usage error (exit 64) when it is not a readable regular file.
    static func readable(_ path: String) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            FileManager.default.isReadableFile(atPath: path)
        else {
            throw ValidationError("\(path) is not a readable file.")
        }
        return URL(fileURLWithPath: path)
    }

    static func print(_ upload: Upload, in context: CommandContext) throws {
        let size = upload.byteSize.map(TransferProgressText.size) ?? "?"
        let line = "Uploaded \(upload.filename ?? upload.title) (\(size)) as upload \(upload.id)."
        try RecordOutput.print(upload, in: context, line: line)
    }
}

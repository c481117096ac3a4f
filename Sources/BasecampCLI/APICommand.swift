import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `basecamp api OPERATION_ID`: calls any operation of the Spec by its id and prints the API's
/// own JSON, every page of a list collected into one array.
struct APICommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Call any operation by its id and print the response JSON.",
        discussion: """
            Parameters go by their Spec names, path or query alike: --param projectId=2085958504. Repeat --param for a list parameter (--param assignee_ids[]=1 --param assignee_ids[]=2).
            The body is --body '{"content":"Buy milk"}', --body @todo.json or --body - (stdin); it is sent as given, so the server's own validation answers (exit 9).
            Lists are walked to the end (--limit N or --max-pages N stops early and says so on stderr, --page N fetches one page); a list sent inside an object (GetPersonProgress: the person and their events) prints that object, its list holding every page's items.
            The output is the API's JSON as sent (snake_case keys), unlike the service commands' --json, which uses the SDK's field names; --format and --fields work on it the same way. An answer without a body prints nothing.

            Examples:
              basecamp --sandbox api GetProject --param projectId=2085958504
              basecamp --sandbox api ListTodos --param todolistId=1069479338 --limit 5
              basecamp --sandbox api ListTodos --param todolistId=1069479338 --max-pages 1
              basecamp --sandbox api CreateTodo --param todolistId=1069479338 --body '{"content":"Ship it"}'
            """
    )

    @ParentCommand var root: BasecampCommand

    @Argument(
        help: ArgumentHelp(
            "The Spec's operationId, e.g. GetProject (see 'basecamp operations').",
            valueName: "operation-id"
        )
    )
    var operationID: String

    @Option(
        name: .customLong("param"),
        help: ArgumentHelp("A path or query parameter as name=value; repeatable.", valueName: "name=value")
    )
    var parameters: [String] = []

    @Option(
        name: .customLong("body"),
        help: ArgumentHelp("The request body: JSON, @file, or - for stdin.", valueName: "json")
    )
    var body: String?

    @OptionGroup var listing: ListingOptions

    func validate() throws {
        for parameter in parameters where !parameter.contains("=") {
            throw ValidationError("--param takes name=value, not \"\(parameter.prefix(60))\".")
        }
    }

    func run(in context: CommandContext) async throws {
        guard let operation = OperationCatalog.operation(id: operationID) else {
            let suggestions = OperationCatalog.all.map(\.id)
                .filter { $0.lowercased().contains(operationID.lowercased()) }
                .prefix(5)
            let hint = suggestions.isEmpty ? "" : " Did you mean \(suggestions.joined(separator: ", "))?"
            throw ValidationError(
                "No operation \"\(operationID.prefix(60))\".\(hint) 'basecamp operations' lists all \(OperationCatalog.all.count)."
            )
        }
        let (path, query) = try sortedParameters(operation)
        let runner = OperationRunner(context: context, root: root)
        try runner.checkMaxPages(operation, page: listing.page)
        var requestBody: RequestBody?
        if let body { requestBody = .json(try await BodyReader.json(body, context: context)) }
        if operation.bodyKind != nil, operation.bodyKind != .json {
            throw ValidationError("\(operation.id) uploads a file; use the service command with --file.")
        }
        if operation.bodyKind == nil, requestBody != nil {
            throw ValidationError("\(operation.id) takes no body.")
        }
        if !operation.isPaginated, listing.limit != nil || listing.page != nil {
            throw ValidationError("\(operation.id) is not a paginated list; --limit and --page do not apply.")
        }
        let session = try await runner.session()
        let account = try runner.account(in: session)
        try await session.withSignInHint {
            try await call(
                operation,
                on: account,
                runner: runner,
                context: context,
                path: path,
                query: query,
                body: requestBody
            )
        }
    }

    private func call(
        _ operation: BasecampOperation,
        on account: AccountClient,
        runner: OperationRunner,
        context: CommandContext,
        path: [String: String],
        query: [(name: String, value: String)],
        body requestBody: RequestBody?
    ) async throws {
        let list = OperationRunner.ListCall(
            operation: operation,
            path: path,
            query: query,
            limit: listing.limit,
            page: listing.page
        )
        if operation.listsInsideObject {
            let walk = try await runner.collectEnvelope(list, on: account)
            // `--json` is the object; the other formats print its list's items, a row each.
            if case .object(var members) = walk.value, let key = operation.pagination?.itemsKey {
                members[key] = nil
                try context.printList(walk.result.items, envelope: JSONValue.object(members), rowsKey: key) {
                    try context.printJSON(walk.value)
                }
            } else {
                try context.printJSON(walk.value)
            }
            if let stopped = walk.stopped { throw stopped }
            if walk.result.meta.truncated {
                context.note(runner.truncationNote(walk.result.meta, shown: walk.result.items.count))
            }
            return
        }
        if operation.isPaginated {
            let (result, stopped) = try await runner.collect(list, on: account)
            try context.printJSON(JSONValue.array(result.items))
            if let stopped { throw stopped }
            // The output is always JSON, so the only place to say the list was cut short is stderr.
            if result.meta.truncated { context.note(runner.truncationNote(result.meta, shown: result.items.count)) }
            return
        }
        let response = try await account.perform(
            operation,
            pathParameters: path,
            query: query,
            body: requestBody ?? (operation.bodyKind == .json ? .json(JSONValue.object([:])) : nil)
        )
        if response.value != .null {
            try context.printJSON(response.value)
        }
    }

    /// Splits `--param`s into path values and query items, refusing names the operation lacks.
    private func sortedParameters(
        _ operation: BasecampOperation
    ) throws -> (path: [String: String], query: [(name: String, value: String)]) {
        var path: [String: String] = [:]
        var query: [(name: String, value: String)] = []
        let pathNames = Set(operation.pathParameters.map(\.name)).subtracting(["accountId"])
        let queryNames = Set(operation.queryParameters.map(\.name))
        for parameter in parameters {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            if pathNames.contains(name) {
                path[name] = value
            } else if queryNames.contains(name) || queryNames.contains(name + "[]") {
                query.append((queryNames.contains(name) ? name : name + "[]", value))
            } else {
                let known =
                    (operation.pathParameters.map(\.name).filter { $0 != "accountId" }
                        + operation.queryParameters.map(\.name))
                throw ValidationError(
                    "\(operation.id) has no parameter \"\(name.prefix(60))\"; it takes: "
                        + (known.isEmpty ? "none" : known.joined(separator: ", ")) + "."
                )
            }
        }
        for name in pathNames.sorted() where path[name] == nil {
            throw ValidationError("\(operation.id) needs --param \(name)=VALUE.")
        }
        return (path, query)
    }
}

/// `basecamp operations`: every operation with its command, method and path.
struct OperationsCommand: BasecampSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "operations",
        abstract: "List the operations of the Spec, with their commands and paths."
    )

    @ParentCommand var root: BasecampCommand

    @Argument(help: ArgumentHelp("Only this service, e.g. todos.", valueName: "service"))
    var service: String?

    private struct Entry: Encodable {
        var id: String
        var command: String
        var method: String
        var path: String
        var summary: String
    }

    func run(in context: CommandContext) async throws {
        let operations = OperationCatalog.all.filter { operation in
            guard let service else { return true }
            return operation.service == service || Self.kebab(operation.service) == service
        }
        guard !operations.isEmpty else {
            throw ValidationError("No service \"\((service ?? "").prefix(60))\"; run 'basecamp operations' for all.")
        }
        let entries = operations.map { operation in
            Entry(
                id: operation.id,
                command: "\(Self.kebab(operation.service)) \(Self.kebab(operation.swiftName))",
                method: operation.method.rawValue,
                path: operation.pathTemplate,
                summary: operation.summary
            )
        }
        if context.outputsJSON {
            try context.printJSON(entries)
            return
        }
        var table = TextTable(columns: [.init("OPERATION"), .init("COMMAND"), .init("METHOD"), .init("PATH")])
        for entry in entries {
            table.append([entry.id, "basecamp " + entry.command, entry.method, entry.path])
        }
        context.print(table)
    }

    /// `cardColumns` → `card-columns`, `createInTodoset` → `create-in-todoset`.
    static func kebab(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result.append("-") }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

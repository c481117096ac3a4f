import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// Calls operations for the `basecamp` commands: resolves the token, account and connection,
/// builds the request from an ``OperationInvocation``, walks pages, applies `--project`, and
/// prints the result as a table or JSON.
struct OperationRunner {
    let context: CommandContext
    let root: BasecampCommand

    // MARK: Session

    /// The token, account and connection the options, environment and stored sign-in name.
    func session() async throws -> BasecampSession {
        try await BasecampSession.open(context: context, root: root)
    }

    /// The SDK's client for the account the options, environment and stored sign-in name.
    func account(in session: BasecampSession) throws -> AccountClient {
        try session.client(global: root.global).forAccount(session.accountID(option: root.account))
    }

    /// Runs `body` with the account's client, adding how to sign in again to an `auth_required`
    /// failure, for commands that call the SDK themselves.
    func withAccount<Result>(_ body: (AccountClient) async throws -> Result) async throws -> Result {
        let session = try await session()
        let client = try account(in: session)
        return try await session.withSignInHint { try await body(client) }
    }

    // MARK: Generated commands

    /// Runs one generated command: the call, then human or JSON output.
    func run(_ operation: BasecampOperation, _ call: OperationInvocation) async throws {
        if let name = call.impossibleIDs.first {
            throw ValidationError("Basecamp ids are whole numbers above 0; \(name) was \(call.pathValues[name] ?? "").")
        }
        let watching = call.watching?.watch == true
        if watching {
            try ListWatcher.check(call, maxPages: root.maxPages, context: context)
        } else {
            try checkMaxPages(operation, page: call.listing?.page)
        }
        let query = resolvedQuery(call.queryItems)
        let body = try await requestBody(operation, call)
        let session = try await session()
        let client = try account(in: session)
        try await session.withSignInHint {
            if let options = call.watching, watching {
                let watcher = ListWatcher(context: context, operation: operation, options: options)
                try await watcher.run(on: client, path: call.pathValues, query: query, project: call.scope?.project)
                return
            }
            try await perform(operation, call, on: client, query: query, body: body)
        }
    }

    /// `--max-pages` bounds a walk over a list; on anything else, or beside `--page` (one page
    /// by number), it is a contradiction, refused before any request.
    func checkMaxPages(_ operation: BasecampOperation, page: Int?) throws {
        guard root.maxPages != nil else { return }
        guard operation.isPaginated else {
            throw ValidationError("\(operation.id) is not a paginated list; --max-pages does not apply.")
        }
        if page != nil {
            throw ValidationError("--page fetches one page by number; --max-pages cannot be used with it.")
        }
    }

    private func perform(
        _ operation: BasecampOperation,
        _ call: OperationInvocation,
        on account: AccountClient,
        query: [(name: String, value: String)],
        body: RequestBody?
    ) async throws {
        let output = OutputFormatter(context: context)
        let list = ListCall(
            operation: operation,
            path: call.pathValues,
            query: query,
            limit: call.listing?.limit,
            page: call.listing?.page
        )

        if operation.listsInsideObject {
            let walk = try await collectEnvelope(list, on: account, inProject: call.scope?.project)
            try output.enveloped(walk.value, operation: operation)
            try finishList(walk.result, shown: walk.result.items.count, stopped: walk.stopped)
            return
        }
        if operation.isPaginated, let project = call.scope?.project {
            let kept = try await collect(list, on: account, inProject: project)
            if kept.foundOnlyOthers { throw Self.notInProject(operation, project: project) }
            try output.list(kept.result.items, operation: operation)
            try finishList(kept.result, shown: kept.result.items.count, stopped: kept.stopped)
            return
        }
        if operation.isPaginated {
            let (result, stopped) = try await collect(list, on: account)
            try output.list(result.items, operation: operation)
            try finishList(result, shown: result.items.count, stopped: stopped)
            return
        }

        let response: Response<JSONValue>
        if operation.bodyKind == .octetStream, let input = call.fileInput {
            response = try await account.perform(
                operation,
                pathParameters: call.pathValues,
                query: query,
                uploadingFile: URL(fileURLWithPath: input.file),
                contentType: input.contentType
            )
        } else {
            response = try await account.perform(operation, pathParameters: call.pathValues, query: query, body: body)
        }
        if let project = call.scope?.project {
            if case .array(let items) = response.value {
                try output.list(items.filter { Self.belongs($0, to: project) }, operation: operation)
                return
            }
            guard Self.belongs(response.value, to: project) else {
                throw Self.notInProject(operation, project: project)
            }
        }
        switch response.value {
        case .null:
            try output.done(operation, status: response.status.code)
        case .array(let items):
            try output.list(items, operation: operation)
        default:
            try output.record(response.value)
        }
    }

    /// One list to walk: the operation, its parameters, and the `--limit` and `--page` asked for.
    struct ListCall {
        var operation: BasecampOperation
        var path: [String: String]
        var query: [(name: String, value: String)]
        var limit: Int?
        var page: Int?
    }

    /// The walk's limits: `limit` items (when the walk applies it) and one `page`, with `--max-pages`.
    func options(for list: ListCall, limitingItems: Bool = true) -> PaginationOptions {
        var options = PaginationOptions(maxItems: limitingItems ? list.limit : nil, page: list.page)
        if let maxPages = root.maxPages { options.maxPages = maxPages }
        return options
    }

    /// Every page (or the one `page` asks for), up to `limit` items. When the walk stops with an
    /// error after some pages (a page failed, a next link was refused), the items fetched so far
    /// come back with that error, so they can be printed before it.
    func collect(
        _ list: ListCall,
        on account: AccountClient
    ) async throws -> (ListResult<JSONValue>, stopped: APIError?) {
        do {
            let result = try await account.performPaginated(
                list.operation,
                pathParameters: list.path,
                query: list.query,
                options: options(for: list)
            )
            .collect()
            return (result, nil)
        } catch let error as APIError {
            guard let partial = error.partialList(of: JSONValue.self) else { throw error }
            return (partial, error)
        }
    }

    /// After a list is printed: the error that stopped it early, or a note that more exist.
    func finishList(_ result: ListResult<JSONValue>, shown: Int, stopped: APIError?) throws {
        if let stopped {
            if !context.outputsJSON {
                let pages = result.meta.pageCount == 1 ? "1 page" : "\(result.meta.pageCount) pages"
                context.note("The list stopped early: the items above are from the first \(pages).")
            }
            throw stopped
        }
        // On stderr in every format, as `api` says it: a script reading stdout is not disturbed,
        // and one that checks stderr learns the list is not whole.
        if result.meta.truncated {
            context.note(truncationNote(result.meta, shown: shown))
        }
    }

    /// What a list cut short by `--limit` or `--max-pages` says on stderr.
    func truncationNote(_ meta: ListMeta, shown: Int) -> String {
        let total = meta.totalCount.map { " of \($0)" } ?? ""
        if let maxPages = root.maxPages, meta.pageCount >= maxPages {
            let pages = meta.pageCount == 1 ? "the first page" : "the first \(meta.pageCount) pages"
            return "Showing \(shown)\(total), from \(pages) (--max-pages \(maxPages)); raise --max-pages for more."
        }
        return "Showing \(shown)\(total); use --page N or a larger --limit for more."
    }

    /// Whether a record lies in `project`; records that do not say are kept.
    static func belongs(_ record: JSONValue, to project: Int64) -> Bool {
        guard let bucket = record["bucket"]?["id"]?.intValue else { return true }
        return Int64(bucket) == project
    }

    static func notInProject(_ operation: BasecampOperation, project: Int64) -> APIError {
        APIError.notFound(
            APIError.Details(
                message: "Nothing \(operation.id) returned is in project \(project).",
                hint: "Leave out --project, or check the project with 'basecamp projects list'."
            )
        )
    }

    // MARK: Request parts

    /// Query items with days written as `YYYY-MM-DD` in the user's time zone.
    func resolvedQuery(
        _ items: [(name: String, value: OperationInvocation.QueryValue)]
    ) -> [(
        name: String, value: String
    )] {
        items.map { item in
            switch item.value {
            case .text(let text): return (item.name, text)
            case .day(let day): return (item.name, dayText(day))
            }
        }
    }

    func dayText(_ day: CalendarDay) -> String {
        let zone = context.environment.timeZone
        return day.noon(in: zone, now: context.now).formatted(.calendarDate(in: zone))
    }

    /// The request body: `--body` merged with the field options, or a multipart form of `--file`;
    /// `nil` for a raw `--file`, which `perform` streams from disk once it is checked here.
    private func requestBody(_ operation: BasecampOperation, _ call: OperationInvocation) async throws -> RequestBody? {
        switch operation.bodyKind {
        case nil:
            return nil
        case .json:
            var members: [String: JSONValue] = [:]
            if let text = call.bodyInput?.body {
                guard case .object(let given) = try await BodyReader.json(text, context: context) else {
                    throw ValidationError("--body must be a JSON object for \(operation.id).")
                }
                members = given
            }
            for field in call.bodyFields {
                switch field.value {
                case .json(let value): members[field.name] = value
                case .day(let day): members[field.name] = .string(dayText(day))
                }
            }
            let missing = call.requiredBodyFields.filter { members[$0] == nil }
            if !missing.isEmpty {
                let options = missing.map { "--" + $0.replacingOccurrences(of: "_", with: "-") }
                throw ValidationError(
                    "\(operation.id) needs \(options.joined(separator: ", ")) (or \(missing.joined(separator: ", ")) in --body)."
                )
            }
            return .json(.object(members))
        case .octetStream:
            guard let input = call.fileInput else { throw ValidationError("\(operation.id) needs --file.") }
            // Sent from disk as it goes out (see `perform`): here it is only checked, before any request.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.file, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isReadableFile(atPath: input.file)
            else { throw ValidationError("Cannot read \"\(input.file)\".") }
            return nil
        case .multipart:
            guard let input = call.fileInput else { throw ValidationError("\(operation.id) needs --file.") }
            let data = try BodyReader.file(input.file)
            var form = MultipartForm()
            form.append(
                file: call.multipartField ?? "file",
                filename: URL(fileURLWithPath: input.file).lastPathComponent,
                contentType: input.contentType ?? MediaType.forFileName(input.file),
                data: data
            )
            return .multipart(form)
        }
    }
}

/// Reads `--body` and `--file` arguments.
enum BodyReader {
    /// The most `--body -` reads from stdin; more is refused rather than held in memory.
    static let maximumStandardInput = 16 * 1024 * 1024

    /// The JSON of `--body`: inline text, `@path` for a file, or `-` for stdin.
    static func json(_ argument: String, context: CommandContext) async throws -> JSONValue {
        let data: Data
        let source: String
        if argument == "-" {
            do {
                data = try await context.standardInput(limit: maximumStandardInput)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw ValidationError("--body - could not read stdin.")
            }
            guard data.count <= maximumStandardInput else {
                throw ValidationError("--body - read more than 16 MiB from stdin; a JSON body is far smaller.")
            }
            source = "stdin"
        } else if argument.hasPrefix("@") {
            data = try file(String(argument.dropFirst()))
            source = argument
        } else {
            data = Data(argument.utf8)
            source = "--body"
        }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw ValidationError("\(source) is not valid JSON.")
        }
    }

    /// The bytes of a file named on the command line.
    static func file(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("Cannot read \"\(path)\".")
        }
        return data
    }
}

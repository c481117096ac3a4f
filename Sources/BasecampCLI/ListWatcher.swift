import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// `--watch` and `--interval`, on the commands that list a feed (a project's timeline, a
/// recording's events, the progress reports).
struct WatchOptions: ParsableArguments {
    /// Basecamp allows 50 requests per 10 seconds per account; one poll a second is a fifth of it.
    static let minimumInterval: Double = 1
    static let defaultInterval: Double = 10

    @Flag(help: "Print the newest page, then keep printing new items as they come, until Ctrl-C.")
    var watch = false

    @Option(help: ArgumentHelp("Seconds between polls with --watch (1 to 3600; default 10).", valueName: "seconds"))
    var interval: Double?

    func validate() throws {
        guard let interval else { return }
        guard watch else { throw ValidationError("--interval only applies to --watch.") }
        guard interval.isFinite, interval >= Self.minimumInterval, interval <= 3600 else {
            throw ValidationError("--interval must be from 1 to 3600 seconds.")
        }
    }
}

/// Follows a feed for `--watch`: polls its first page with conditional GETs and prints each item
/// not seen before, oldest first, until Ctrl-C or SIGTERM (exit 0).
struct ListWatcher {
    let context: CommandContext
    let operation: BasecampOperation
    let options: WatchOptions

    /// Refuses what cannot stream or stop: a format that is one document, a page or a limit.
    /// Checked before any request is sent.
    static func check(_ call: OperationInvocation, maxPages: Int?, context: CommandContext) throws {
        if let listing = call.listing {
            for (given, name) in [(listing.page != nil, "--page"), (listing.limit != nil, "--limit")] where given {
                throw ValidationError("--watch follows the newest page until Ctrl-C; \(name) cannot be used with it.")
            }
        }
        if maxPages != nil {
            throw ValidationError("--watch follows the newest page until Ctrl-C; --max-pages cannot be used with it.")
        }
        guard [.table, .jsonl].contains(context.outputFormat) else {
            throw ValidationError(
                "--watch prints items as they come: as a table (the default) or with --format jsonl, not --format \(context.outputFormat.rawValue)."
            )
        }
    }

    /// Follows the feed; with `project`, only its items are printed.
    func run(
        on account: AccountClient,
        path: [String: String],
        query: [(name: String, value: String)],
        project: Int64?
    ) async throws {
        let seconds = options.interval ?? WatchOptions.defaultInterval
        let polling = try account.poll(
            operation,
            pathParameters: path,
            query: query,
            every: .milliseconds(Int64((seconds * 1000).rounded()))
        )
        let printer = FeedPrinter(
            context: context,
            itemsKey: operation.metadata.pagination?.itemsKey,
            keep: { item in project.map { OperationRunner.belongs(item, to: $0) } ?? true }
        )
        let every = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        _ = try await Interruption.run {
            context.note("Watching \(operation.id) for new items every \(every) s; Ctrl-C to stop.")
            var printer = printer
            for await result in polling.results {
                switch result {
                case .success(let page):
                    try printer.printNew(in: page)
                case .failure(let error) where error.isRetryable:
                    context.note("Polling \(operation.id) failed (\(error.message)); trying again.")
                case .failure(let error):
                    throw error
                }
            }
        }
    }
}

/// Prints the items of each polled page that were not printed before.
struct FeedPrinter {
    let context: CommandContext
    let itemsKey: String?
    let keep: @Sendable (JSONValue) -> Bool
    private var seen = Set<JSONValue>()
    private var printedHeader = false

    init(context: CommandContext, itemsKey: String?, keep: @escaping @Sendable (JSONValue) -> Bool) {
        self.context = context
        self.itemsKey = itemsKey
        self.keep = keep
    }

    /// Feeds list the newest first; a watch prints like a log, the newest last.
    mutating func printNew(in page: JSONValue) throws {
        let items = (itemsKey.map { page[$0] } ?? page)?.arrayValue ?? []
        var fresh: [JSONValue] = []
        for item in items.reversed() where keep(item) && seen.insert(item["id"] ?? item).inserted {
            fresh.append(item)
        }
        guard !fresh.isEmpty else { return }
        let output = OutputFormatter(context: context)
        if context.outputsJSON {
            try context.printJSON(JSONValue.array(fresh.map(output.swiftKeyed)))
            return
        }
        var table = TextTable(
            columns: [.init("WHEN"), .init("WHO"), .init("ACTION"), .init("WHAT")],
            showsHeader: !printedHeader
        )
        for item in fresh {
            let what =
                item["title"] ?? item["summary_excerpt"]
                ?? item["recording_id"].map { .string("recording \(output.plain($0))") }
            table.append([
                output.timestamp(item["created_at"]), output.names(item["creator"]),
                output.plain(item["action"] ?? .null), output.short(what),
            ])
        }
        printedHeader = true
        context.print(table)
    }
}

import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// A generated subcommand that calls one operation of the Spec.
///
/// The generated types only declare options and say where each value goes
/// (``invocation()``); calling, paging, filtering and printing are shared here, so 250 commands
/// cost the type checker little more than their option declarations.
protocol OperationCommand: BasecampSubcommand {
    /// The operation the command calls.
    static var operation: BasecampOperation { get }
    /// The parsed options, sorted into path, query and body values.
    func invocation() -> OperationInvocation
}

extension OperationCommand {
    func run(in context: CommandContext) async throws {
        let runner = OperationRunner(context: context, root: root)
        try await runner.run(Self.operation, invocation())
    }

    /// `--watch` runs until Ctrl-C, which ends it with exit 0 (``ListWatcher``).
    var handlesTerminationSignals: Bool { invocation().watching?.watch == true }
}

/// What a command line asks of one operation: path values, query items, body fields and the
/// shared option groups. Dates stay `CalendarDay`s until the runner knows the user's time zone.
struct OperationInvocation {
    /// A query value; days are resolved in the user's zone when the call is made.
    enum QueryValue {
        case text(String)
        case day(CalendarDay)
    }

    /// A body member; days are resolved like query days.
    enum BodyValue {
        case json(JSONValue)
        case day(CalendarDay)
    }

    var pathValues: [String: String] = [:]
    var queryItems: [(name: String, value: QueryValue)] = []
    var bodyFields: [(name: String, value: BodyValue)] = []
    var listing: ListingOptions?
    var watching: WatchOptions?
    var scope: ProjectScopeOptions?
    var bodyInput: BodyInputOptions?
    var fileInput: FileInputOptions?
    /// Body members the Spec requires; checked after `--body` and the field options are merged.
    var requiredBodyFields: [String] = []
    /// The form field a multipart upload is sent as.
    var multipartField: String?
    /// Body members an edit's `--clear-…` flags empty; each is also in `bodyFields`.
    var clearedFields: [String] = []
    /// Path parameters given an id below 1, which no Basecamp record has.
    var impossibleIDs: [String] = []

    mutating func path(_ name: String, _ value: Int64) {
        pathValues[name] = String(value)
        if value < 1 { impossibleIDs.append(name) }
    }

    mutating func path(_ name: String, _ value: String) {
        pathValues[name] = value
    }

    mutating func query(_ name: String, text value: String?) {
        if let value { queryItems.append((name, .text(value))) }
    }

    mutating func query(_ name: String, number value: Int?) {
        if let value { queryItems.append((name, .text(String(value)))) }
    }

    mutating func query(_ name: String, flag value: Bool?) {
        if let value { queryItems.append((name, .text(value ? "true" : "false"))) }
    }

    mutating func query(_ name: String, day value: CalendarDay?) {
        if let value { queryItems.append((name, .day(value))) }
    }

    mutating func query(_ name: String, numbers values: [Int64]) {
        for value in values { queryItems.append((name, .text(String(value)))) }
    }

    mutating func query(_ name: String, texts values: [String]) {
        for value in values { queryItems.append((name, .text(value))) }
    }

    mutating func body(_ name: String, text value: String?) {
        if let value { bodyFields.append((name, .json(.string(value)))) }
    }

    mutating func body(_ name: String, number value: Int64?) {
        if let value { bodyFields.append((name, .json(.integer(Int(value))))) }
    }

    mutating func body(_ name: String, flag value: Bool?) {
        if let value { bodyFields.append((name, .json(.bool(value)))) }
    }

    mutating func body(_ name: String, day value: CalendarDay?) {
        if let value { bodyFields.append((name, .day(value))) }
    }

    mutating func body(_ name: String, numbers values: [Int64]) {
        if !values.isEmpty { bodyFields.append((name, .json(.array(values.map { .integer(Int($0)) })))) }
    }

    mutating func body(_ name: String, texts values: [String]) {
        if !values.isEmpty { bodyFields.append((name, .json(.array(values.map { .string($0) })))) }
    }

    /// An edit's `--clear-…` flag: when given, the member is sent as `empty`.
    mutating func clear(_ name: String, _ given: Bool, to empty: JSONValue) {
        guard given else { return }
        bodyFields.append((name, .json(empty)))
        clearedFields.append(name)
    }
}

/// Parses an option whose value must be one of the Spec's enum values, so a typo is a usage
/// error (exit 64) naming the values rather than a 422 from the server.
struct SpecEnum: Sendable {
    let values: [String]

    init(_ values: [String]) {
        self.values = values
    }

    func parse(_ argument: String) throws -> String {
        guard values.contains(argument) else {
            throw ValidationError("use one of: \(values.joined(separator: ", ")).")
        }
        return argument
    }
}

/// `--limit` and `--page`, on every paginated command.
struct ListingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Stop after this many items (default: every page).", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Fetch only this page (1 for the first) instead of every page.", valueName: "n"))
    var page: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if let page, page < 1 { throw ValidationError("--page must be at least 1.") }
    }
}

/// `--project`, on read-only commands whose path does not name a project.
struct ProjectScopeOptions: ParsableArguments {
    @Option(
        name: .customLong("project"),
        help: ArgumentHelp(
            "Only records in this project; one elsewhere is reported as not found (ids are unique per account, so this is optional).",
            valueName: "id"
        )
    )
    var project: Int64?
}

/// `--body`, on every command that sends a JSON body.
struct BodyInputOptions: ParsableArguments {
    @Option(
        name: .customLong("body"),
        help: ArgumentHelp(
            "The JSON body: inline, @file to read a file, or - to read stdin. Field options override its members.",
            valueName: "json"
        )
    )
    var body: String?
}

/// `--file` and `--content-type`, on the commands that upload bytes.
struct FileInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The file to send.", valueName: "path"))
    var file: String

    @Option(
        name: .customLong("content-type"),
        help: ArgumentHelp("The file's media type (default: guessed from its name).", valueName: "type")
    )
    var contentType: String?
}

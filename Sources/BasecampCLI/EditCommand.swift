import ArgumentParser
import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// A generated `edit` command (`todos edit`, `schedules edit-entry`, `cards edit`…): it changes
/// the members named on the command line and keeps the rest, in one read and one write (or one
/// write, where Basecamp keeps what a body leaves out).
///
/// The generated types declare the options, list what they set or clear in ``invocation()`` and
/// say how the change is saved in ``save(_:on:)``; checking, calling and printing are shared here.
protocol EditCommand: BasecampSubcommand {
    /// The update the edit makes.
    static var operation: BasecampOperation { get }
    /// What the record is called in messages: `to-do`, `schedule entry`.
    static var noun: String { get }
    /// The option of each member that has a `--clear-…` flag, by wire name.
    static var clearable: [String: String] { get }
    /// The record's path values and the members the options set or clear.
    func invocation() -> OperationInvocation
    /// Saves `change` (the members to set, by wire name) and returns the record as saved.
    func save(_ change: [String: JSONValue], on account: AccountClient) async throws -> JSONValue
}

extension EditCommand {
    /// Refuses an edit that changes nothing, or that both sets and clears a member.
    func validate() throws {
        let call = invocation()
        for member in call.clearedFields where call.bodyFields.filter({ $0.name == member }).count > 1 {
            let option = Self.clearable[member] ?? member
            throw ValidationError("--\(option) and --clear-\(option) contradict each other; give one of them.")
        }
        guard !call.bodyFields.isEmpty else {
            throw ValidationError("Name at least one field to change (see --help for the fields).")
        }
    }

    func run(in context: CommandContext) async throws {
        let runner = OperationRunner(context: context, root: root)
        var change: [String: JSONValue] = [:]
        for field in invocation().bodyFields {
            switch field.value {
            case .json(let value): change[field.name] = value
            case .day(let day): change[field.name] = .string(runner.dayText(day))
            }
        }
        let saved = try await runner.withAccount { account in try await save(change, on: account) }
        let id = saved["id"].map { " " + OutputFormatter(context: context).plain($0) } ?? ""
        let title = OutputFormatter.titleKeys.lazy.compactMap { saved[$0]?.stringValue }.first
        let line = "Updated \(Self.noun)\(id)\(title.map { ": " + HTMLText.plain($0) } ?? "")."
        try RecordOutput.print(saved, in: context, line: line)
    }
}

/// How an edit's members reach the request: laid over the request a merge-safe helper built
/// from the record, or sent alone where Basecamp keeps what a body leaves out.
enum EditOverlay {
    private static let coding = JSONCoding(keys: .useDefaultKeys)

    /// Sets each member of `change` on `request` (a `null` member is left out, which clears it
    /// in a body that replaces the whole record).
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when a value does not fit the member.
    static func apply<Request: Codable>(_ change: [String: JSONValue], to request: inout Request) throws {
        guard case .object(var members) = try JSONValue(parsing: coding.makeEncoder().encode(request)) else { return }
        for (name, value) in change {
            members[name] = value == .null ? nil : value
        }
        do {
            request = try coding.makeDecoder().decode(Request.self, from: JSONValue.object(members).encoded())
        } catch {
            throw APIError.usage("The new values do not fit \(Request.self): \(DecodingFailure.describe(error))")
        }
    }

    /// The record as JSON with Basecamp's member names, as the generated commands print it.
    static func json(_ record: some Encodable) throws -> JSONValue {
        try JSONValue(parsing: JSONEncoder().encode(record))
    }

    /// Sends only `change` with the operation (one PUT) and returns the record it answers.
    static func patch(
        _ operation: BasecampOperation,
        _ call: OperationInvocation,
        _ change: [String: JSONValue],
        on account: AccountClient
    ) async throws -> JSONValue {
        try await account.perform(operation, pathParameters: call.pathValues, body: .json(JSONValue.object(change)))
            .value
    }
}

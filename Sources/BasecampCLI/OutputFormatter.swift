import Basecamp
import CLISupport
import Foundation
import HTTPCore

/// Prints API JSON the way every tool in the package prints results: tables for people, and for
/// `--json` the SDK's field names (camelCase, `ID`/`URL` as Swift spells them) with timestamps in
/// ISO 8601 with their offset in the user's zone.
///
/// It works on any JSON, so one formatter serves all 250 operations; the columns are the
/// members most records share (id, title or name, status, due date, assignees…). Cells hold the
/// whole text; the table is cut to the terminal's width when printed. `--format` and `--fields`
/// other than the table go through CLISupport with the same Swift-named JSON.
struct OutputFormatter {
    let context: CommandContext

    // MARK: Results

    func list(_ items: [JSONValue], operation: BasecampOperation) throws {
        if context.outputsJSON {
            try context.printJSON(JSONValue.array(items.map(swiftKeyed)))
            return
        }
        guard !items.isEmpty else {
            context.print("No results.")
            return
        }
        context.print(table(for: items))
    }

    func record(_ value: JSONValue) throws {
        if context.outputsJSON {
            try context.printJSON(swiftKeyed(value))
            return
        }
        guard case .object(let members) = value else {
            context.print(plain(value))
            return
        }
        var table = TextTable(columns: [.init("FIELD"), .init("VALUE")], showsHeader: false)
        for key in Self.recordOrder(members.keys) {
            guard let member = members[key], !Self.isPlumbing(key), let text = cell(key, member) else { continue }
            table.append([key.replacingOccurrences(of: "_", with: " "), text])
        }
        if table.rows.isEmpty {
            // Only links or signed ids (an upload's `attachable_sgid`): those are the result.
            for key in members.keys.sorted() {
                guard let member = members[key], let text = cell(key, member) else { continue }
                table.append([key.replacingOccurrences(of: "_", with: " "), text])
            }
        }
        context.print(table)
    }

    /// An object holding a list (a person's progress): for `--format json` the object; for the
    /// other formats and `--fields`, the list's items, a row each; for people, the object's other
    /// members as a record, then the list as a table.
    func enveloped(_ value: JSONValue, operation: BasecampOperation) throws {
        guard let key = operation.pagination?.itemsKey, case .object(var members) = value else {
            try record(value)
            return
        }
        let items = members.removeValue(forKey: key)?.arrayValue ?? []
        try context.printList(
            items.map(swiftKeyed),
            envelope: swiftKeyed(.object(members)),
            rowsKey: Self.swiftName(key)
        ) {
            try record(.object(members))
            context.print("")
            try list(items, operation: operation)
        }
    }

    func done(_ operation: BasecampOperation, status: Int) throws {
        if context.outputsJSON {
            try context.printJSON(["operation": JSONValue.string(operation.id), "status": .integer(status)])
            return
        }
        context.print(
            "\(operation.summary.hasSuffix(".") ? String(operation.summary.dropLast()) : operation.summary): done (HTTP \(status))."
        )
    }

    // MARK: Tables

    /// The first of these an item has is its "name" column.
    static let titleKeys = ["name", "title", "subject", "content", "summary"]

    func table(for items: [JSONValue]) -> TextTable {
        let objects = items.compactMap(\.objectValue)
        guard !objects.isEmpty else {
            var table = TextTable(columns: [.init("VALUE")])
            for item in items { table.append([plain(item)]) }
            return table
        }
        func present(_ key: String) -> Bool { objects.contains { $0[key] != nil } }
        func varies(_ key: String) -> Bool { Set(objects.map { $0[key] ?? .null }).count > 1 }

        var columns: [(header: String, alignment: TextTable.Alignment, value: ([String: JSONValue]) -> String)] = []
        if present("id") {
            columns.append(("ID", .right, { self.plain($0["id"] ?? .null) }))
        }
        if var key = Self.titleKeys.first(where: present) {
            // Comments are all titled "Re: …"; their content tells them apart.
            if objects.count > 1, !varies(key), key != "content", present("content") { key = "content" }
            // Content is what someone wrote: say who.
            if key == "content", present("creator") {
                columns.append(("AUTHOR", .left, { self.names($0["creator"]) }))
            }
            columns.append((key.uppercased(), .left, { self.short($0[key]) }))
        }
        if present("status"), varies("status") {
            columns.append(("STATUS", .left, { self.plain($0["status"] ?? .null) }))
        }
        if objects.contains(where: { $0["completed"]?.boolValue == true }) {
            columns.append(("DONE", .left, { $0["completed"]?.boolValue == true ? "yes" : "" }))
        }
        if present("completed_ratio") {
            columns.append(("DONE", .right, { self.plain($0["completed_ratio"] ?? .null) }))
        }
        if present("due_on") {
            columns.append(("DUE", .left, { self.plain($0["due_on"] ?? .null) }))
        }
        if present("assignees") {
            columns.append(("ASSIGNEES", .left, { self.names($0["assignees"]) }))
        }
        if present("email_address") {
            columns.append(("EMAIL", .left, { self.plain($0["email_address"] ?? .null) }))
        }
        if present("bucket"), varies("bucket") {
            columns.append(("PROJECT", .left, { self.names($0["bucket"]) }))
        }
        if present("updated_at") {
            columns.append(("UPDATED", .left, { self.timestamp($0["updated_at"]) }))
        }
        if columns.isEmpty, let keys = objects.first?.keys.sorted() {
            // Records with none of the usual members (groups, reports): a column per member.
            for key in keys.filter({ !Self.isPlumbing($0) }).prefix(5) {
                let header = key.replacingOccurrences(of: "_", with: " ").uppercased()
                columns.append((header, .left, { self.cell(key, $0[key] ?? .null) ?? "" }))
            }
        }
        var table = TextTable(columns: columns.map { TextTable.Column($0.header, alignment: $0.alignment) })
        for object in objects {
            table.append(columns.map { $0.value(object) })
        }
        return table
    }

    /// `id`, the title-like members, then the rest alphabetically.
    static func recordOrder(_ keys: Dictionary<String, JSONValue>.Keys) -> [String] {
        let first = ["id"] + titleKeys + ["status", "completed", "due_on", "starts_on"]
        let leading = first.filter { keys.contains($0) }
        return leading + keys.filter { !leading.contains($0) }.sorted()
    }

    /// Links and signed ids: noise in a human listing (they stay in `--json`).
    static func isPlumbing(_ key: String) -> Bool {
        key == "url" || key.hasSuffix("_url") || key.hasSuffix("sgid")
    }

    // MARK: Cells

    private func cell(_ key: String, _ value: JSONValue) -> String? {
        switch value {
        case .null: return nil
        case .array(let items):
            if items.isEmpty { return nil }
            let text = names(value, withIDs: true)
            return text.isEmpty ? "\(items.count) item(s)" : text
        case .object: return names(value, withIDs: true)
        case .string where key.hasSuffix("_at"): return timestamp(value)
        default: return short(value)
        }
    }

    /// The name (or title, or id) of a nested record, or of each record in a list; with
    /// `withIDs`, followed by the record's id, which is what the next command needs.
    func names(_ value: JSONValue?, withIDs: Bool = false) -> String {
        switch value {
        case .array(let items)?:
            return items.map { names($0, withIDs: withIDs) }.filter { !$0.isEmpty }.joined(separator: ", ")
        case .object(let members)?:
            let id = members["id"].map(plain) ?? ""
            for key in ["name", "title", "subject"] {
                guard let member = members[key], member != .null else { continue }
                let name = short(member)
                return withIDs && !id.isEmpty ? "\(name) (\(id))" : name
            }
            return id
        case let value?:
            return plain(value)
        case nil:
            return ""
        }
    }

    func timestamp(_ value: JSONValue?) -> String {
        guard let text = value?.stringValue else { return "" }
        guard let date = Date(iso8601Timestamp: text) else { return text }
        let dates = context.dates
        return dates.dayWithYear(date) + " " + dates.time(date)
    }

    /// Text for a cell: rich text (HTML) as plain text on one line.
    func short(_ value: JSONValue?) -> String {
        HTMLText.plain(plain(value ?? .null))
    }

    func plain(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "yes" : "no"
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let text): return text
        case .array, .object: return String(decoding: value.encoded(), as: UTF8.self)
        }
    }

    // MARK: JSON

    /// The value with the SDK's Swift names as keys and timestamps in the user's zone.
    func swiftKeyed(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .array(items.map(swiftKeyed))
        case .object(let members):
            var converted: [String: JSONValue] = [:]
            for (key, member) in members {
                var member = swiftKeyed(member)
                if key.hasSuffix("_at"), let text = member.stringValue, let shown = inUserZone(text) {
                    member = .string(shown)
                }
                converted[Self.swiftName(key)] = member
            }
            return .object(converted)
        default:
            return value
        }
    }

    /// `text`, an ISO 8601 time, in the user's zone, with the fraction of a second it was written
    /// with: Basecamp's milliseconds order events within one second, and parsing them into a
    /// `Date` and back could round one off. `nil` when `text` is no such time.
    private func inUserZone(_ text: String) -> String? {
        let dot = text.firstIndex(of: ".")
        let fraction = dot.map { text[text.index(after: $0)...].prefix(while: \.isNumber) } ?? ""
        // The whole second is read from the text without its fraction, so it is never rounded up.
        guard dot == nil || !fraction.isEmpty,
            let second = Date(iso8601Timestamp: dot.map { String(text[..<$0] + text[fraction.endIndex...]) } ?? text)
        else { return nil }
        let whole = context.dates.iso8601(second)
        guard !fraction.isEmpty else { return whole }
        // `YYYY-MM-DDTHH:MM:SS` is 19 characters; the offset follows.
        let seconds = whole.index(whole.startIndex, offsetBy: 19, limitedBy: whole.endIndex) ?? whole.endIndex
        return whole[..<seconds] + "." + fraction + whole[seconds...]
    }

    /// How the SDK spells these words after the first.
    private static let acronyms = ["id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs"]

    /// `due_on` → `dueOn`, `app_url` → `appURL`, `assignee_ids` → `assigneeIDs`: the SDK's rule.
    static func swiftName(_ key: String) -> String {
        // Called for every key of every record printed; most are one word and stay as they are.
        guard key.contains("_") else { return key }
        let words = key.split(separator: "_").map { $0.lowercased() }
        guard let first = words.first else { return key }
        return first + words.dropFirst().map { acronyms[$0] ?? ($0.prefix(1).uppercased() + $0.dropFirst()) }.joined()
    }

}

import ArgumentParser
public import HTTPCore

/// Picks `--fields` out of records: the values for CSV, TSV and table cells, and the subset of
/// each record for JSON.
///
/// A field is a path of member names. Through a list of objects the path goes on in each element
/// (`assignees.name` is every assignee's name). A field is valid when at least one record has it
/// (its value may be `null`), or when every record that lacks it meets a `null` on its path (as
/// `nextClass.start` does once no class is left); a record that lacks it prints an empty cell or
/// `null`.
public struct FieldSelection: Sendable {
    /// The fields, in output order.
    public let fields: FieldList

    /// Checks `fields` against `records`.
    ///
    /// - Throws: `ValidationError` (exit 64) naming the first unknown field and the fields
    ///   there are at that level. With no records there is nothing to check against, and every
    ///   field is accepted.
    public init(_ fields: FieldList, records: [JSONValue]) throws {
        self.fields = fields
        guard !records.isEmpty else { return }
        for path in fields.paths {
            let reaches = records.map { Self.reach(path[...], in: $0) }
            // A path that meets only nulls cannot be checked, so it is taken, unless a record
            // shows the members there are and the path is not among them.
            guard reaches.contains(.found) || (reaches.contains(.null) && !reaches.contains(.missing)) else {
                throw ValidationError(Self.unknownFieldMessage(path, records: records))
            }
        }
    }

    /// How far a path gets in a record: to its end, to a null on the way, or nowhere.
    private enum Reach { case found, null, missing }

    private static func reach(_ path: ArraySlice<String>, in value: JSONValue) -> Reach {
        guard let name = path.first else { return .found }
        switch value {
        case .object(let members):
            return members[name].map { reach(path.dropFirst(), in: $0) } ?? .missing
        case .array(let items):
            let reaches = items.map { reach(path, in: $0) }
            if reaches.contains(.found) { return .found }
            return reaches.isEmpty || reaches.contains(.missing) ? .missing : .null
        case .null:
            return .null
        default:
            return .missing
        }
    }

    /// The fields every record has at the top level, in name order: the default CSV and TSV
    /// columns.
    public static func topLevelFields(of records: [JSONValue]) -> FieldList {
        var names = Set<String>()
        for record in records {
            if case .object(let members) = record { names.formUnion(members.keys) }
        }
        return FieldList(names.sorted())
    }

    /// The record's value for each field, in order; `nil` where the record lacks it.
    public func values(of record: JSONValue) -> [JSONValue?] {
        fields.paths.map { Self.lookup($0[...], in: record) }
    }

    /// The record cut down to the fields, keeping its nesting: `creator.name` gives
    /// `{"creator": {"name": …}}`. A field the record lacks is `null`.
    public func subset(of record: JSONValue) -> JSONValue {
        var result = JSONValue.object([:])
        for path in fields.paths {
            result = Self.merge(result, Self.project(path[...], from: record))
        }
        return result
    }

    // MARK: Paths

    static func lookup(_ path: ArraySlice<String>, in value: JSONValue) -> JSONValue? {
        guard let name = path.first else { return value }
        switch value {
        case .object(let members):
            guard let member = members[name] else { return nil }
            return lookup(path.dropFirst(), in: member)
        case .array(let items):
            let found = items.map { lookup(path, in: $0) }
            guard found.contains(where: { $0 != nil }) else { return nil }
            return .array(found.map { $0 ?? .null })
        case .null:
            // A member that is null now may hold the rest of the path another time (`nextClass`
            // once no class is left), so the field is there, without a value.
            return .null
        default:
            return nil
        }
    }

    private static func project(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
        guard let name = path.first else { return value }
        switch value {
        case .object(let members):
            return .object([name: members[name].map { project(path.dropFirst(), from: $0) } ?? .null])
        case .array(let items):
            return .array(items.map { project(path, from: $0) })
        default:
            return .null
        }
    }

    private static func merge(_ first: JSONValue, _ second: JSONValue) -> JSONValue {
        switch (first, second) {
        case (.object(var members), .object(let others)):
            for (key, value) in others {
                members[key] = members[key].map { merge($0, value) } ?? value
            }
            return .object(members)
        case (.array(let items), .array(let others)) where items.count == others.count:
            return .array(zip(items, others).map { merge($0, $1) })
        default:
            return second
        }
    }

    // MARK: Messages

    /// The member names found at `prefix` in any record, each as a full dotted path.
    static func fieldNames(under prefix: ArraySlice<String>, in records: [JSONValue]) -> [String] {
        var names = Set<String>()
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members): names.formUnion(members.keys)
            case .array(let items):
                for item in items { collect(item) }
            default: break
            }
        }
        for record in records {
            if let value = lookup(prefix, in: record) { collect(value) }
        }
        let stem = prefix.isEmpty ? "" : prefix.joined(separator: ".") + "."
        return names.sorted().map { stem + $0 }
    }

    private static func unknownFieldMessage(_ path: [String], records: [JSONValue]) -> String {
        var known = path[...].dropLast()
        while !known.isEmpty, !records.contains(where: { lookup(known, in: $0) != nil }) {
            known = known.dropLast()
        }
        let choices = fieldNames(under: known, in: records)
        let field = path.joined(separator: ".")
        guard !choices.isEmpty else {
            return "--fields: no field \"\(field)\"; \(known.joined(separator: ".")) has no fields of its own."
        }
        let place = known.isEmpty ? "the fields are" : "\(known.joined(separator: ".")) has"
        return "--fields: no field \"\(field)\"; \(place): \(choices.joined(separator: ", "))."
    }
}

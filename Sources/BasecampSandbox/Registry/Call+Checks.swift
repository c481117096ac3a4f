import Basecamp
import Foundation
import HTTPCore

/// Bodies checked as Basecamp checks them, before anything is kept.
extension Call {
    /// The body (the schema's members, see ``jsonObject()``) as `kind` keeps it: required ones present and not blank, a
    /// title that is not blank, dates that are dates, times that are times, people who are on the account, and values
    /// of the shape the record answers with. Instructions (`notify`…) are not kept; a step's `completion` becomes its
    /// `completed`.
    ///
    /// - Parameter current: The record an update changes; `nil` for a create.
    /// - Throws: ``APIFailure`` 422 naming the first member that fails.
    func checked(
        _ body: [String: JSONValue],
        for kind: RecordKind,
        in data: AccountData,
        current: Record? = nil
    ) throws -> [String: JSONValue] {
        try requireFields(of: body)
        if body[kind.titleMember] != nil, Self.isBlank(body[kind.titleMember]) {
            throw APIFailure.invalid(kind.titleMember, "can't be blank")
        }
        let example = Templates.example(of: kind)
        for (key, value) in body where value != .null {
            let text = value.stringValue ?? ""
            if key.hasSuffix("_on"), text.count != 10 || CalendarDate(text) == nil {
                throw APIFailure.invalid(key, "must be a date like 2026-02-06")
            }
            if key.hasSuffix("_ids") { _ = try people(body, key, data: data) }
            // All-day schedule entries travel as bare dates, as the SDK's edits send them.
            if key.hasSuffix("_at"), key != "completed_at",
                WireFormat.timestamp(from: text, allowingDateOnly: true) == nil
            {
                throw APIFailure.invalid(key, "must be a time like 2026-02-06T09:00:00Z, or a date for all day")
            }
            // What is kept is answered back, so a member must have the shape the SDK reads.
            if let expected = example[key]?.shapeName, let shape = value.shapeName, shape != expected {
                throw APIFailure.invalid(key, "must be \(expected)")
            }
        }
        if let starts = body["starts_on"]?.stringValue, let due = body["due_on"]?.stringValue, starts > due {
            throw APIFailure.invalid("starts_on", "must not be after due_on")
        }
        var fields = body
        for instruction in ["notify", "subscriptions", "completion", "status"] { fields[instruction] = nil }
        if let completion = body["completion"]?.stringValue {
            fields["completed"] = .bool(completion == "on")
            fields["completed_at"] = completion == "on" ? .string(now) : .null
        }
        switch kind {
        case .upload: try checkFile(&fields, current: current, data: data)
        case .webhook: try checkWebhook(&fields, creating: current == nil)
        case .project where current == nil: fields["people_ids"] = [.integer(data.meID)]
        default: break
        }
        return fields
    }

    /// The members the operation's body schema requires, none of them blank.
    func requireFields(of body: [String: JSONValue]) throws {
        for field in BasecampExamples.body(schema: operation.bodySchema ?? "").required where Self.isBlank(body[field])
        {
            throw APIFailure.invalid(field, "can't be blank")
        }
    }

    func people(_ body: [String: JSONValue], _ field: String, data: AccountData) throws -> [Int] {
        guard let value = body[field], value != .null else { return [] }
        guard let items = value.arrayValue else { throw APIFailure.invalid(field, "must be a list of person ids") }
        return try items.map { item in
            guard let id = item.intValue, data.person(id) != nil else {
                throw APIFailure.invalid(field, "names someone who is not on this account")
            }
            return id
        }
    }

    static func isBlank(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return true
        case .string(let text)?: return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        default: return false
        }
    }

    /// An upload's file: `attachable_sgid` must name an attachment, whose name the upload takes unless `base_name`
    /// renames it (keeping the extension); a new file on an existing upload keeps the old one as a version.
    private func checkFile(_ fields: inout [String: JSONValue], current: Record?, data: AccountData) throws {
        let baseName = fields.removeValue(forKey: "base_name")?.stringValue
        var original = current?.title ?? ""
        if let sgid = fields["attachable_sgid"]?.stringValue {
            guard let attachment = data.attachment(sgid) else {
                throw APIFailure.invalid("attachable_sgid", "is not an attachment on this account")
            }
            original = attachment.filename
            if let current, let old = current.fields["attachable_sgid"] {
                fields["versions"] = .array((current.fields["versions"]?.arrayValue ?? []) + [old])
            }
        }
        var name = original
        if let baseName, !baseName.isEmpty {
            let ext = (original as NSString).pathExtension
            name = ext.isEmpty ? baseName : baseName + "." + ext
        }
        fields["filename"] = .string(name)
    }

    /// A webhook's `payload_url` must be https, as Basecamp's, or http to this machine for tests;
    /// `types` are recording types (none: all); `secret`, the sandbox's own, signs deliveries.
    private func checkWebhook(_ fields: inout [String: JSONValue], creating: Bool) throws {
        if let text = fields["payload_url"]?.stringValue {
            guard let url = URL(string: text), let host = url.host, let scheme = url.scheme?.lowercased(),
                scheme == "https" || (scheme == "http" && URLPolicy.isLoopback(host: host))
            else { throw APIFailure.invalid("payload_url", "must be an https URL") }
        }
        if let types = fields["types"], types != .null, types.arrayValue?.allSatisfy({ $0.stringValue != nil }) != true
        {
            throw APIFailure.invalid("types", "must be a list of recording types such as Todo")
        }
        guard creating else { return }
        fields["active"] = fields["active"] ?? true
        if fields["secret"]?.stringValue?.isEmpty != false {
            fields["secret"] = .string(BasecampSandboxModule.defaultWebhookSecret)
        }
    }
}

extension JSONValue {
    /// What kind of JSON value it is, for shape checks; `nil` for `null`, which fits anything.
    fileprivate var shapeName: String? {
        switch self {
        case .null: nil
        case .bool: "true or false"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

import Foundation

/// The examples in each generated command's help: the command with its required options filled
/// in, and the same call through `basecamp api`. They name records of the sandbox's seeded account
/// (`BasecampSandboxSeed`), so each runs as printed with `--sandbox`; a test runs them all.
extension CLIEmitter {
    /// Seeded records by path parameter (the stateful resources), then a stand-in id that any
    /// operation answered from the Spec's examples accepts.
    static let exampleIDs: [String: String] = [
        "bucketId": "2085958504",
        "projectId": "2085958504",
        "todosetId": "1069479300",
        "todolistId": "1069479338",
        "id": "1069479338",
        "todoId": "1069479395",
        "recordingId": "1069479988",
        "boardId": "1069479340",
        "messageId": "1069479988",
        "personId": "1049715913",
        "commentId": "1069500128",
        "vaultId": "4085958504",
        "uploadId": "1069479913",
        "documentId": "1069481024",
        "cardTableId": "32085958504",
        "columnId": "1069490001",
        "cardId": "1069490010",
        "stepId": "1069490020",
        "scheduleId": "42085958504",
        "entryId": "1069490030",
        "campfireId": "52085958504",
        "lineId": "1069490040",
        "questionnaireId": "62085958504",
        "questionId": "1069490050",
        "answerId": "1069490060",
        "typeId": "1069490070",
        "boostId": "1069490080",
    ]
    static let standInID = "1069479351"

    /// Text values by body or query field; anything else is `Example`.
    static let exampleTexts: [String: String] = [
        "q": "milk",
        "name": "'Launch plan'",
        "title": "'Launch plan'",
        "subject": "Kickoff",
        "content": "'Ship it'",
        "summary": "'Ship it'",
        "date": "2024-05-01",
        "url": "https://example.com/doc",
        "payload_url": "https://example.com/hooks/basecamp",
        "starts_at": "2024-05-01T09:00:00Z",
        "ends_at": "2024-05-01T10:00:00Z",
        "hours": "1.5",
        "color": "blue",
        "icon": "rocket",
        "types": "Todo",
        "type": "Todo",
        "readables": "Todo",
        "service": "dropbox",
        "service_name": "Dropbox",
        "document_type": "document",
        "tool_type": "Message::Board",
        "attachable_sgid": "BAh7CEkiCGdpZAY6BkVU",
        "completion": "'Ship it'",
    ]

    /// `basecamp --sandbox comments list --recording 1069479395`.
    func example(_ operation: OperationModel) -> String {
        var words = ["basecamp", "--sandbox", Self.kebab(operation.service), Self.kebab(operation.swiftName)]
        for input in inputs(operation) where input.isRequired {
            let value = exampleValue(input)
            if input.isPositional {
                words.append(value)
            } else if input.shape == .flag, input.location == .body {
                words.append("--" + input.optionName)
            } else {
                words += ["--" + input.optionName, value]
            }
        }
        switch operation.body {
        case .octetStream, .multipart: words += ["--file", "report.pdf"]
        case .json:
            let members = requiredBodyOnlyMembers(operation)
            if !members.isEmpty { words += ["--body", "'{" + members.joined(separator: ",") + "}'"] }
        case nil: break
        }
        return words.joined(separator: " ")
    }

    /// `"name":value` for each required body member that has no option of its own (an object,
    /// such as a calendar's attributes), with a sample built from its schema.
    private func requiredBodyOnlyMembers(_ operation: OperationModel) -> [String] {
        guard case .json(let schemaName) = operation.body, let schema = model.schema(named: schemaName),
            case .object(let properties) = schema.kind
        else { return [] }
        let offered = Set(inputs(operation).filter { $0.location == .body }.map(\.wireName))
        return properties.filter { $0.isRequired && !offered.contains($0.jsonName) }.map { property in
            "\"\(property.jsonName)\":\(sampleJSON(property.type, name: property.jsonName, depth: 0))"
        }
    }

    /// A small JSON value of `type`: an object gets its required members (or its first, when
    /// none is required).
    private func sampleJSON(_ type: TypeRef, name: String, depth: Int) -> String {
        switch type {
        case .string, .dateTime, .binary, .json:
            return "\"" + (Self.exampleTexts[name] ?? "Example").replacingOccurrences(of: "'", with: "") + "\""
        case .int32, .int64: return name.hasSuffix("id") ? Self.standInID : "1"
        case .double: return "1.5"
        case .bool: return "true"
        case .date: return "\"2024-05-01\""
        case .inlineEnum(_, let values): return "\"\(values.first ?? "")\""
        case .array(let element): return "[" + sampleJSON(element, name: name, depth: depth) + "]"
        case .map: return "{}"
        case .ref(let reference):
            guard depth < 3, let schema = model.schema(named: reference) else { return "{}" }
            switch schema.kind {
            case .stringEnum(let values): return "\"\(values.first ?? "")\""
            case .alias(let aliased): return sampleJSON(aliased, name: name, depth: depth + 1)
            case .object(let properties):
                let chosen =
                    properties.filter(\.isRequired).isEmpty
                    ? Array(properties.prefix(1)) : properties.filter(\.isRequired)
                let members = chosen.map {
                    "\"\($0.jsonName)\":" + sampleJSON($0.type, name: $0.jsonName, depth: depth + 1)
                }
                return "{" + members.joined(separator: ",") + "}"
            }
        }
    }

    /// `basecamp --sandbox api ListComments --param recordingId=1069479395`; uploads are not
    /// possible through `api`, which says so, and get the service command's example instead.
    func rawExample(_ operation: OperationModel) -> String {
        var words = ["basecamp", "--sandbox", "api", operation.id]
        let inputs = inputs(operation)
        for input in inputs where input.location != .body && input.isRequired {
            words += ["--param", "\(input.wireName)=\(exampleValue(input).replacingOccurrences(of: "'", with: ""))"]
        }
        switch operation.body {
        case .json:
            let required = inputs.filter { $0.location == .body && $0.isRequired }
            let members =
                required.map { input in "\"\(input.wireName)\":\(jsonValue(input))" }
                + requiredBodyOnlyMembers(operation)
            guard !members.isEmpty else { break }
            words += ["--body", "'{" + members.joined(separator: ",") + "}'"]
        case .octetStream, .multipart:
            return example(operation)
        case nil:
            break
        }
        return words.joined(separator: " ")
    }

    func exampleValue(_ input: Input) -> String {
        if let first = input.allowedValues?.first { return first }
        switch input.shape {
        case .integer, .integers, .number:
            return Self.exampleIDs[input.location == .path ? input.wireName : Self.camel(idName(input.wireName))]
                ?? (input.location == .path || input.wireName.hasSuffix("id") || input.wireName.hasSuffix("ids")
                    ? Self.standInID : "1")
        case .day:
            return "today"
        case .flag:
            return "true"
        case .text, .texts:
            if input.location == .path { return Self.exampleIDs[input.wireName] ?? Self.exampleTexts["date"] ?? "" }
            return Self.exampleTexts[input.wireName] ?? "Example"
        }
    }

    /// `person_id` → `person-id`, `assignee_ids` → `assignee-id`: the key for ``exampleIDs``.
    private func idName(_ wire: String) -> String {
        let singular = wire.hasSuffix("_ids") ? String(wire.dropLast()) : wire
        return singular.replacingOccurrences(of: "_", with: "-")
    }

    private func jsonValue(_ input: Input) -> String {
        let value = exampleValue(input).replacingOccurrences(of: "'", with: "")
        switch input.shape {
        case .integer, .number: return value
        case .integers: return "[\(value)]"
        case .flag: return "true"
        case .texts: return "[\"\(value)\"]"
        case .day: return "\"2024-05-01\""
        case .text: return "\"\(value)\""
        }
    }
}

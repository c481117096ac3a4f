import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// The token every test client sends; tests assert it never leaks.
let testToken = "test-token-4f71ea23"

/// A Basecamp client on a scripted transport and a test clock.
func makeBasecamp(
    _ transport: ScriptedTransport,
    config: BasecampConfig = BasecampConfig(),
    hooks: any Hooks = NoopHooks(),
    clock: TestClock = TestClock()
) throws -> BasecampClient {
    try BasecampClient(
        accessToken: testToken,
        userAgent: "BasecampTests (tests@example.com)",
        config: config,
        hooks: hooks,
        transport: transport,
        timeSource: clock
    )
}

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Reads a file of Spec/Basecamp.
func specData(_ relativePath: String) throws -> Data {
    try Data(contentsOf: repositoryRoot.appendingPathComponent("Spec/Basecamp/" + relativePath))
}

/// An example payload from Spec/Basecamp/examples.
func example(_ name: String) throws -> JSONValue {
    try JSONValue(parsing: specData("examples/\(name).json"))
}

/// A JSON response step.
func jsonResponse(
    _ value: JSONValue,
    status: Int = 200,
    headers: [String: String] = [:]
) -> ScriptedTransport.Step {
    var fields = HTTPFields()
    for (name, text) in headers.sorted(by: { $0.key < $1.key }) {
        if let fieldName = HTTPField.Name(name) { fields[fieldName] = text }
    }
    return .json(value, status: status, headers: fields)
}

/// Records every hook event that carries operation metadata.
final class OperationRecorder: Hooks {
    private let storage = Locked<[OperationMetadata]>([])

    var started: [OperationMetadata] { storage.withLock { $0 } }

    func operationStarted(_ event: OperationStartEvent) {
        storage.withLock { $0.append(event.operation) }
    }
}

/// The Spec, parsed once, with a generator of complete sample payloads for any schema.
struct SpecSamples: Sendable {
    let schemas: [String: JSONValue]
    let document: JSONValue

    static let shared: SpecSamples? = {
        guard let data = try? specData("openapi.json"), let document = try? JSONValue(parsing: data) else {
            return nil
        }
        return SpecSamples(schemas: document["components"]?["schemas"]?.objectValue ?? [:], document: document)
    }()

    /// A payload with every property of `schema` set (first enum value, non-null variants).
    func sample(schema name: String) -> JSONValue {
        sample(.object(["$ref": .string("#/components/schemas/\(name)")]), depth: 0)
    }

    func sample(_ schema: JSONValue, depth: Int) -> JSONValue {
        guard depth < 40 else { return .null }
        if let reference = schema["$ref"]?.stringValue {
            let name = String(reference.split(separator: "/").last ?? "")
            return sample(schemas[name] ?? .null, depth: depth + 1)
        }
        if let options = schema["anyOf"]?.arrayValue {
            let chosen = options.first { $0["type"]?.stringValue != "null" } ?? .null
            return sample(chosen, depth: depth + 1)
        }
        if let values = schema["enum"]?.arrayValue, let first = values.first(where: { !$0.isNull }) {
            return first
        }
        let type: String?
        if let list = schema["type"]?.arrayValue {
            type = list.compactMap(\.stringValue).first { $0 != "null" }
        } else {
            type = schema["type"]?.stringValue
        }
        switch type {
        case "string":
            switch schema["format"]?.stringValue {
            case "date": return "2024-06-01"
            case "date-time": return "2024-06-01T10:00:00Z"
            default: return "sample"
            }
        case "integer": return 1
        case "number": return 1.5
        case "boolean": return true
        case "array":
            // Recursive schemas (an assignment's children) end in an empty list.
            return .array(depth > 16 ? [] : [sample(schema["items"] ?? .null, depth: depth + 1)])
        case "object":
            if let properties = schema["properties"]?.objectValue {
                var members: [String: JSONValue] = [:]
                for (key, value) in properties { members[key] = sample(value, depth: depth + 1) }
                return .object(members)
            }
            if let additional = schema["additionalProperties"] {
                return .object(["key": sample(additional, depth: depth + 1)])
            }
            return .object([:])
        default:
            return .object(["any": "value"])
        }
    }

    /// The success response's sample body for `operation`, or nil when it has none.
    func responseBody(for operation: BasecampOperation) -> JSONValue? {
        guard let schema = operation.responseSchema else { return nil }
        if schema.hasPrefix("[") {
            return .array([sample(schema: String(schema.dropFirst().dropLast()))])
        }
        return sample(schema: schema)
    }
}

/// Arguments for one operation's generated method, chosen by fixed rules the tests mirror.
final class OperationSamples: Sendable {
    let operation: BasecampOperation
    let spec: SpecSamples
    private let sentBody = Locked<JSONValue?>(nil)

    init(operation: BasecampOperation, spec: SpecSamples) {
        self.operation = operation
        self.spec = spec
    }

    /// The JSON body handed to the method, if any.
    var body: JSONValue? { sentBody.withLock { $0 } }

    /// Path parameter `index` (after `accountId`): 101, 102, …
    func id(_ index: Int) -> Int64 { 101 + Int64(index) }
    /// A date path parameter.
    func day(_ index: Int) -> CalendarDate { CalendarDate(year: 2024, month: 5, day: 1 + index) }
    /// Query values by kind.
    func string(_ name: String) -> String { "s-\(name)" }
    func integer(_ name: String) -> Int { 7 }
    func int64(_ name: String) -> Int64 { 7 }
    func bool(_ name: String) -> Bool { true }
    func date(_ name: String) -> CalendarDate { CalendarDate(year: 2024, month: 6, day: 15) }
    func ids(_ name: String) -> [Int64] { [11, 12] }
    func strings(_ name: String) -> [String] { ["s-1", "s-2"] }
    /// Raw body bytes.
    var bytes: Data { Data("sample-bytes".utf8) }

    /// The request body: a complete sample from the Spec, decoded into the generated type.
    func body<Body: Decodable>(_ type: Body.Type) throws -> Body {
        let json = spec.sample(schema: operation.bodySchema ?? "")
        sentBody.withLock { $0 = json }
        return try JSONDecoder().decode(Body.self, from: json.encoded())
    }

    /// The path the rules above produce.
    var expectedPath: String {
        var path = operation.pathTemplate
        var index = 0
        for parameter in operation.pathParameters {
            let value: String
            if parameter.name == "accountId" {
                value = "999"
            } else {
                value = parameter.kind == .date ? day(index).description : String(id(index))
                index += 1
            }
            path = path.replacingOccurrences(of: "{\(parameter.name)}", with: value)
        }
        return path
    }

    /// The query pairs the rules above produce, in order.
    var expectedQuery: [String] {
        var pairs: [String] = []
        for parameter in operation.queryParameters where !(operation.isPaginated && parameter.name == "page") {
            switch parameter.kind {
            case .string: pairs.append("\(parameter.name)=\(string(parameter.name))")
            case .integer: pairs.append("\(parameter.name)=7")
            case .boolean: pairs.append("\(parameter.name)=true")
            case .date: pairs.append("\(parameter.name)=2024-06-15")
            case .integerList: pairs += ["\(parameter.name)=11", "\(parameter.name)=12"]
            case .stringList: pairs += ["\(parameter.name)=s-1", "\(parameter.name)=s-2"]
            }
        }
        return pairs
    }
}

extension BasecampOperation: CustomTestStringConvertible {
    /// The operation id, so each parameterised case is named after its operation.
    public var testDescription: String { id }
}

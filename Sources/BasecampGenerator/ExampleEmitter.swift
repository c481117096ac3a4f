import Foundation
import HTTPCore

/// Builds an example payload for every schema an operation answers with, for the sandbox to serve:
/// the hand-written file in `Spec/Basecamp/examples/<Schema>.json` when there is one, otherwise
/// one synthesised from the schema (every property present, first enum value, nested schemas
/// from their own examples), so every operation can answer with something the SDK decodes.
struct ExampleEmitter {
    let model: APIModel
    let handWritten: [String: JSONValue]

    /// Reads `examples/*.json` next to the Spec; a file that is not JSON stops the generator.
    static func loadExamples(directory: String) throws -> [String: JSONValue] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return [:] }
        var examples: [String: JSONValue] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            guard let data = manager.contents(atPath: path) else { throw SpecError("cannot read \(path)") }
            do {
                examples[String(name.dropLast(5))] = try JSONValue(parsing: data)
            } catch {
                throw SpecError("\(path) is not valid JSON: \(error)")
            }
        }
        return examples
    }

    /// The schemas some operation answers with (directly or as list items), sorted.
    var responseSchemas: [String] {
        var names = Set<String>()
        for operation in model.operations {
            guard case .value(let type) = operation.response else { continue }
            switch type {
            case .ref(let name): names.insert(name)
            case .array(.ref(let name)): names.insert(name)
            default: break
            }
        }
        return names.sorted()
    }

    func example(schema name: String) -> JSONValue {
        if let written = handWritten[name] { return written }
        return synthesise(.ref(name), field: "", stack: [])
    }

    private func synthesise(_ type: TypeRef, field: String, stack: [String]) -> JSONValue {
        switch type {
        case .string:
            if field == "type", let owner = stack.last {
                return .string(owner.hasSuffix("Bucket") ? "Project" : "Recording")
            }
            return .string(exampleText(field))
        case .int32: return .integer(field == "id" || field.hasSuffix("_id") ? 1_069_479_395 : 1)
        case .int64: return .integer(field == "id" || field.hasSuffix("_id") || field.isEmpty ? 1_069_479_395 : 1)
        case .double: return .number(1.5)
        case .bool: return .bool(false)
        case .date: return .string("2026-02-06")
        case .dateTime: return .string("2026-01-31T08:36:22.481Z")
        case .binary: return .string("")
        case .json: return .object([:])
        case .inlineEnum(_, let values): return .string(values.first ?? "")
        case .array(let element):
            // A cycle or a deep nest gets an empty list rather than an endless example.
            if case .ref(let name) = element, stack.contains(name) || stack.count > 3 { return .array([]) }
            return .array([synthesise(element, field: field, stack: stack)])
        case .map: return .object([:])
        case .ref(let name):
            if let written = handWritten[name] { return written }
            guard let schema = model.schema(named: name) else { return .null }
            switch schema.kind {
            case .stringEnum(let values): return .string(values.first ?? "")
            case .alias(let target): return synthesise(target, field: field, stack: stack + [name])
            case .object(let properties):
                var members: [String: JSONValue] = [:]
                for property in properties {
                    if case .ref(let child) = property.type, stack.contains(child) || stack.count > 5 {
                        // Only required members are kept once the nest is deep, so cycles end.
                        guard property.isRequired, !property.isNullable else { continue }
                    }
                    members[property.jsonName] = synthesise(
                        property.type,
                        field: property.jsonName,
                        stack: stack + [name]
                    )
                }
                return .object(members)
            }
        }
    }

    private func exampleText(_ field: String) -> String {
        if field == "url" || field.hasSuffix("_url") {
            return "https://3.basecampapi.com/195539477/\(field.isEmpty ? "record" : field)/1069479395.json"
        }
        if field.hasSuffix("email_address") || field == "email" { return "victor@honchodesign.com" }
        if field == "status" { return "active" }
        let words = Naming.words(field)
        return words.isEmpty ? "Example" : "Example " + words.joined(separator: " ")
    }

    // MARK: Files

    /// `Sources/BasecampSandbox/Generated/BasecampExamples.swift`.
    func sandboxFile() throws -> String {
        var writer = CodeWriter.generatedFile(from: "Spec/Basecamp (openapi.json and examples/)")
        writer.doc(
            "Example payloads for every schema a Basecamp operation answers with, embedded at build time so the\nsandbox never reads the Spec at run time. Hand-written examples come from `Spec/Basecamp/examples`; the\nothers are built from the schema with every property present."
        )
        writer.block("enum BasecampExamples") { w in
            w.doc("Compact JSON for the schema `name`, or `nil` when no operation answers with it.")
            w.block("static func json(schema name: String) -> String?") { w in
                let cases = responseSchemas.map { name in
                    (literal(name), "return #\"\(example(schema: name).description)\"#")
                }
                w.switchStatement("name", cases: cases, default: "return nil")
            }
            w.line()
            w.doc(
                "The top-level members of each JSON request body schema (Basecamp ignores any other a body sends),\nand those it requires, for the sandbox's `422`s."
            )
            w.block("static func body(schema name: String) -> (members: Set<String>, required: [String])") { w in
                let cases = jsonBodySchemas.compactMap { operationBody -> (String, String)? in
                    guard let schema = model.schema(named: operationBody), case .object(let properties) = schema.kind,
                        !properties.isEmpty
                    else { return nil }
                    let members = properties.map(\.jsonName).sorted().map(literal).joined(separator: ", ")
                    let required = properties.filter(\.isRequired).map(\.jsonName).sorted().map(literal)
                    return (literal(operationBody), "return ([\(members)], [\(required.joined(separator: ", "))])")
                }
                w.switchStatement("name", cases: cases, default: "return ([], [])")
            }
            w.line()
            w.doc(
                "The body members a whole-record replace clears when the body leaves them out (the operation's\n`x-basecamp-write-semantics`, less what it preserves); empty for an operation that merges."
            )
            w.block("static func clearedWhenOmitted(operation id: String) -> [String]") { w in
                let cases = model.operations.compactMap { operation -> (String, String)? in
                    guard let semantics = operation.writeSemantics, semantics.clearsOmitted,
                        case .json(let body)? = operation.body, let schema = model.schema(named: body),
                        case .object(let properties) = schema.kind
                    else { return nil }
                    let cleared = properties.map(\.jsonName).filter { !semantics.preservedOnOmission.contains($0) }
                    return (literal(operation.id), "return [\(cleared.sorted().map(literal).joined(separator: ", "))]")
                }
                w.switchStatement("id", cases: cases.sorted { $0.0 < $1.0 }, default: "return []")
            }
        }
        for name in responseSchemas where example(schema: name).description.contains("\"#") {
            throw SpecError("the example for \(name) contains the raw-string delimiter \"#")
        }
        return writer.text
    }

    private var jsonBodySchemas: [String] {
        Set(
            model.operations.compactMap { operation -> String? in
                if case .json(let schema) = operation.body { return schema }
                return nil
            }
        ).sorted()
    }

    /// `Tests/BasecampSandboxTests/Generated/ExampleDecoding.swift`: decodes each embedded example with
    /// its SDK model, so an example the SDK cannot read fails a test.
    func decodingTestFile() -> String {
        var writer = CodeWriter.generatedFile(imports: ["Basecamp", "Foundation"])
        writer.line("/// Decodes `data` as the SDK model of `schema`; false when the schema has no model to decode.")
        writer.block("func decodeExample(schema: String, _ data: Data) throws -> Bool") { w in
            w.line("let decoder = JSONDecoder()")
            let cases = responseSchemas.compactMap { name -> (String, String)? in
                guard let schema = model.schema(named: name) else { return nil }
                if case .alias(.binary) = schema.kind { return nil }
                return (literal(name), "_ = try decoder.decode(\(schema.swiftName).self, from: data)")
            }
            w.switchStatement("schema", cases: cases, default: "return false")
            w.line("return true")
        }
        return writer.text
    }
}

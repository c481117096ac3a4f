/// Writes one Swift file per schema.
struct ModelEmitter {
    let model: APIModel
    /// Operation ids that send each request schema, for doc comments.
    let bodyUsers: [String: [String]]

    init(model: APIModel) {
        self.model = model
        var users: [String: [String]] = [:]
        for operation in model.operations {
            switch operation.body {
            case .json(let schema), .octetStream(let schema): users[schema, default: []].append(operation.id)
            default: break
            }
        }
        bodyUsers = users
    }

    func swiftType(_ type: TypeRef) -> String {
        switch type {
        case .string: return "String"
        case .int32: return "Int"
        case .int64: return "Int64"
        case .double: return "Double"
        case .bool: return "Bool"
        case .date: return "CalendarDate"
        case .dateTime: return "Date"
        case .binary: return "Data"
        case .json: return "JSONValue"
        case .ref(let name): return model.schema(named: name)?.swiftName ?? name
        case .array(let element): return "[\(swiftType(element))]"
        case .map(let value): return "[String: \(swiftType(value))]"
        case .inlineEnum(let name, _): return name
        }
    }

    func file(for schema: SchemaModel) -> String {
        var writer = CodeWriter.generatedFile(imports: ["Foundation", "HTTPCore"])
        switch schema.kind {
        case .object(let properties):
            emitStruct(schema, properties: properties, into: &writer)
        case .stringEnum(let values):
            writer.doc(
                described(
                    schema,
                    "Basecamp's `\(schema.name)` values. A value this version of the SDK does not know decodes as\n``unknown(_:)`` instead of failing."
                )
            )
            emitEnum(name: schema.swiftName, values: values, into: &writer)
        case .alias(let type):
            let what: String
            switch type {
            case .binary: what = "raw bytes, sent as the request body as they are"
            case .map: what = "an object with free-form keys"
            default: what = "a single value"
            }
            writer.doc(described(schema, "Basecamp's `\(schema.name)`: \(what)."))
            writer.line("public typealias \(schema.swiftName) = \(swiftType(type))")
        }
        return writer.text
    }

    /// The Spec's description of `schema` as the summary, followed by `generated`; `generated`
    /// alone when the Spec has none.
    private func described(_ schema: SchemaModel, _ generated: String) -> String {
        guard let description = schema.description else { return generated }
        return description + "\n\n" + generated
    }

    private func structDoc(_ schema: SchemaModel) -> String {
        if let users = bodyUsers[schema.name] {
            let list = users.map { "`\($0)`" }.joined(separator: ", ")
            return described(schema, "The request body of \(list) (schema `\(schema.name)`).")
        }
        if schema.name.hasSuffix("ErrorResponseContent") {
            return described(
                schema,
                "An error body Basecamp sends (schema `\(schema.name)`); the SDK reads these into `APIError`."
            )
        }
        return described(schema, "Basecamp's `\(schema.name)` object.")
    }

    private func ordered(_ properties: [PropertyModel]) -> [PropertyModel] {
        properties.filter { !$0.isOptional } + properties.filter(\.isOptional)
    }

    private func propertyDoc(_ property: PropertyModel) -> String {
        var text = property.description.map { $0 + "\n\n" } ?? ""
        text += "`\(property.jsonName)`"
        switch property.type {
        case .date: text += ", a calendar day"
        case .dateTime: text += ", a timestamp"
        default: break
        }
        if property.isOptional { text += "; `nil` when absent or null" }
        text += "."
        switch property.quirk {
        case "may-be-float": text += " May arrive as a whole-valued float such as `1024.0`."
        case "may-be-numeric-string": text += " May arrive as a string of digits."
        case "may-be-date-only": text += " May arrive as a bare date (`2024-05-01`), read as midnight UTC."
        default: break
        }
        if property.format == "password" { text += " Personal data: keep it out of logs." }
        if property.isDeprecated { text += " Deprecated by Basecamp." }
        return text
    }

    private func emitStruct(_ schema: SchemaModel, properties: [PropertyModel], into writer: inout CodeWriter) {
        let fields = ordered(properties)
        writer.doc(structDoc(schema))
        writer.block("public struct \(schema.swiftName): Codable, Sendable, Hashable") { w in
            for property in fields {
                w.doc(propertyDoc(property))
                let type = swiftType(property.type) + (property.isOptional ? "?" : "")
                w.line("public var \(Naming.identifier(property.swiftName)): \(type)")
            }
            for property in fields {
                if case .inlineEnum(let name, let values) = property.type {
                    w.line()
                    w.doc(
                        "The values of `\(property.jsonName)`. A value this version of the SDK does not know decodes as\n``unknown(_:)`` instead of failing."
                    )
                    emitEnum(name: name, values: values, into: &w)
                }
            }
            w.line()
            w.doc("Creates a value; optional properties default to `nil`.")
            w.line("public init(")
            w.indent { w in
                for (index, property) in fields.enumerated() {
                    var parameter = "\(Naming.identifier(property.swiftName)): \(swiftType(property.type))"
                    if property.isOptional { parameter += "? = nil" }
                    w.line(parameter + (index == fields.count - 1 ? "" : ","))
                }
            }
            w.block(")", lines: fields.map { "self.\($0.swiftName) = \(Naming.identifier($0.swiftName))" })
            w.line()
            w.block("enum CodingKeys: String, CodingKey", lines: fields.map(codingKey))
            w.line()
            w.doc("Decodes Basecamp's JSON; keys this version of the SDK does not know are ignored.")
            w.block(
                "public init(from decoder: any Decoder) throws",
                lines: ["let container = try decoder.container(keyedBy: CodingKeys.self)"]
                    + fields.map { "\($0.swiftName) = \(decodeExpression($0))" }
            )
            w.line()
            w.doc("Encodes Basecamp's JSON; `nil` properties are left out.")
            w.block(
                "public func encode(to encoder: any Encoder) throws",
                lines: ["var container = encoder.container(keyedBy: CodingKeys.self)"] + fields.map(encodeStatement)
            )
        }
    }

    private func codingKey(_ property: PropertyModel) -> String {
        let name = Naming.identifier(property.swiftName)
        return property.swiftName == property.jsonName ? "case \(name)" : "case \(name) = \(literal(property.jsonName))"
    }

    private func decodeExpression(_ property: PropertyModel) -> String {
        let key = "." + Naming.identifier(property.swiftName)
        let suffix = property.isOptional ? "IfPresent" : ""
        switch (property.type, property.quirk) {
        case (.dateTime, let quirk):
            let dateOnly = quirk == "may-be-date-only" ? ", allowingDateOnly: true" : ""
            return "try container.decodeTimestamp\(suffix)(forKey: \(key)\(dateOnly))"
        case (.int32, "may-be-float"), (.int64, "may-be-float"):
            return "try container.decodeWholeNumber\(suffix)(\(swiftType(property.type)).self, forKey: \(key))"
        case (.int32, "may-be-numeric-string"), (.int64, "may-be-numeric-string"):
            return "try container.decodeNumericString\(suffix)(\(swiftType(property.type)).self, forKey: \(key))"
        default:
            return "try container.decode\(suffix)(\(swiftType(property.type)).self, forKey: \(key))"
        }
    }

    private func encodeStatement(_ property: PropertyModel) -> String {
        let key = "." + Naming.identifier(property.swiftName)
        let suffix = property.isOptional ? "IfPresent" : ""
        if property.type == .dateTime {
            return "try container.encodeTimestamp\(suffix)(\(property.swiftName), forKey: \(key))"
        }
        return "try container.encode\(suffix)(\(property.swiftName), forKey: \(key))"
    }

    func emitEnum(name: String, values: [String], into writer: inout CodeWriter) {
        writer.block("public enum \(name): RawRepresentable, Codable, Sendable, Hashable") { w in
            for value in values {
                w.doc("`\(value)`.")
                w.line("case \(Naming.caseName(value))")
            }
            w.doc("A value this version of the SDK does not know, kept as sent.")
            w.line("case unknown(String)")
            w.line()
            w.doc("The case for `rawValue`, or ``unknown(_:)``.")
            w.block(
                "public init(rawValue: String)",
                lines: ["switch rawValue {"]
                    + values.map { "case \(literal($0)): self = .\(Naming.caseName($0))" }
                    + ["default: self = .unknown(rawValue)", "}"]
            )
            w.line()
            w.doc("The value on the wire.")
            w.block(
                "public var rawValue: String",
                lines: ["switch self {"]
                    + values.map { "case .\(Naming.caseName($0)): return \(literal($0))" }
                    + ["case .unknown(let value): return value", "}"]
            )
            w.line()
            w.doc("Decodes the wire string; unknown strings become ``unknown(_:)``.")
            w.block(
                "public init(from decoder: any Decoder) throws",
                lines: ["self.init(rawValue: try decoder.singleValueContainer().decode(String.self))"]
            )
            w.line()
            w.doc("Encodes the wire string.")
            w.block(
                "public func encode(to encoder: any Encoder) throws",
                lines: ["var container = encoder.singleValueContainer()", "try container.encode(rawValue)"]
            )
        }
    }
}

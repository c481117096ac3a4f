/// Writes the `basecamp` command's subcommands: one group per service and one small command per
/// operation, whose options come from the operation's path, query and body parameters and whose
/// help comes from the Spec. Each command only declares its options and lists what it passes on;
/// the hand-written `OperationRunner` does the calling and printing, so the generated code stays
/// cheap to type-check.
struct CLIEmitter {
    let model: APIModel

    /// Hand-written commands that join a service's group (`basecamp webhooks listen`), by service.
    static let handWrittenSubcommands: [String: [(name: String, type: String)]] = [
        "webhooks": [("listen", "WebhooksListenCommand")]
    ]

    /// Option names the hand-written option groups and the root command already use.
    static let reservedOptions: Set<String> = [
        "json", "verbose", "sandbox", "base-url", "timeout", "no-retry", "token", "account", "help", "version",
        "limit", "page", "project", "body", "file", "content-type", "filename",
    ]

    /// One command-line input of an operation.
    struct Input {
        enum Location {
            case path
            case query
            case body
        }

        /// How the value is declared and handed to the invocation.
        enum Shape {
            case integer
            case text
            case flag
            case day
            case integers
            case texts
            case number
        }

        var location: Location
        var wireName: String
        var optionName: String
        var property: String
        var shape: Shape
        var isRequired: Bool
        var isPositional: Bool
        var help: String
        /// The values the Spec allows, for an enum: listed in the help and checked when parsed.
        var allowedValues: [String]? = nil
    }

    // MARK: Names

    static func kebab(_ name: String) -> String {
        Naming.words(name).joined(separator: "-")
    }

    static func camel(_ kebab: String) -> String {
        let words = kebab.split(separator: "-").map(String.init)
        guard let first = words.first else { return "value" }
        return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    func groupTypeName(_ service: String) -> String {
        Naming.typeName(fromProperty: service) + "GroupCommand"
    }

    func commandTypeName(_ operation: OperationModel) -> String {
        Naming.typeName(fromProperty: operation.service) + Naming.typeName(fromProperty: operation.swiftName)
            + "Command"
    }

    /// `todolistId` → `todolist`, `bucketId` → `project` (a bucket is a project), `id` → `id`.
    static func pathOptionName(_ wire: String) -> String {
        if wire == "bucketId" || wire == "projectId" { return "project" }
        if wire.hasSuffix("Id"), wire.count > 2 { return kebab(String(wire.dropLast(2))) }
        return kebab(wire)
    }

    /// Whether the last path parameter names the record the operation acts on (a positional
    /// argument: `todos complete ID`) rather than the container of a collection (an option:
    /// `todos list --todolist ID`).
    static func lastParameterIsSubject(_ path: String) -> Bool {
        guard let last = path.split(separator: "/").last else { return false }
        if last.hasPrefix("{") { return true }
        let stem = last.hasSuffix(".json") ? String(last.dropLast(5)) : String(last)
        return !(stem.hasSuffix("s") || stem == "people")
    }

    // MARK: Inputs

    func inputs(_ operation: OperationModel) -> [Input] {
        var inputs: [Input] = []
        let pathParameters = operation.pathParameters.filter { $0.name != "accountId" }
        let subject = Self.lastParameterIsSubject(operation.path)
        for (index, parameter) in pathParameters.enumerated() {
            let option = Self.pathOptionName(parameter.name)
            let isInteger = parameter.type == .int64 || parameter.type == .int32
            let noun = option == "id" ? "record" : option.replacingOccurrences(of: "-", with: " ")
            inputs.append(
                Input(
                    location: .path,
                    wireName: parameter.name,
                    optionName: option,
                    property: "path" + Naming.typeName(fromProperty: Self.camel(option)),
                    shape: isInteger ? .integer : .text,
                    isRequired: true,
                    isPositional: subject && index == pathParameters.count - 1,
                    help: "The \(noun)'s id (path parameter \(parameter.name))."
                )
            )
        }
        let paginated = operation.pagination != nil
        for parameter in operation.queryParameters where !(paginated && parameter.name == "page") {
            guard let shape = queryShape(parameter.type) else { continue }
            let option = Self.kebab(parameter.name.replacingOccurrences(of: "[]", with: ""))
            inputs.append(
                Input(
                    location: .query,
                    wireName: parameter.name,
                    optionName: option,
                    property: "query" + Naming.typeName(fromProperty: Self.camel(option)),
                    shape: shape,
                    isRequired: parameter.isRequired,
                    isPositional: false,
                    help: "Query parameter \(parameter.name) (\(describe(parameter.type)))"
                        + (shape == .integers ? "; repeat for several." : ".")
                )
            )
        }
        if case .json(let schemaName) = operation.body, let schema = model.schema(named: schemaName),
            case .object(let properties) = schema.kind
        {
            let taken = Set(inputs.map(\.optionName)).union(Self.reservedOptions)
            let ordered = properties.filter(\.isRequired) + properties.filter { !$0.isRequired }
            for property in ordered {
                guard let shape = bodyShape(property.type) else { continue }
                var option = Self.kebab(property.jsonName)
                if taken.contains(option) { option = "body-" + option }
                let values = enumValues(property.type)
                var help = "Body field \(property.jsonName)"
                if let values {
                    help += property.isRequired ? ", required" : ""
                    help += ": " + Self.oneOf(values)
                } else {
                    help += " (\(describe(property.type))" + (property.isRequired ? ", required)" : ")")
                }
                help += shape == .integers || shape == .texts ? "; repeat for several." : "."
                inputs.append(
                    Input(
                        location: .body,
                        wireName: property.jsonName,
                        optionName: option,
                        property: "body" + Naming.typeName(fromProperty: Self.camel(option)),
                        shape: shape,
                        isRequired: property.isRequired,
                        isPositional: false,
                        help: help,
                        allowedValues: values
                    )
                )
            }
        }
        return inputs
    }

    private func queryShape(_ type: TypeRef) -> Input.Shape? {
        switch type {
        case .string, .inlineEnum: return .text
        case .int32, .int64: return .number
        case .bool: return .flag
        case .date: return .day
        case .array(.int64), .array(.int32): return .integers
        case .array(.string): return .texts
        case .ref(let name):
            if case .stringEnum = model.schema(named: name)?.kind { return .text }
            return nil
        default: return nil
        }
    }

    private func bodyShape(_ type: TypeRef) -> Input.Shape? {
        switch type {
        case .string, .inlineEnum, .dateTime: return .text
        case .int32, .int64: return .integer
        case .bool: return .flag
        case .date: return .day
        case .array(.int64), .array(.int32): return .integers
        case .array(.string): return .texts
        case .ref(let name):
            if case .stringEnum = model.schema(named: name)?.kind { return .text }
            return nil
        default: return nil
        }
    }

    private func enumValues(_ type: TypeRef) -> [String]? {
        switch type {
        case .inlineEnum(_, let values): return values
        case .ref(let name):
            if case .stringEnum(let values) = model.schema(named: name)?.kind { return values }
            return nil
        default: return nil
        }
    }

    private func describe(_ type: TypeRef) -> String {
        switch type {
        case .string: return "text"
        case .int32, .int64: return "integer"
        case .double: return "number"
        case .bool: return "true or false"
        case .date: return "YYYY-MM-DD, today, tomorrow or yesterday"
        case .dateTime: return "ISO 8601 timestamp"
        case .binary: return "bytes"
        case .json: return "any JSON"
        case .ref(let name): return name
        case .array(let element): return "list of \(describe(element))"
        case .map(let value): return "map of \(describe(value))"
        case .inlineEnum(_, let values): return Self.oneOf(values)
        }
    }

    /// `active or drafted`, `Sunday, Monday, … or Saturday`.
    static func oneOf(_ values: [String]) -> String {
        guard values.count > 1, let last = values.last else { return values.first ?? "" }
        return values.dropLast().joined(separator: ", ") + " or " + last
    }

    // MARK: Help text

    /// The command's help text: one line per fact (the parser wraps long ones), then examples
    /// indented on lines of their own, so they can be copied whole.
    func discussion(_ operation: OperationModel) -> String {
        var lines = ["\(operation.method) \(operation.path) (operation \(operation.id))."]
        var facts: [String] = [operation.isReadOnly ? "Read-only" : "Writes"]
        if operation.isIdempotent, !operation.isReadOnly { facts.append("idempotent (retried safely)") }
        if let pagination = operation.pagination {
            let size = pagination.pageSize.map { "\($0) per page" } ?? "paged"
            facts.append("paginated by Link header, \(size); every page unless --page or --limit")
        }
        if let semantics = operation.writeSemantics, semantics.clearsOmitted {
            facts.append("replaces the whole record: fields left out are cleared")
        }
        lines.append(facts.joined(separator: "; ") + ".")
        switch operation.response {
        case .none:
            lines.append("Answers \(operation.successStatus) with no body.")
        case .value(let type):
            lines.append("Answers \(operation.successStatus) with \(responseDescription(type)).")
        }
        switch operation.body {
        case .json(let schema):
            var body = "Body: \(schema) (a JSON object)."
            if let schemaModel = model.schema(named: schema), case .object(let properties) = schemaModel.kind {
                let offered = Set(inputs(operation).filter { $0.location == .body }.map(\.wireName))
                let others = properties.map(\.jsonName).filter { !offered.contains($0) }
                if !others.isEmpty {
                    body += " Only through --body: \(others.joined(separator: ", "))."
                }
            }
            lines.append(body + " Options override members of --body.")
        case .octetStream:
            lines.append("Body: the bytes of --file (sent as application/octet-stream unless --content-type says).")
        case .multipart(let field):
            lines.append("Body: --file sent as the multipart field \(field).")
        case nil:
            break
        }
        lines += ["", "Example:", "  " + example(operation), "Same call, raw JSON:", "  " + rawExample(operation)]
        return lines.joined(separator: "\n")
    }

    private func responseDescription(_ type: TypeRef) -> String {
        switch type {
        case .array(.ref(let name)): return "a list of \(name)"
        case .ref(let name): return "a \(name)"
        default: return describe(type)
        }
    }

    // MARK: Files

    /// `Generated/ServiceCommands.swift`: the service groups, for the root command.
    func indexFile() -> String {
        var writer = CodeWriter()
        writer.line("// Generated by BasecampGenerator from Spec/Basecamp/openapi.json. Do not edit.")
        writer.line()
        writer.line("import ArgumentParser")
        writer.line()
        writer.line(
            "/// One command group per service of the Spec (\(model.services.count) services, \(model.operations.count) operations)."
        )
        writer.block("enum ServiceCommands") { w in
            w.line("/// The groups, in service order.")
            w.line("static let all: [any ParsableCommand.Type] = [")
            w.indent { w in
                for service in model.services { w.line("\(groupTypeName(service)).self,") }
            }
            w.line("]")
        }
        return writer.text
    }

    /// `Generated/<Service>Commands.swift`: the group and one command per operation.
    func serviceFile(_ service: String) -> String {
        let operations = model.operations.filter { $0.service == service }
        var writer = CodeWriter()
        writer.line("// Generated by BasecampGenerator from Spec/Basecamp/openapi.json. Do not edit.")
        writer.line()
        writer.line("import ArgumentParser")
        writer.line("import Basecamp")
        writer.line("import CLISupport")
        writer.line()
        let handWritten = Self.handWrittenSubcommands[service] ?? []
        let names = operations.map { Self.kebab($0.swiftName) } + handWritten.map(\.name)
        let title = Naming.words(service).joined(separator: " ")
        let capitalised = title.prefix(1).uppercased() + title.dropFirst()
        let abstract =
            operations.count <= 5
            ? "\(capitalised): \(names.joined(separator: ", "))."
            : "\(capitalised): \(operations.count) operations."
        writer.line("/// `basecamp \(Self.kebab(service))`: the \(service) service.")
        writer.block("struct \(groupTypeName(service)): ParsableCommand") { w in
            w.line("static let configuration = CommandConfiguration(")
            w.indent { w in
                w.line("commandName: \(literal(Self.kebab(service))),")
                w.line("abstract: \(literal(abstract)),")
                w.line("subcommands: [")
                w.indent { w in
                    for operation in operations { w.line("\(commandTypeName(operation)).self,") }
                    for command in handWritten { w.line("\(command.type).self,") }
                }
                w.line("]")
            }
            w.line(")")
        }
        for operation in operations {
            writer.line()
            emitCommand(operation, into: &writer)
        }
        return writer.text
    }

    private func emitCommand(_ operation: OperationModel, into writer: inout CodeWriter) {
        let inputs = inputs(operation)
        let options = Set(inputs.map(\.optionName))
        let paginated = operation.pagination != nil
        let scoped = operation.isReadOnly && !options.contains("project") && operation.service != "projects"
        writer.line(
            "/// `basecamp \(Self.kebab(operation.service)) \(Self.kebab(operation.swiftName))`: \(operation.id)."
        )
        writer.block("struct \(commandTypeName(operation)): OperationCommand") { w in
            w.line("static let operation = OperationCatalog.\(Naming.lowerFirst(operation.id))")
            w.line("static let configuration = CommandConfiguration(")
            w.indent { w in
                w.line("commandName: \(literal(Self.kebab(operation.swiftName))),")
                w.line("abstract: \(literal(operation.summary)),")
                w.line("discussion: \(literal(discussion(operation)))")
            }
            w.line(")")
            w.line()
            w.line("@ParentCommand var root: BasecampCommand")
            for input in inputs { emitDeclaration(input, into: &w) }
            if paginated { w.line("@OptionGroup var listing: ListingOptions") }
            if scoped { w.line("@OptionGroup var scope: ProjectScopeOptions") }
            switch operation.body {
            case .json: w.line("@OptionGroup var bodyInput: BodyInputOptions")
            case .octetStream, .multipart: w.line("@OptionGroup var fileInput: FileInputOptions")
            case nil: break
            }
            w.line()
            w.block("func invocation() -> OperationInvocation") { w in
                let uses = !inputs.isEmpty || paginated || scoped || operation.body != nil
                w.line("\(uses ? "var" : "let") call = OperationInvocation()")
                for input in inputs { w.line(invocationLine(input)) }
                if paginated { w.line("call.listing = listing") }
                if scoped { w.line("call.scope = scope") }
                switch operation.body {
                case .json:
                    w.line("call.bodyInput = bodyInput")
                    let required = inputs.filter { $0.location == .body && $0.isRequired }.map(\.wireName)
                    if !required.isEmpty {
                        w.line("call.requiredBodyFields = [\(required.map(literal).joined(separator: ", "))]")
                    }
                case .octetStream:
                    w.line("call.fileInput = fileInput")
                case .multipart(let field):
                    w.line("call.fileInput = fileInput")
                    w.line("call.multipartField = \(literal(field))")
                case nil: break
                }
                w.line("return call")
            }
        }
    }

    private func emitDeclaration(_ input: Input, into w: inout CodeWriter) {
        let help = literal(input.help)
        let valueName = literal(valueName(input))
        if input.isPositional {
            let type = input.shape == .integer ? "Int64" : "String"
            w.line("@Argument(help: ArgumentHelp(\(help), valueName: \(literal("id"))))")
            w.line("var \(input.property): \(type)")
            return
        }
        let name = ".customLong(\(literal(input.optionName)))"
        switch input.shape {
        case .flag where input.location == .body:
            w.line("@Flag(name: \(name), inversion: .prefixedNo, help: ArgumentHelp(\(help)))")
            w.line("var \(input.property): Bool?")
        case .integers, .texts:
            let element = input.shape == .integers ? "Int64" : "String"
            w.line("@Option(name: \(name), help: ArgumentHelp(\(help), valueName: \(valueName)))")
            w.line("var \(input.property): [\(element)] = []")
        case .text where input.allowedValues != nil:
            let values = "[" + (input.allowedValues ?? []).map(literal).joined(separator: ", ") + "]"
            let required = input.isRequired && input.location != .body
            w.line("@Option(")
            w.indent { w in
                w.line("name: \(name),")
                w.line("help: ArgumentHelp(\(help), valueName: \(valueName)),")
                w.line("completion: .list(\(values)),")
                w.line("transform: SpecEnum(\(values)).parse")
            }
            w.line(")")
            w.line("var \(input.property): String\(required ? "" : "?")")
        default:
            let type: String
            switch input.shape {
            case .integer: type = "Int64"
            case .number: type = "Int"
            case .flag: type = "Bool"
            case .day: type = "CalendarDay"
            default: type = "String"
            }
            let required = input.isRequired && input.location != .body
            w.line("@Option(name: \(name), help: ArgumentHelp(\(help), valueName: \(valueName)))")
            w.line("var \(input.property): \(type)\(required ? "" : "?")")
        }
    }

    private func valueName(_ input: Input) -> String {
        switch input.shape {
        case .integer, .integers: return input.location == .path ? "id" : "n"
        case .number: return "n"
        case .flag: return "bool"
        case .day: return "date"
        case .text where input.allowedValues != nil: return input.optionName
        case .text, .texts: return input.location == .path ? "id" : "text"
        }
    }

    private func invocationLine(_ input: Input) -> String {
        let name = literal(input.wireName)
        switch input.location {
        case .path:
            return "call.path(\(name), \(input.property))"
        case .query, .body:
            let function = input.location == .query ? "query" : "body"
            let label: String
            switch input.shape {
            case .integer, .number: label = "number"
            case .text: label = "text"
            case .flag: label = "flag"
            case .day: label = "day"
            case .integers: label = "numbers"
            case .texts: label = "texts"
            }
            return "call.\(function)(\(name), \(label): \(input.property))"
        }
    }
}

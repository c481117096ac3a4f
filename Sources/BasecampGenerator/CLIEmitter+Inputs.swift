extension CLIEmitter {
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
            guard let shape = inputShape(parameter.type, inBody: false) else { continue }
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
                guard let shape = inputShape(property.type, inBody: true) else { continue }
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

    /// How a parameter of `type` is read from the command line, or `nil` when it cannot be. A query
    /// and a body differ only in numbers (`.number` and `.integer`) and in date-times, which only a
    /// body takes, as text.
    fileprivate func inputShape(_ type: TypeRef, inBody: Bool) -> Input.Shape? {
        switch type {
        case .string, .inlineEnum: return .text
        case .dateTime: return inBody ? .text : nil
        case .int32, .int64: return inBody ? .integer : .number
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

    fileprivate func enumValues(_ type: TypeRef) -> [String]? {
        switch type {
        case .inlineEnum(_, let values): return values
        case .ref(let name):
            if case .stringEnum(let values) = model.schema(named: name)?.kind { return values }
            return nil
        default: return nil
        }
    }

    fileprivate func describe(_ type: TypeRef) -> String {
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
            facts.append("paginated by Link header, \(size); every page unless --page, --limit or --max-pages")
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
            lines.append(
                "Body: the bytes of --file, read as they are sent (typed by its name unless --content-type says)."
            )
        case .multipart(let field):
            lines.append("Body: --file sent as the multipart field \(field).")
        case nil:
            break
        }
        if isWatchable(operation) {
            lines.append(
                "--watch prints the newest page, then polls it every --interval seconds with a conditional GET (an unchanged list costs a 304, well inside Basecamp's 50 requests per 10 seconds) and prints new items as they come, oldest first, until Ctrl-C (exit 0)."
            )
        }
        lines += ["", "Example:", "  " + example(operation), "Same call, raw JSON:", "  " + rawExample(operation)]
        if isWatchable(operation) {
            lines += ["Follow new items until Ctrl-C:", "  " + watchExample(operation)]
        }
        return lines.joined(separator: "\n")
    }

    fileprivate func responseDescription(_ type: TypeRef) -> String {
        switch type {
        case .array(.ref(let name)): return "a list of \(name)"
        case .ref(let name): return "a \(name)"
        default: return describe(type)
        }
    }
}

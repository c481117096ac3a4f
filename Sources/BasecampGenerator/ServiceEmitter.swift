/// Writes one service type per service, the operation catalog, the account accessors and the
/// test invocation table.
struct ServiceEmitter {
    let model: APIModel
    let types: ModelEmitter

    // MARK: Signatures

    struct Argument {
        var label: String
        var type: String
        var defaultValue: String?
        var doc: String
        /// How the endpoint factory receives it (without defaults).
        var forwarded: String { label == "_" ? internalName : label }
        var internalName: String
        var declaration: String {
            let name = label == internalName ? label : "\(label) \(internalName)"
            return "\(name): \(type)" + (defaultValue.map { " = \($0)" } ?? "")
        }
    }

    func isPaginated(_ operation: OperationModel) -> Bool { operation.pagination != nil }

    /// The element type of a paginated list.
    func itemType(_ operation: OperationModel) -> TypeRef? {
        guard operation.pagination != nil, case .value(let type) = operation.response else { return nil }
        if case .array(let element) = type { return element }
        if let envelope = envelope(operation), case .array(let element) = envelope.list.type { return element }
        return nil
    }

    /// For a list each page sends inside an object (`GetPersonProgress`: the person, then the
    /// events): that object's schema name and the property holding the list.
    func envelope(_ operation: OperationModel) -> (name: String, list: PropertyModel)? {
        guard let key = operation.pagination?.itemsKey, case .value(.ref(let name)) = operation.response,
            let schema = model.schema(named: name), case .object(let properties) = schema.kind,
            let property = properties.first(where: { $0.jsonName == key })
        else { return nil }
        return (name, property)
    }

    func queryParameters(_ operation: OperationModel) -> [ParameterModel] {
        isPaginated(operation) ? operation.queryParameters.filter { $0.name != "page" } : operation.queryParameters
    }

    func nonAccountPathParameters(_ operation: OperationModel) -> [ParameterModel] {
        operation.pathParameters.filter { $0.name != "accountId" }
    }

    /// Arguments shared by the endpoint factory and the public methods: path, body, query.
    func arguments(_ operation: OperationModel) -> [Argument] {
        var result: [Argument] = []
        for parameter in nonAccountPathParameters(operation) {
            result.append(
                Argument(
                    label: parameter.swiftName,
                    type: types.swiftType(parameter.type),
                    defaultValue: nil,
                    doc: "The `\(parameter.name)` path parameter.",
                    internalName: parameter.swiftName
                )
            )
        }
        switch operation.body {
        case .json(let schema):
            result.append(
                Argument(
                    label: "_",
                    type: types.swiftType(.ref(schema)),
                    defaultValue: nil,
                    doc: "The request body.",
                    internalName: "body"
                )
            )
        case .octetStream:
            result.append(
                Argument(label: "_", type: "Data", defaultValue: nil, doc: "The file's bytes.", internalName: "data")
            )
        case .multipart(let field):
            result.append(
                Argument(
                    label: "_",
                    type: "Data",
                    defaultValue: nil,
                    doc: "The file's bytes, sent as the `\(field)` form field.",
                    internalName: Naming.propertyName(field)
                )
            )
            result.append(
                Argument(
                    label: "filename",
                    type: "String",
                    defaultValue: nil,
                    doc: "The file's name.",
                    internalName: "filename"
                )
            )
        case nil:
            break
        }
        for parameter in queryParameters(operation) {
            let type = types.swiftType(parameter.type)
            result.append(
                Argument(
                    label: parameter.swiftName,
                    type: parameter.isRequired ? type : type + "?",
                    defaultValue: parameter.isRequired ? nil : "nil",
                    doc: "The `\(parameter.name)` query parameter"
                        + (parameter.isRequired ? "." : "; `nil` leaves it out."),
                    internalName: parameter.swiftName
                )
            )
        }
        switch operation.body {
        case .octetStream, .multipart:
            result.append(
                Argument(
                    label: "contentType",
                    type: "String",
                    defaultValue: literal("application/octet-stream"),
                    doc: "The file's media type, e.g. `image/png`.",
                    internalName: "contentType"
                )
            )
        default:
            break
        }
        return result
    }

    func responseType(_ operation: OperationModel) -> String {
        if let item = itemType(operation) { return "[\(types.swiftType(item))]" }
        switch operation.response {
        case .none: return "NoContent"
        case .value(let type): return types.swiftType(type)
        }
    }

    // MARK: Services

    func serviceFile(_ service: String) -> String {
        let operations = model.operations.filter { $0.service == service }
        var writer = CodeWriter.generatedFile(imports: ["Foundation", "HTTPCore"])
        let count = operations.count
        writer.doc(
            "The `\(service)` service: \(count) operation\(count == 1 ? "" : "s") of the Basecamp API.\n\nGet it from ``AccountClient/\(service)``."
        )
        writer.block("public struct \(Naming.serviceTypeName(service)): Sendable") { w in
            w.line("let context: AccountContext")
            for operation in operations {
                w.line()
                emitEndpointFactory(operation, into: &w)
                w.line()
                emitMethods(operation, into: &w)
                if let semantics = operation.writeSemantics, semantics.isReplace {
                    w.line()
                    emitMergeHelper(operation, semantics: semantics, into: &w)
                }
            }
        }
        return writer.text
    }

    func methodLiteral(_ operation: OperationModel) -> String {
        "." + operation.method.lowercased()
    }

    private func pathExpression(_ operation: OperationModel) -> String {
        var path = operation.path
        for parameter in operation.pathParameters {
            let value = parameter.name == "accountId" ? "context.accountID" : parameter.swiftName
            path = path.replacingOccurrences(of: "{\(parameter.name)}", with: "\\(\(value))")
        }
        return literal(String(path.drop { $0 == "/" })).replacingOccurrences(of: "\\\\(", with: "\\(")
    }

    private func catalogName(_ operation: OperationModel) -> String {
        "OperationCatalog." + Naming.lowerFirst(operation.id)
    }

    private func emitEndpointFactory(_ operation: OperationModel, into writer: inout CodeWriter) {
        let arguments = arguments(operation).map { argument -> String in
            "\(argument.internalName): \(argument.type)"
        }
        let response = responseType(operation)
        writer.doc("The endpoint of `\(operation.id)`.")
        writer.block(
            "func \(operation.swiftName)Endpoint(\(arguments.joined(separator: ", "))) -> Endpoint<\(response)>"
        ) { w in
            let query = queryParameters(operation)
            if !query.isEmpty {
                w.line("var endpointQuery = QueryParameters()")
                for parameter in query {
                    w.line("endpointQuery.append(\(literal(parameter.name)), \(parameter.swiftName))")
                }
            }
            var body: String?
            switch operation.body {
            case .json: body = ".json(body)"
            case .octetStream: body = ".bytes(data, contentType: contentType)"
            case .multipart(let field):
                w.line("var form = MultipartForm()")
                w.line(
                    "form.append(file: \(literal(field)), filename: filename, contentType: contentType, data: \(Naming.propertyName(field)))"
                )
                body = ".multipart(form)"
            case nil: break
            }
            w.line("return Endpoint<\(response)>(")
            w.indent { w in
                w.line(methodLiteral(operation) + ",")
                w.line(pathExpression(operation) + ",")
                if !query.isEmpty { w.line("query: endpointQuery,") }
                if let body { w.line("body: \(body),") }
                w.line("operation: \(catalogName(operation)).metadata")
            }
            w.line(")")
        }
    }

    private func methodDoc(_ operation: OperationModel, arguments: [Argument], extra: [(String, String)]) -> String {
        var text = operation.summary + "\n\n`\(operation.method) \(operation.path)` (operation `\(operation.id)`)."
        if operation.writeSemantics?.clearsOmitted == true {
            text +=
                "\n\nThis replaces the whole record: a field left `nil` is cleared. Use the merge-safe helper to change a few fields."
        }
        let documented =
            arguments.map { ($0.internalName == "body" || $0.label == "_" ? $0.internalName : $0.label, $0.doc) }
            + extra
        if !documented.isEmpty {
            text += "\n\n- Parameters:"
            for (name, doc) in documented { text += "\n  - \(name): \(doc)" }
        }
        return text
    }

    func call(_ name: String, _ arguments: [Argument]) -> String {
        let list = arguments.map { "\($0.internalName): \($0.internalName)" }.joined(separator: ", ")
        return "\(name)Endpoint(\(list))"
    }

    private func emitMethods(_ operation: OperationModel, into writer: inout CodeWriter) {
        let arguments = arguments(operation)
        let declarations = arguments.map(\.declaration)
        let endpoint = call(operation.swiftName, arguments)
        func method(_ header: String, extra: [(String, String)] = [], docTail: String, body: String) {
            writer.doc(methodDoc(operation, arguments: arguments, extra: extra) + docTail)
            writer.block(header) { $0.line(body) }
        }
        if let item = itemType(operation) {
            let element = types.swiftType(item)
            let signature = (declarations + ["maxItems: Int? = nil"]).joined(separator: ", ")
            let maxItems = ("maxItems", "Stop after this many items; `nil` fetches every page (up to `maxPages`).")
            if let envelope = envelope(operation) {
                let type = types.swiftType(.ref(envelope.name))
                let list = envelope.list.swiftName
                method(
                    "public func \(operation.swiftName)(\(signature)) async throws -> EnvelopedList<\(type)>",
                    extra: [maxItems],
                    docTail: "\n- Returns: The object as the first page sent it, its `\(list)` holding every item "
                        + "fetched, with `meta.totalCount` and `meta.truncated`.\n- Throws: `APIError`.",
                    body: "try await context.collect(\(endpoint), in: \\\(type).\(list), maxItems: maxItems)"
                )
            } else {
                method(
                    "public func \(operation.swiftName)(\(signature)) async throws -> ListResult<\(element)>",
                    extra: [maxItems],
                    docTail: "\n- Returns: Every item, with `meta.totalCount` and `meta.truncated`."
                        + "\n- Throws: `APIError`.",
                    body: "try await context.collect(\(endpoint), maxItems: maxItems)"
                )
            }
            writer.line()
            let streaming = (declarations + ["options: PaginationOptions? = nil"]).joined(separator: ", ")
            method(
                "public func \(operation.swiftName)Paginated(\(streaming)) -> Paginated<\(element)>",
                extra: [("options", "Limits and prefetching; `nil` uses the client's `maxPages`.")],
                docTail:
                    "\n- Returns: The items as an async sequence, fetched page by page as you iterate; `.pages` gives whole pages.\n- Note: Errors surface while iterating, as `APIError`.",
                body: "context.paginate(\(endpoint), options: options)"
            )
            return
        }
        let response = responseType(operation)
        let signature = declarations.joined(separator: ", ")
        if response == "NoContent" {
            method(
                "public func \(operation.swiftName)(\(signature)) async throws",
                docTail: "\n- Throws: `APIError`.",
                body: "_ = try await context.send(\(endpoint))"
            )
        } else {
            method(
                "public func \(operation.swiftName)(\(signature)) async throws -> \(response)",
                docTail: "\n- Returns: The decoded `\(response)`.\n- Throws: `APIError`.",
                body: "try await context.send(\(endpoint))"
            )
        }
    }
}

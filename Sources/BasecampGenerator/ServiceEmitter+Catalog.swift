extension ServiceEmitter {
    func accountFile() -> String {
        var writer = CodeWriter.generatedFile()
        writer.block("extension AccountClient") { w in
            for (index, service) in model.services.enumerated() {
                if index > 0 { w.line() }
                let count = model.operations.filter { $0.service == service }.count
                w.doc("The `\(service)` service (\(count) operation\(count == 1 ? "" : "s")).")
                w.line(
                    "public var \(service): \(Naming.serviceTypeName(service)) { \(Naming.serviceTypeName(service))(context: context) }"
                )
            }
        }
        return writer.text
    }

    // MARK: Catalog

    func catalogIndexFile() -> String {
        var writer = CodeWriter.generatedFile()
        writer.doc(
            "Every operation of the Basecamp API, as generated from the Spec: ids, services, methods, paths,\nparameters, bodies and the metadata each call carries."
        )
        writer.block("public enum OperationCatalog") { w in
            w.doc("All \(model.operations.count) operations, by service and then operation id.")
            w.line("public static let all: [BasecampOperation] = [")
            w.indent { w in
                for operation in model.operations { w.line(Naming.lowerFirst(operation.id) + ",") }
            }
            w.line("]")
            w.line()
            w.doc("The \(model.services.count) service names, as ``AccountClient`` properties spell them.")
            w.line("public static let services: [String] = [")
            w.indent { w in
                for service in model.services { w.line(literal(service) + ",") }
            }
            w.line("]")
        }
        return writer.text
    }

    func kind(_ type: TypeRef) -> String {
        switch type {
        case .int32, .int64: return ".integer"
        case .bool: return ".boolean"
        case .date: return ".date"
        case .array(.string): return ".stringList"
        case .array: return ".integerList"
        default: return ".string"
        }
    }

    func retryExpression(_ retry: RetryModel) -> String {
        let delay =
            retry.baseDelayMilliseconds % 1000 == 0
            ? ".seconds(\(retry.baseDelayMilliseconds / 1000))" : ".milliseconds(\(retry.baseDelayMilliseconds))"
        let statuses = retry.retryOn.map(String.init).joined(separator: ", ")
        return
            "RetryPolicy(maxAttempts: \(retry.maxAttempts), baseDelay: \(delay), backoff: .\(retry.backoff), retryableStatuses: [\(statuses)])"
    }

    /// The Spec's distinct retry policies, most used first, each with the name the catalog refers
    /// to it by.
    var retryPolicies: [(name: String, retry: RetryModel, uses: Int)] {
        var uses: [RetryModel: Int] = [:]
        for operation in model.operations { uses[operation.retry, default: 0] += 1 }
        return uses.map { (name: Naming.retryPolicyName($0.key), retry: $0.key, uses: $0.value) }
            .sorted { ($0.uses, $1.name) > ($1.uses, $0.name) }
    }

    func retryPoliciesFile() -> String {
        var writer = CodeWriter.generatedFile(imports: ["HTTPCore"])
        writer.doc(
            "The retry policies of the Spec's operations (`x-basecamp-retry`), each written once; every\n``BasecampOperation`` in ``OperationCatalog`` refers to one of them."
        )
        writer.block("enum SpecRetryPolicies") { w in
            for (index, policy) in retryPolicies.enumerated() {
                if index > 0 { w.line() }
                let retry = policy.retry
                let statuses = retry.retryOn.map(String.init)
                let on =
                    statuses.dropLast().joined(separator: ", ") + (statuses.count > 1 ? " and " : "")
                    + (statuses.last ?? "")
                let delay = retry.baseDelayMilliseconds
                let first = delay % 1000 == 0 ? "\(delay / 1000) s" : "\(delay) ms"
                w.doc(
                    "Up to \(retry.maxAttempts) attempts on \(on), \(retry.backoff) backoff from \(first): \(policy.uses) operation\(policy.uses == 1 ? "" : "s")."
                )
                w.line("static let \(policy.name) = \(retryExpression(retry))")
            }
        }
        return writer.text
    }

    func catalogFile(_ service: String) -> String {
        var writer = CodeWriter.generatedFile(imports: ["HTTPCore"])
        writer.block("extension OperationCatalog") { w in
            for (index, operation) in model.operations.filter({ $0.service == service }).enumerated() {
                if index > 0 { w.line() }
                w.doc("`\(operation.id)`: \(operation.summary) `\(operation.method) \(operation.path)`")
                w.line("public static let \(Naming.lowerFirst(operation.id)) = BasecampOperation(")
                w.indent { w in emitCatalogArguments(operation, into: &w) }
                w.line(")")
            }
        }
        return writer.text
    }

    func emitParameters(_ label: String, _ parameters: [ParameterModel], into writer: inout CodeWriter) {
        guard !parameters.isEmpty else {
            writer.line("\(label): [],")
            return
        }
        writer.line("\(label): [")
        writer.indent { w in
            for parameter in parameters {
                w.line(
                    "BasecampOperation.Parameter(name: \(literal(parameter.name)), swiftName: \(literal(parameter.swiftName)), kind: \(kind(parameter.type)), isRequired: \(parameter.isRequired)),"
                )
            }
        }
        writer.line("],")
    }

    /// The initializer's arguments; those at their default value (no query parameters, no body,
    /// no response, no pagination, not a whole-record replace) are left out.
    func emitCatalogArguments(_ operation: OperationModel, into w: inout CodeWriter) {
        w.line("id: \(literal(operation.id)),")
        w.line("service: \(literal(operation.service)),")
        w.line("swiftName: \(literal(operation.swiftName)),")
        w.line("method: \(methodLiteral(operation)),")
        w.line("pathTemplate: \(literal(operation.path)),")
        emitParameters("pathParameters", operation.pathParameters, into: &w)
        if !operation.queryParameters.isEmpty {
            emitParameters("queryParameters", operation.queryParameters, into: &w)
        }
        switch operation.body {
        case .json(let schema):
            w.line("bodyKind: .json,")
            w.line("bodySchema: \(literal(schema)),")
        case .octetStream(let schema):
            w.line("bodyKind: .octetStream,")
            w.line("bodySchema: \(literal(schema)),")
        case .multipart:
            w.line("bodyKind: .multipart,")
        case nil:
            break
        }
        switch operation.response {
        case .value(.array(.ref(let name))): w.line("responseSchema: \(literal("[\(name)]")),")
        case .value(.ref(let name)): w.line("responseSchema: \(literal(name)),")
        case .none, .value: break
        }
        w.line("summary: \(literal(operation.summary)),")
        w.line("successStatus: \(operation.successStatus),")
        w.line("isReadOnly: \(operation.isReadOnly),")
        w.line("isIdempotent: \(operation.isReadOnly || operation.isIdempotent),")
        var last = "retry: SpecRetryPolicies.\(Naming.retryPolicyName(operation.retry))"
        if let pagination = operation.pagination {
            var parts: [String] = []
            if let pageSize = pagination.pageSize { parts.append("pageSize: \(pageSize)") }
            if let header = pagination.totalCountHeader { parts.append("totalCountHeader: \(literal(header))") }
            if let key = pagination.itemsKey { parts.append("itemsKey: \(literal(key))") }
            w.line(last + ",")
            last = "pagination: PaginationMetadata(\(parts.joined(separator: ", ")))"
        }
        if operation.writeSemantics?.mode == "replace" {
            w.line(last + ",")
            last = "replacesWholeRecord: true"
        }
        w.line(last)
    }
}

extension ServiceEmitter {
    /// The merge-safe helper of an update that replaces the whole record (`todos.modify`): one
    /// read, the caller's change on a request filled from it, one write.
    func emitMergeHelper(
        _ operation: OperationModel,
        semantics: WriteSemanticsModel,
        into writer: inout CodeWriter
    ) {
        guard semantics.isReplace, let helper = semantics.mergeHelper,
            let read = model.operations.first(where: { $0.id == semantics.readOperation }),
            read.service == operation.service, case .json(let schema) = operation.body
        else { return }
        let requestType = types.swiftType(.ref(schema))
        let response = responseType(operation)
        let pathArguments = nonAccountPathParameters(operation)
        let declarations =
            pathArguments.map { "\($0.swiftName): \(types.swiftType($0.type))" }
            + ["unchangedSince: Date? = nil", "_ change: (inout \(requestType)) throws -> Void"]
        let forward = pathArguments.map { "\($0.swiftName): \($0.swiftName)" }.joined(separator: ", ")
        writer.doc(mergeHelperDoc(operation, semantics: semantics, read: read, requestType: requestType))
        writer.block("public func \(helper)(\(declarations.joined(separator: ", "))) async throws -> \(response)") {
            w in
            w.line("let current = try await \(read.swiftName)(\(forward))")
            w.line(
                "try ConcurrentEdit.ensureUnchanged(current.updatedAt, since: unchangedSince, record: \(literal(response)))"
            )
            w.line("var request = \(requestType)(current: current)")
            w.line("try change(&request)")
            for member in semantics.callerSupplies {
                w.line(
                    "try ConcurrentEdit.require(request.\(Naming.propertyName(member)), \(literal(member)), operation: \(literal(operation.id)), record: \(literal(response)))"
                )
            }
            let prefix = forward.isEmpty ? "" : forward + ", "
            w.line("return try await \(operation.swiftName)(\(prefix)request)")
        }
    }

    private func mergeHelperDoc(
        _ operation: OperationModel,
        semantics: WriteSemanticsModel,
        read: OperationModel,
        requestType: String
    ) -> String {
        var doc =
            "Changes a few fields of a record that `\(operation.id)` replaces as a whole, without clearing the rest."
        doc +=
            "\n\nReads the record once with `\(read.swiftName)`, fills a `\(requestType)` from it, lets `change` adjust it, then sends the full state once with `\(operation.swiftName)`: one GET and one PUT. Basecamp has no conditional write, so a change someone makes between the two is overwritten; when a person has been editing a copy for a while, pass the `updatedAt` of that copy as `unchangedSince`, and a record changed since is left alone (the call throws `api_error` and sends nothing)."
        if !semantics.preservedOnOmission.isEmpty {
            let fields = semantics.preservedOnOmission.map { "`\($0)`" }.joined(separator: ", ")
            doc += " \(fields) are left out unless `change` sets them: Basecamp keeps them when omitted."
        }
        if !semantics.callerSupplies.isEmpty {
            let fields = semantics.callerSupplies.map { "`\($0)`" }.joined(separator: " or ")
            let pronoun = semantics.callerSupplies.count == 1 ? "it" : "them"
            doc += " The record does not include \(fields): `change` must set \(pronoun)."
        }
        doc += "\n\n- Parameters:"
        for argument in nonAccountPathParameters(operation) {
            doc += "\n  - \(argument.swiftName): The `\(argument.name)` path parameter."
        }
        doc += "\n  - unchangedSince: The `updatedAt` the edit is based on; `nil` writes whatever the read finds."
        doc += "\n  - change: Edits the request, which starts as the record's current state."
        doc +=
            "\n- Returns: The record as saved.\n- Throws: `APIError` (`usage` when a member the record cannot supply is still unset, `api_error` when the record changed after `unchangedSince`), or what `change` throws; nothing is written then."
        return doc
    }
}

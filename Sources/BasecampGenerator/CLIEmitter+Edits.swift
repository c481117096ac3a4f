/// The `edit` commands: one per update the Spec gives write semantics (`todos edit`,
/// `schedules edit-entry`, `cards edit`…). Each offers every writable member of the update's
/// body, an explicit `--clear-…` for each member that can be emptied, and `--X`/`--no-X` for
/// flags. A `replace` update goes through its merge-safe helper (one GET, one PUT); a `patch`
/// update sends only the named members (one PUT).
extension CLIEmitter {
    /// An edit command: the update it makes and its name in the service's group.
    struct Edit {
        var operation: OperationModel
        var semantics: WriteSemanticsModel
        var name: String
        var typeName: String
    }

    /// Display nouns where the schema's words read badly.
    static let editNouns: [String: String] = ["Todo": "to-do", "Todolist": "to-do list"]

    /// The edit commands of `service`, in operation order.
    func edits(of service: String) -> [Edit] {
        model.operations.filter { $0.service == service }.compactMap { operation in
            guard let semantics = operation.writeSemantics, case .json = operation.body else { return nil }
            let swiftName: String
            if semantics.isReplace {
                guard let helper = semantics.mergeHelper else { return nil }
                swiftName = helper.replacingOccurrences(of: "modify", with: "edit")
            } else {
                swiftName = operation.swiftName.replacingOccurrences(of: "update", with: "edit")
            }
            let typeName =
                Naming.typeName(fromProperty: service) + Naming.typeName(fromProperty: swiftName) + "Command"
            return Edit(operation: operation, semantics: semantics, name: Self.kebab(swiftName), typeName: typeName)
        }
    }

    /// One member of an edit: how it is set and, when it can be emptied, cleared.
    private struct EditMember {
        var input: Input
        /// The JSON that empties it, or `nil` when it cannot be cleared (required, a flag, an enum).
        var clearValue: String?
        var clearOption: String { "clear-" + input.optionName }
        var clearProperty: String { "clear" + Naming.typeName(fromProperty: CLIEmitter.camel(input.optionName)) }
    }

    private func members(of edit: Edit) -> [EditMember] {
        guard case .json(let schemaName) = edit.operation.body, let schema = model.schema(named: schemaName),
            case .object(let properties) = schema.kind
        else { return [] }
        return inputs(edit.operation).filter { $0.location == .body }.map { input in
            var input = input
            let supplied = edit.semantics.callerSupplies.contains(input.wireName)
            // A list the caller must supply may be supplied empty, with its --clear- flag.
            let isList = input.shape == .integers || input.shape == .texts
            let type = properties.first { $0.jsonName == input.wireName }?.type
            var help = input.help.replacingOccurrences(of: "Body field ", with: "Set ")
            if supplied {
                help =
                    (help.hasSuffix(".") ? String(help.dropLast()) : help)
                    + "; required: the record does not include it"
                    + (isList ? " (--clear-\(input.optionName) for none)." : ".")
            } else if edit.semantics.preservedOnOmission.contains(input.wireName) {
                help += " Sent only when given; Basecamp keeps it otherwise."
            }
            help = help.replacingOccurrences(of: ", required)", with: ")")
                .replacingOccurrences(of: ", required:", with: ":")
            input.help = help
            // Every member keeps its value unless named, so only what the record cannot supply is required.
            input.isRequired = supplied
            let clearable =
                (!supplied || isList) && !properties.contains { $0.jsonName == input.wireName && $0.isRequired }
            return EditMember(input: input, clearValue: clearable ? clearValue(input, type: type) : nil)
        }
    }

    private func clearValue(_ input: Input, type: TypeRef?) -> String? {
        switch input.shape {
        case .text:
            if input.allowedValues != nil { return nil }
            return type == .dateTime ? ".null" : ".string(\"\")"
        case .integer, .day: return ".null"
        case .integers, .texts: return ".array([])"
        case .flag, .number: return nil
        }
    }

    func emitEdit(_ edit: Edit, into writer: inout CodeWriter) {
        let operation = edit.operation
        let members = members(of: edit)
        let paths = inputs(operation).filter { $0.location == .path }
        let noun = editNoun(operation)
        writer.line(
            "/// `basecamp \(Self.kebab(operation.service)) \(edit.name)`: \(operation.id), changing only the named fields."
        )
        writer.block("struct \(edit.typeName): EditCommand") { w in
            w.line("static let operation = OperationCatalog.\(Naming.lowerFirst(operation.id))")
            w.line("static let noun = \(literal(noun))")
            let clears = members.filter { $0.clearValue != nil }
            let pairs = clears.map { "\(literal($0.input.wireName)): \(literal($0.input.optionName))" }
            w.line("static let clearable: [String: String] = [\(pairs.isEmpty ? ":" : pairs.joined(separator: ", "))]")
            w.line("static let configuration = CommandConfiguration(")
            w.indent { w in
                w.line("commandName: \(literal(edit.name)),")
                w.line("abstract: \(literal("Change some fields of a \(noun); the others keep their values.")),")
                w.line("discussion: \(literal(editDiscussion(edit, members: members, noun: noun)))")
            }
            w.line(")")
            w.line()
            w.line("@ParentCommand var root: BasecampCommand")
            for input in paths { emitDeclaration(input, into: &w) }
            for member in members {
                emitEditDeclaration(member.input, into: &w)
                if member.clearValue != nil {
                    w.line(
                        "@Flag(name: .customLong(\(literal(member.clearOption))), help: ArgumentHelp(\(literal("Clear \(member.input.wireName)."))))"
                    )
                    w.line("var \(member.clearProperty) = false")
                }
            }
            w.line()
            w.block("func invocation() -> OperationInvocation") { w in
                w.line("var call = OperationInvocation()")
                for input in paths { w.line(invocationLine(input)) }
                for member in members {
                    w.line(invocationLine(member.input))
                    if let value = member.clearValue {
                        w.line("call.clear(\(literal(member.input.wireName)), \(member.clearProperty), to: \(value))")
                    }
                }
                w.line("return call")
            }
            w.line()
            w.block("func save(_ change: [String: JSONValue], on account: AccountClient) async throws -> JSONValue") {
                w in
                guard edit.semantics.isReplace, let helper = edit.semantics.mergeHelper else {
                    w.line("try await EditOverlay.patch(Self.operation, invocation(), change, on: account)")
                    return
                }
                let arguments = operation.pathParameters.filter { $0.name != "accountId" }.compactMap { parameter in
                    paths.first { $0.wireName == parameter.name }.map { "\(parameter.swiftName): \($0.property)" }
                }
                w.line(
                    "try EditOverlay.json(await account.\(operation.service).\(helper)(\(arguments.joined(separator: ", "))) { try EditOverlay.apply(change, to: &$0) })"
                )
            }
        }
    }

    /// Like a generated command's declaration, except that a required member (one the record
    /// cannot supply) is a required option.
    private func emitEditDeclaration(_ input: Input, into w: inout CodeWriter) {
        guard input.isRequired, input.shape == .text, input.allowedValues == nil else {
            emitDeclaration(input, into: &w)
            return
        }
        let help = "ArgumentHelp(\(literal(input.help)), valueName: \(literal("text")))"
        w.line("@Option(name: .customLong(\(literal(input.optionName))), help: \(help))")
        w.line("var \(input.property): String")
    }

    private func editNoun(_ operation: OperationModel) -> String {
        guard case .value(.ref(let schema)) = operation.response else { return "record" }
        return Self.editNouns[schema] ?? Naming.words(schema).joined(separator: " ")
    }

    private func editDiscussion(_ edit: Edit, members: [EditMember], noun: String) -> String {
        let operation = edit.operation
        var lines: [String] = []
        let write = "\(operation.method) \(operation.path), operation \(operation.id)"
        if edit.semantics.isReplace,
            let read = model.operations.first(where: { $0.id == edit.semantics.readOperation })
        {
            lines.append(
                "Only the fields you name change. Basecamp replaces the whole \(noun) on a write, so the command reads it once (GET \(read.path)) and writes its full state once (\(write)), with the fields you did not name as they were read: one read, one write. There is no second read before the write: inside one command the first read is milliseconds old, and Basecamp has no conditional write, so a change someone makes in between is overwritten either way."
            )
        } else {
            lines.append(
                "Only the fields you name are sent, in one request (\(write)); Basecamp keeps the others."
            )
        }
        if members.contains(where: { $0.clearValue != nil }) {
            lines.append(
                "--clear-FIELD empties a field. Naming a field and clearing it, or giving a flag with its --no- form, is a usage error (exit 64) and nothing is sent."
            )
        }
        let preserved = edit.semantics.preservedOnOmission
        if !preserved.isEmpty {
            lines.append(
                "\(Self.oneOf(preserved).replacingOccurrences(of: " or ", with: " and ")) are sent only when you name them; Basecamp keeps them otherwise."
            )
        }
        for member in edit.semantics.callerSupplies {
            let option = Self.kebab(member)
            let emptied = members.contains { $0.input.wireName == member && $0.clearValue != nil }
            lines.append(
                "--\(option)\(emptied ? " (or --clear-\(option) for none)" : "") is required: the \(noun) as read "
                    + "does not include it, and the write replaces it."
            )
        }
        lines += ["", "Example:", "  " + editExample(edit, members: members)]
        return lines.joined(separator: "\n")
    }

    /// The required options, a title-like member and the first date member, with sample values.
    private func editExample(_ edit: Edit, members: [EditMember]) -> String {
        var words = ["basecamp", "--sandbox", Self.kebab(edit.operation.service), edit.name]
        for input in inputs(edit.operation) where input.location == .path && input.isPositional {
            words.append(exampleValue(input))
        }
        let titles = ["content", "name", "title", "subject", "summary"]
        var chosen = members.filter(\.input.isRequired).map(\.input)
        if let title = titles.lazy.compactMap({ name in members.first { $0.input.wireName == name } }).first {
            chosen.append(title.input)
        }
        if let day = members.first(where: { $0.input.shape == .day }) { chosen.append(day.input) }
        for input in chosen {
            let value = input.shape == .day ? "tomorrow" : exampleValue(input)
            words += ["--" + input.optionName, value]
        }
        return words.joined(separator: " ")
    }
}

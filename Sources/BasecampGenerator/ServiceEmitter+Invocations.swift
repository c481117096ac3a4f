extension ServiceEmitter {
    func invocationsFile() -> String {
        var writer = CodeWriter.generatedFile(imports: ["Basecamp", "Foundation", "HTTPCore"])
        writer.doc(
            "Calls the generated method of `operationID` with arguments from `samples`; false for an unknown id."
        )
        writer.block(
            "func invokeOperation(_ operationID: String, on account: AccountClient, samples: OperationSamples) async throws -> Bool"
        ) { w in
            let cases = model.operations.map { (literal($0.id), "_ = try await \(invocation($0))") }
            w.switchStatement("operationID", cases: cases, default: "return false")
            w.line("return true")
        }
        return writer.text
    }

    func invocation(_ operation: OperationModel) -> String {
        var arguments: [String] = []
        for (index, parameter) in nonAccountPathParameters(operation).enumerated() {
            let value = parameter.type == .date ? "samples.day(\(index))" : "samples.id(\(index))"
            arguments.append("\(parameter.swiftName): \(value)")
        }
        switch operation.body {
        case .json(let schema): arguments.append("samples.body(\(types.swiftType(.ref(schema))).self)")
        case .octetStream: arguments.append("samples.bytes")
        case .multipart: arguments.append(contentsOf: ["samples.bytes", "filename: \"logo.png\""])
        case nil: break
        }
        for parameter in queryParameters(operation) {
            let sample: String =
                switch parameter.type {
                case .int32: "integer"
                case .int64: "int64"
                case .bool: "bool"
                case .date: "date"
                case .array(.string): "strings"
                case .array: "ids"
                default: "string"
                }
            arguments.append("\(parameter.swiftName): samples.\(sample)(\(literal(parameter.name)))")
        }
        return "account.\(operation.service).\(operation.swiftName)(\(arguments.joined(separator: ", ")))"
    }
}

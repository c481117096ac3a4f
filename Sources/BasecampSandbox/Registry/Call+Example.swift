import Basecamp
import HTTPCore

extension Call {
    /// The Spec's example with the operation's success status, after the checks a real server
    /// would make on the required query parameters and the body.
    func example() throws -> APIReply {
        if let missing = operation.queryParameters.first(where: { $0.isRequired && query.first($0.name) == nil }) {
            throw APIFailure(400, "The query parameter \(missing.name) is required.")
        }
        switch operation.bodyKind {
        case .json?:
            try requireFields(of: try jsonObject())
        case .octetStream?, .multipart?:
            guard !body.isEmpty else { throw APIFailure(400, "The request needs a file body.") }
        case nil:
            break
        }
        guard let schema = operation.responseSchema else { return .empty(status: operation.successStatus) }
        if schema.hasPrefix("[") {
            let item = Templates.parsed(String(schema.dropFirst().dropLast()))
            return operation.isPaginated ? .list([item]) { $0 } : .json([item], status: operation.successStatus)
        }
        var value = Templates.parsed(schema)
        // A fetched record carries the id it was asked for, which makes the examples read naturally.
        if operation.method == .get, let last = operation.pathParameters.last, last.name != "accountId",
            last.kind == .integer, let id = integer(last.name), value["id"] != nil
        {
            value = value.merging(["id": .integer(id)])
        }
        return .json(value, status: operation.successStatus)
    }
}

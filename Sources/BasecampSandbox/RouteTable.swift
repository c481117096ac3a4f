import Basecamp
import HTTPTypes

/// Finds the Spec operation a request is for, by method and path template, so the sandbox
/// answers exactly the routes the SDK calls and nothing else.
struct RouteTable: Sendable {
    /// One segment of a path template: literal text, or a placeholder with optional literal
    /// text around it (`{personId}.json`).
    enum Segment: Sendable {
        case literal(String)
        case parameter(name: String, prefix: String, suffix: String, numeric: Bool)
    }

    struct Route: Sendable {
        var operation: BasecampOperation
        var segments: [Segment]
        var literalCount: Int
    }

    private let routes: [HTTPRequest.Method: [Route]]

    init(operations: [BasecampOperation] = OperationCatalog.all) {
        var routes: [HTTPRequest.Method: [Route]] = [:]
        for operation in operations {
            let kinds = Dictionary(
                operation.pathParameters.map { ($0.name, $0.kind) },
                uniquingKeysWith: { first, _ in first }
            )
            let segments = operation.pathTemplate.split(separator: "/").map { part -> Segment in
                guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}") else {
                    return .literal(String(part))
                }
                let name = String(part[part.index(after: open)..<close])
                return .parameter(
                    name: name,
                    prefix: String(part[..<open]),
                    suffix: String(part[part.index(after: close)...]),
                    numeric: name == "accountId" || kinds[name] == .integer
                )
            }
            let literals = segments.filter { if case .literal = $0 { return true } else { return false } }.count
            routes[operation.method, default: []].append(
                Route(operation: operation, segments: segments, literalCount: literals)
            )
        }
        // The most literal template wins, so `/todos/completed.json` is not read as a to-do id.
        self.routes = routes.mapValues { $0.sorted { $0.literalCount > $1.literalCount } }
    }

    /// The operation and its path values for `method` and `path` (relative to the base path),
    /// or `nil` when no template matches.
    func match(_ method: HTTPRequest.Method, path: String) -> (BasecampOperation, [String: String])? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        for route in routes[method] ?? [] where route.segments.count == parts.count {
            if let values = Self.values(route.segments, parts) { return (route.operation, values) }
        }
        return nil
    }

    /// Whether any method has a template for `path`, to tell 405 from 404.
    func knows(path: String) -> Bool {
        routes.keys.contains { match($0, path: path) != nil }
    }

    private static func values(_ segments: [Segment], _ parts: [String]) -> [String: String]? {
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard text == part else { return nil }
            case .parameter(let name, let prefix, let suffix, let numeric):
                guard part.hasPrefix(prefix), part.hasSuffix(suffix), part.count > prefix.count + suffix.count
                else { return nil }
                let value = String(part.dropFirst(prefix.count).dropLast(suffix.count))
                if numeric, !value.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
                values[name] = value
            }
        }
        return values
    }
}

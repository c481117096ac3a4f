import Foundation
import HTTPCore
import HTTPTypes

/// One operation of the Basecamp API as the Spec describes it, for tools that call operations
/// by id (the `basecamp api OPERATION_ID` command) and for documentation.
///
/// Every operation is listed in ``OperationCatalog/all``; look one up with
/// ``OperationCatalog/operation(id:)``.
public struct BasecampOperation: Sendable, Hashable, Identifiable {
    /// A path or query parameter.
    public struct Parameter: Sendable, Hashable {
        /// The value's type on the wire.
        public enum Kind: String, Sendable, Hashable {
            /// Text.
            case string
            /// A whole number.
            case integer
            /// `true` or `false`.
            case boolean
            /// A calendar date, `YYYY-MM-DD`.
            case date
            /// A repeated whole-number parameter (`ids[]=1&ids[]=2`).
            case integerList
            /// A repeated text parameter (`type_names[]=Todo&type_names[]=Message`).
            case stringList
        }

        /// The name on the wire, e.g. `todoId` or `assignee_ids[]`.
        public var name: String
        /// The argument label of the generated Swift method, e.g. `todoID`.
        public var swiftName: String
        /// The value's type.
        public var kind: Kind
        /// Whether the operation needs it.
        public var isRequired: Bool

        /// Creates a parameter description.
        public init(name: String, swiftName: String, kind: Kind, isRequired: Bool) {
            self.name = name
            self.swiftName = swiftName
            self.kind = kind
            self.isRequired = isRequired
        }
    }

    /// How the request body is sent.
    public enum BodyKind: String, Sendable, Hashable {
        /// A JSON object.
        case json
        /// Raw bytes (`application/octet-stream`, with the file's own content type).
        case octetStream
        /// A `multipart/form-data` form.
        case multipart
    }

    /// The Spec's `operationId`, e.g. `GetTodo`.
    public var id: String
    /// The service, e.g. `todos` (the ``AccountClient`` property that holds the method).
    public var service: String
    /// The generated method's name within its service, e.g. `get`.
    public var swiftName: String
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path template, e.g. `/{accountId}/todos/{todoId}`.
    public var pathTemplate: String
    /// The path parameters in path order, `accountId` first.
    public var pathParameters: [Parameter]
    /// The query parameters.
    public var queryParameters: [Parameter]
    /// How the body is sent, or `nil` for no body.
    public var bodyKind: BodyKind?
    /// The Spec schema of the body (for JSON and raw bodies), e.g. `CreateTodoRequestContent`.
    public var bodySchema: String?
    /// The Spec schema of the response, `[Name]` for a list, or `nil` when there is no body.
    public var responseSchema: String?
    /// A one-line summary.
    public var summary: String
    /// The status a success answers with: 200, 201 or 204.
    public var successStatus: Int
    /// Whether the operation only reads.
    public var isReadOnly: Bool
    /// Whether repeating the call cannot apply it twice: every read, and the writes the Spec marks
    /// idempotent.
    public var isIdempotent: Bool
    /// How the call is retried, from the Spec's `x-basecamp-retry`.
    public var retry: RetryPolicy
    /// How the list is paged through `Link` headers, or `nil` when the operation is not paginated.
    public var pagination: PaginationMetadata?
    /// Whether the operation replaces the whole record, clearing any field left out.
    public var replacesWholeRecord: Bool

    /// Whether the list is paged through `Link` headers.
    public var isPaginated: Bool { pagination != nil }

    /// Whether each page holds the list inside an object, beside other members (a person's
    /// progress: the person, then the events); read it whole with
    /// ``AccountClient/performEnveloped(_:pathParameters:query:options:where:)``.
    public var listsInsideObject: Bool { pagination?.itemsKey != nil }

    /// Name, service, idempotency, retry and pagination, as sent with every call; derived from the
    /// operation's own fields.
    public var metadata: OperationMetadata {
        OperationMetadata(name: id, service: service, idempotent: isIdempotent, retry: retry, pagination: pagination)
    }

    /// Creates an operation description.
    public init(
        id: String,
        service: String,
        swiftName: String,
        method: HTTPRequest.Method,
        pathTemplate: String,
        pathParameters: [Parameter],
        queryParameters: [Parameter] = [],
        bodyKind: BodyKind? = nil,
        bodySchema: String? = nil,
        responseSchema: String? = nil,
        summary: String,
        successStatus: Int,
        isReadOnly: Bool,
        isIdempotent: Bool,
        retry: RetryPolicy,
        pagination: PaginationMetadata? = nil,
        replacesWholeRecord: Bool = false
    ) {
        self.id = id
        self.service = service
        self.swiftName = swiftName
        self.method = method
        self.pathTemplate = pathTemplate
        self.pathParameters = pathParameters
        self.queryParameters = queryParameters
        self.bodyKind = bodyKind
        self.bodySchema = bodySchema
        self.responseSchema = responseSchema
        self.summary = summary
        self.successStatus = successStatus
        self.isReadOnly = isReadOnly
        self.isIdempotent = isIdempotent
        self.retry = retry
        self.pagination = pagination
        self.replacesWholeRecord = replacesWholeRecord
    }

    /// The path with `values` filled in (`accountId` included), each percent-encoded.
    ///
    /// - Throws: ``APIError/usage(_:)`` naming a missing parameter or an account id that is not
    ///   numeric.
    public func path(_ values: [String: String]) throws -> String {
        for parameter in pathParameters {
            guard let value = values[parameter.name], !value.isEmpty else {
                throw APIError.usage("\(id) needs the path parameter \(parameter.name).")
            }
            if parameter.name == "accountId" || parameter.kind == .integer {
                guard value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    throw APIError.usage("\(id): \(parameter.name) must be a number, not \"\(value.prefix(40))\".")
                }
            }
        }
        return path { _, parameter in Self.encodeSegment(values[parameter.name] ?? "") }
    }

    /// The path template with each parameter's placeholder replaced by what `value` gives for it
    /// (its `place` among ``pathParameters`` and the parameter), taken as it is: no checks, no
    /// percent-encoding. A placeholder that names none of the parameters is left as written. The
    /// template is read once, so this suits a path built for every record of a page.
    ///
    /// ```swift
    /// OperationCatalog.getTodo.path { _, parameter in parameter.name == "accountId" ? "999" : "1" }
    /// // "/999/todos/1"
    /// ```
    public func path(_ value: (_ place: Int, _ parameter: Parameter) -> String) -> String {
        var path = ""
        // After each `{` of the template: a placeholder's name up to `}`, then text.
        for (index, piece) in pathTemplate.split(separator: "{", omittingEmptySubsequences: false).enumerated() {
            let name = piece.prefix { $0 != "}" }
            if index > 0, name.count < piece.count, let place = pathParameters.firstIndex(where: { $0.name == name }) {
                path += value(place, pathParameters[place])
                path += piece.dropFirst(name.count + 1)
            } else {
                // The text before the first placeholder, or a `{` that opens no parameter's.
                path += (index > 0 ? "{" : "") + piece
            }
        }
        return path
    }

    /// RFC 3986's unreserved characters: all a path segment's value may hold unencoded.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    private static func encodeSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

extension OperationCatalog {
    /// The operation with the Spec's `operationId` `id` (case-sensitive), or `nil`.
    public static func operation(id: String) -> BasecampOperation? {
        byID[id]
    }

    /// The operations of one service, in `operationId` order.
    public static func operations(service: String) -> [BasecampOperation] {
        all.filter { $0.service == service }
    }

    private static let byID: [String: BasecampOperation] = Dictionary(
        all.map { ($0.id, $0) },
        uniquingKeysWith: { first, _ in first }
    )
}

extension AccountClient {
    /// Calls any operation by its description, with string arguments, and returns the response
    /// as JSON (`null` for an empty body). This is what `basecamp api OPERATION_ID` uses.
    ///
    /// ```swift
    /// let op = try #require(OperationCatalog.operation(id: "GetTodo"))
    /// let todo = try await account.perform(op, pathParameters: ["todoId": "42"])
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The operation, from ``OperationCatalog``.
    ///   - pathParameters: Values by wire name; `accountId` is filled in from this client.
    ///   - query: Name–value pairs, sent in order; repeat a name for a list parameter.
    ///   - body: The body; for JSON operations usually `.json(JSONValue)`.
    /// - Throws: ``APIError/usage(_:)`` for a missing path or required query parameter, or any
    ///   error of the call itself.
    public func perform(
        _ operation: BasecampOperation,
        pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [],
        body: RequestBody? = nil
    ) async throws -> Response<JSONValue> {
        try await context.response(endpoint(operation, pathParameters: pathParameters, query: query, body: body))
    }

    /// Like ``perform(_:pathParameters:query:body:)`` for an operation whose body is a file's
    /// bytes (`CreateAttachment`, say): the file is read as it is sent, never held in memory.
    ///
    /// - Parameters:
    ///   - file: The file to send.
    ///   - contentType: Its media type; guessed from the file's extension by default.
    ///   - progress: Called as the bytes go out.
    /// - Throws: ``APIError``; an unreadable file is reported before anything is sent.
    public func perform(
        _ operation: BasecampOperation,
        pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [],
        uploadingFile file: URL,
        contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response<JSONValue> {
        let type = contentType ?? MediaType.forFileName(file.lastPathComponent)
        let endpoint = try endpoint(
            operation,
            pathParameters: pathParameters,
            query: query,
            body: .bytes(Data(), contentType: type)
        )
        return try await context.basecamp.http.upload(context.prepared(endpoint), fromFile: file, progress: progress)
    }

    /// Like ``perform(_:pathParameters:query:body:)`` for a paginated operation, walking its
    /// pages lazily as an async sequence of JSON items.
    ///
    /// For an operation whose pages hold the list inside an object
    /// (``BasecampOperation/listsInsideObject``) the items are the list's; the rest of the object
    /// is read with ``performEnveloped(_:pathParameters:query:options:where:)``.
    ///
    /// - Throws: ``APIError/usage(_:)`` for a missing parameter or an operation that is not
    ///   paginated.
    public func performPaginated(
        _ operation: BasecampOperation,
        pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [],
        options: PaginationOptions? = nil
    ) throws -> Paginated<JSONValue> {
        context.paginate(try listEndpoint(operation, pathParameters: pathParameters, query: query), options: options)
    }

    /// Walks the pages of an operation whose pages hold the list inside an object
    /// (`GetPersonProgress`: the person, then a page of events) and returns the first page's
    /// object, its list holding every item fetched that `isIncluded` keeps.
    ///
    /// The object comes from the first page, so one page is fetched even for `maxItems: 0`.
    ///
    /// - Parameters:
    ///   - options: Limits (`maxItems`, counting the items kept; `maxPages`) and one `page`;
    ///     `nil` uses the client's `maxPages`.
    ///   - isIncluded: Which items to keep, applied before `maxItems` counts them; with a filter
    ///     that leaves any out, `meta.totalCount` is `nil`, as the server's count is of them all.
    /// - Throws: ``APIError/usage(_:)`` for a missing parameter, an operation whose list is not
    ///   inside an object, or `maxPages` below 1; any other ``APIError`` from a page, which after
    ///   some pages carries the object and the items fetched so far
    ///   (``APIError/partialEnvelope(of:)`` with `JSONValue`).
    public func performEnveloped(
        _ operation: BasecampOperation,
        pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [],
        options: PaginationOptions? = nil,
        where isIncluded: (JSONValue) -> Bool = { _ in true }
    ) async throws -> EnvelopedList<JSONValue> {
        guard let key = operation.pagination?.itemsKey else {
            throw APIError.usage("\(operation.id) does not send its list inside an object.")
        }
        return try await context.collectEnvelopes(
            try endpoint(operation, pathParameters: pathParameters, query: query, body: nil),
            options: options,
            maxItems: nil,
            items: { (envelope: JSONValue) in envelope[key]?.arrayValue ?? [] },
            replacingItems: { envelope, items in
                if case .object(var members) = envelope {
                    members[key] = .array(items)
                    envelope = .object(members)
                }
            },
            where: isIncluded
        )
    }

    private func listEndpoint(
        _ operation: BasecampOperation,
        pathParameters: [String: String],
        query: [(name: String, value: String)]
    ) throws -> Endpoint<[JSONValue]> {
        guard operation.isPaginated else {
            throw APIError.usage("\(operation.id) is not a paginated operation.")
        }
        return try endpoint(operation, pathParameters: pathParameters, query: query, body: nil)
            .decoding(ResponseDecoder<[JSONValue]>.json)
    }

    func endpoint(
        _ operation: BasecampOperation,
        pathParameters: [String: String],
        query: [(name: String, value: String)],
        body: RequestBody?
    ) throws -> Endpoint<JSONValue> {
        var values = pathParameters
        values["accountId"] = accountID
        let path = try operation.path(values)
        for parameter in operation.queryParameters where parameter.isRequired {
            guard query.contains(where: { $0.name == parameter.name }) else {
                throw APIError.usage("\(operation.id) needs the query parameter \(parameter.name).")
            }
        }
        var parameters = QueryParameters()
        for item in query { parameters.append(item.name, item.value) }
        if operation.bodyKind != nil, body == nil {
            throw APIError.usage("\(operation.id) needs a request body.")
        }
        return Endpoint<JSONValue>(
            operation.method,
            String(path.drop(while: { $0 == "/" })),
            query: parameters,
            body: body,
            operation: operation.metadata,
            decoder: ResponseDecoder { data, _, _ in
                data.isEmpty ? .null : try JSONValue(parsing: data)
            }
        )
    }
}

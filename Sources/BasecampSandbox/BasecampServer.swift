import Basecamp
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

/// One parsed request to the Basecamp API: the matched operation, its path values, query and
/// body, and where links in the answer should point.
struct APIRequest {
    var operation: BasecampOperation
    var pathValues: [String: String]
    var query: [(name: String, value: String)]
    var body: Data
    var origin: String
    var path: String
    /// The request's `Content-Type`, for uploaded bytes.
    var contentType: String? = nil

    func integer(_ name: String) -> Int? { pathValues[name].flatMap { Int($0) } }

    func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The body as a JSON object.
    ///
    /// - Throws: ``APIFailure`` `400` when the body is not one.
    func jsonObject() throws -> [String: JSONValue] {
        guard !body.isEmpty else { throw APIFailure(400, "The request needs a JSON body.") }
        guard case .object(let members) = try? JSONValue(parsing: body) else {
            throw APIFailure(400, "The request body is not a JSON object.")
        }
        return members
    }
}

/// What a handler answers.
enum APIReply {
    /// A JSON body with a status.
    case json(JSONValue, status: Int)
    /// A list of `count` items, paged by the sandbox (`Link`, `X-Total-Count`): only the page
    /// asked for is rendered, so a page costs the same however long the list.
    case page(count: Int, items: (Range<Int>) -> [JSONValue])
    /// No body.
    case empty(status: Int)
    /// The Spec's example, answered with `X-Sandbox-Example: true` so a test (or a curious user)
    /// can tell it from kept data.
    indirect case example(APIReply)

    /// `records`, each rendered with `render` when its page is asked for.
    static func list<Record>(_ records: [Record], _ render: @escaping (Record) -> JSONValue) -> APIReply {
        .page(count: records.count) { records[$0].map(render) }
    }

    /// Items already rendered.
    static func list(_ items: [JSONValue]) -> APIReply {
        .list(items) { $0 }
    }
}

/// A failure answered as Basecamp does: a status and `{"error": …}` (with field errors for 422).
struct APIFailure: Error {
    var status: Int
    var message: String
    var fieldErrors: [String: [String]] = [:]

    init(_ status: Int, _ message: String, fieldErrors: [String: [String]] = [:]) {
        self.status = status
        self.message = message
        self.fieldErrors = fieldErrors
    }

    static func notFound(_ what: String) -> APIFailure { APIFailure(404, "\(what) not found.") }

    static func invalid(_ field: String, _ problem: String) -> APIFailure {
        APIFailure(422, "Validation failed", fieldErrors: [field: [problem]])
    }
}

/// The Basecamp API as the sandbox plays it: authentication, routing, the stateful resources,
/// Spec examples for everything else, paging, ETags and request ids.
final class BasecampServer: Sendable {
    static let maxBodySize = 16 * 1024 * 1024

    let basePath: String
    let store: AccountStore
    let rejectedTokens: Set<String>
    /// Whether a non-empty bearer token is good (the authorization servers' verdict).
    let acceptsToken: @Sendable (String) -> Bool
    let routes = RouteTable()
    /// Delivers webhook events for changes made through this server.
    let webhooks: WebhookDispatcher
    private let requestCounter = Locked(0)

    init(
        basePath: String,
        store: AccountStore,
        rejectedTokens: Set<String>,
        acceptsToken: @escaping @Sendable (String) -> Bool = { _ in true },
        webhookOptions: WebhookDispatcher.Options = .init()
    ) {
        self.basePath = basePath
        self.store = store
        self.webhooks = WebhookDispatcher(store: store, basePath: basePath, options: webhookOptions)
        self.rejectedTokens = rejectedTokens
        self.acceptsToken = acceptsToken
    }

    func handle(_ request: Request) async throws -> Response {
        let requestID =
            "basecamp-"
            + String(
                requestCounter.withLock { count -> Int in
                    count += 1
                    return count
                }
            )
        var request = request
        let body = Data(try await request.collectBody(upTo: Self.maxBodySize).readableBytesView)
        let response: Response
        do {
            response = try answer(request, body: body, requestID: requestID)
        } catch let failure as APIFailure {
            response = Self.failure(failure, requestID: requestID)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    private func answer(_ request: Request, body: Data, requestID: String) throws -> Response {
        let fullPath = request.uri.path
        let relative = fullPath.hasPrefix(basePath) ? String(fullPath.dropFirst(basePath.count)) : fullPath
        // Storage is another host in Basecamp: it takes no token, only the URL's signature.
        if let stored = BlobRoutes.storage(relative, request: request, store: store, requestID: requestID) {
            return stored
        }
        try authenticate(request)
        if let redirect = try BlobRoutes.redirect(
            relative,
            origin: "http://" + (request.head.authority ?? "127.0.0.1"),
            basePath: basePath,
            store: store,
            requestID: requestID
        ) {
            return redirect
        }
        if relative == "/_sandbox/reset", request.method == .post {
            try store.reset()
            return Self.make(status: 204, body: nil, headers: [:], requestID: requestID)
        }
        let method = request.method == .head ? HTTPRequest.Method.get : request.method
        guard let (operation, values) = routes.match(method, path: relative) else {
            if routes.knows(path: relative) {
                throw APIFailure(405, "\(request.method.rawValue) is not allowed on \(relative).")
            }
            throw APIFailure(404, "No Basecamp route for \(request.method.rawValue) \(relative).")
        }
        guard values["accountId"] == String(store.snapshot().accountID) else {
            throw APIFailure.notFound("Account \(values["accountId"] ?? "")")
        }
        let authority = request.head.authority ?? "127.0.0.1"
        let apiRequest = APIRequest(
            operation: operation,
            pathValues: values,
            query: QueryString.items(request.uri.query),
            body: body,
            origin: "http://" + authority,
            path: fullPath,
            contentType: request.headers[.contentType]
        )
        let reply = try Handlers(server: self, request: apiRequest).reply()
        return try respond(reply, to: apiRequest, ifNoneMatch: request.headers[.ifNoneMatch], requestID: requestID)
    }

    /// Any non-empty bearer token is accepted, except the ones the module was told to reject and
    /// the ones the authorization servers refuse (issued but expired or revoked, or any they did
    /// not issue when they require their own).
    private func authenticate(_ request: Request) throws {
        let header = request.headers[.authorization] ?? ""
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIFailure(401, "OAuth token required: send Authorization: Bearer <token>.")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, !rejectedTokens.contains(token), acceptsToken(token) else {
            throw APIFailure(401, "The access token is invalid or has expired.")
        }
    }

    // MARK: Responses

    private func respond(
        _ reply: APIReply,
        to request: APIRequest,
        ifNoneMatch: String?,
        requestID: String
    ) throws -> Response {
        var headers: [HTTPField.Name: String] = [:]
        var reply = reply
        if case .example(let example) = reply {
            reply = example
            headers[.xSandboxExample] = "true"
        }
        let status: Int
        let body: JSONValue?
        switch reply {
        case .empty(let code):
            return Self.make(status: code, body: nil, headers: headers, requestID: requestID)
        case .example(let nested):
            // Never built by ``Handlers``; answered as what it wraps.
            return try respond(nested, to: request, ifNoneMatch: ifNoneMatch, requestID: requestID)
        case .json(let value, let code):
            status = code
            body = value
        case .page(let count, let items):
            let pageSize = request.operation.metadata.pagination?.pageSize ?? 50
            // Clamped so that a huge `page` reads as past the end instead of overflowing.
            let page = min(max(1, request.queryValue("page").flatMap { Int($0) } ?? 1), count / pageSize + 2)
            let start = min(count, (page - 1) * pageSize)
            let end = min(count, start + pageSize)
            status = 200
            body = .array(items(start..<end))
            if request.operation.isPaginated {
                headers[.xTotalCount] = String(count)
                if end < count {
                    headers[.link] = "<\(nextPageURL(request, page: page + 1))>; rel=\"next\""
                }
            }
        }
        let bytes = body.map(JSONText.bytes) ?? []
        let data = Data(bytes)
        if request.operation.method == .get, status == 200 {
            let etag = Self.etag(bytes)
            headers[.eTag] = etag
            if let ifNoneMatch, Self.matches(ifNoneMatch, etag) {
                return Self.make(status: 304, body: nil, headers: headers, requestID: requestID)
            }
        }
        return Self.make(status: status, body: data, headers: headers, requestID: requestID)
    }

    private func nextPageURL(_ request: APIRequest, page: Int) -> String {
        var items = request.query.filter { $0.name != "page" }
        items.append(("page", String(page)))
        return request.origin + request.path + "?" + QueryString.encode(items)
    }

    static func make(status: Int, body: Data?, headers: [HTTPField.Name: String], requestID: String) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers { fields[name] = value }
        fields[.xRequestID] = requestID
        guard let body, status != 204, status != 304 else {
            return Response(status: .init(code: status), headers: fields)
        }
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: .init(code: status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    static func failure(_ failure: APIFailure, requestID: String) -> Response {
        var members: [String: JSONValue] = ["error": .string(failure.message)]
        if !failure.fieldErrors.isEmpty {
            members["errors"] = .object(failure.fieldErrors.mapValues { .array($0.map(JSONValue.string)) })
        }
        var headers: [HTTPField.Name: String] = [:]
        if failure.status == 401 { headers[.wwwAuthenticate] = "Bearer realm=\"Basecamp\"" }
        return make(
            status: failure.status,
            body: JSONValue.object(members).encoded(),
            headers: headers,
            requestID: requestID
        )
    }

    /// A strong validator from the body's bytes (64-bit FNV-1a), so equal answers share a tag.
    static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// `If-None-Match` with weak comparison: `*`, or any listed tag equal once `W/` is dropped.
    static func matches(_ header: String, _ etag: String) -> Bool {
        let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { tag in
            tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }
}

extension HTTPField.Name {
    static let xTotalCount = HTTPField.Name("X-Total-Count") ?? .contentType
    static let xSandboxExample = HTTPField.Name("X-Sandbox-Example") ?? .contentType
}

/// Query strings: percent-decoding in, percent-encoding out.
enum QueryString {
    static func items(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func encode(_ items: [(name: String, value: String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return items.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    private static func decode(_ raw: Substring) -> String {
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

import APISandbox
import Basecamp
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

/// The Basecamp API as the sandbox plays it: one Hummingbird route per Spec path, each looking
/// its operation up in ``OperationTable``, behind Basecamp's token check, with its paging, ETags
/// and request ids.
@available(macOS 14, iOS 17, tvOS 17, *)
final class BasecampServer: Sendable {
    static let maxBodySize = 16 * 1024 * 1024
    private static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]

    let basePath: String
    let store: AccountStore
    let rejectedTokens: Set<String>
    /// Whether a non-empty bearer token is good (the authorization servers' verdict).
    let acceptsToken: @Sendable (String) -> Bool
    /// Delivers webhook events for changes made through this server.
    let webhooks: WebhookDispatcher
    /// What every time the sandbox writes is read from.
    let timeSource: any TimeSource
    private let requestCounter = Locked(0)

    init(
        basePath: String,
        store: AccountStore,
        rejectedTokens: Set<String>,
        acceptsToken: @escaping @Sendable (String) -> Bool = { _ in true },
        timeSource: any TimeSource = SystemTimeSource(),
        webhookOptions: WebhookDispatcher.Options = .init()
    ) {
        self.basePath = basePath
        self.store = store
        self.rejectedTokens = rejectedTokens
        self.acceptsToken = acceptsToken
        self.timeSource = timeSource
        self.webhooks = WebhookDispatcher(
            store: store,
            basePath: basePath,
            timeSource: timeSource,
            options: webhookOptions
        )
    }

    /// Registers every Spec path template under the base path, for every method: a method the
    /// path has no operation for answers `405`, as Basecamp does, rather than Hummingbird's `404`.
    /// Then the download and storage routes, and the reset.
    func register(on router: Router<SandboxRequestContext>) {
        router.add(middleware: UnmatchedPaths(server: self))
        let api = router.group(RouterPath(basePath))
        for (template, operations) in Dictionary(grouping: OperationCatalog.all, by: \.pathTemplate) {
            for method in Self.methods {
                let operation = operations.first { $0.method == (method == .head ? .get : method) }
                api.on(Self.routerPath(template), method: method) { request, context in
                    try await self.handle(request, context) { try self.call(operation, request, context, body: $0) }
                }
            }
        }
        api.on(Self.routerPath("/{accountId}/blobs/{sgid}/download/{filename}"), method: .get) { request, context in
            try await self.handle(request, context) { _ in
                let data = self.store.snapshot()
                guard context.parameters.get("p0") == String(data.accountID),
                    let blob = context.parameters.get("p1").flatMap(data.attachment)
                else { throw APIFailure.notFound("File") }
                return .redirect(BlobRoutes.storageURL(of: blob, base: Self.origin(request) + self.basePath))
            }
        }
        api.get("_storage/{sgid}") { request, context in
            let blob = context.parameters.get("sgid").flatMap(self.store.snapshot().attachment)
            return BlobRoutes.serve(blob, request: request, requestID: self.nextRequestID())
        }
        api.post("_sandbox/reset") { request, context in
            try await self.handle(request, context) { _ in
                try self.store.reset()
                return .empty(status: 204)
            }
        }
    }

    /// Hummingbird names each capture by its place (`{p2}`), because two Spec templates may name
    /// the same place differently (`/todolists/{id}`, `/todolists/{todolistId}/todos.json`), and
    /// its trie would then keep them apart and find only one.
    private static func routerPath(_ template: String) -> RouterPath {
        var place = 0
        let parts = template.split(separator: "/").map { part -> String in
            guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}") else { return String(part) }
            defer { place += 1 }
            return String(part[..<open]) + "{p\(place)}" + String(part[part.index(after: close)...])
        }
        return RouterPath(parts.joined(separator: "/"))
    }

    /// Checks the token, then answers with what `answer` replies, as a response with a request
    /// id; a failure is answered as Basecamp does.
    func handle(
        _ request: Request,
        _ context: SandboxRequestContext,
        _ answer: (Data) throws -> Reply
    ) async throws -> Response {
        var request = request
        let requestID = nextRequestID()
        let body = Data(try await request.collectBody(upTo: Self.maxBodySize).readableBytesView)
        let response: Response
        do {
            try authenticate(request)
            response = try respond(answer(body), to: request, requestID: requestID)
        } catch let failure as APIFailure {
            response = Self.failure(failure, requestID: requestID)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The request as a ``Call`` of `operation`, answered from its row of the table.
    private func call(
        _ operation: BasecampOperation?,
        _ request: Request,
        _ context: SandboxRequestContext,
        body: Data
    ) throws -> Reply {
        let path = request.uri.path
        guard let operation else { throw APIFailure(405, "\(request.method.rawValue) is not allowed on \(path).") }
        var values: [String: String] = [:]
        for (place, parameter) in operation.pathParameters.enumerated() {
            let value = context.parameters.get("p\(place)").map { $0.removingPercentEncoding ?? $0 } ?? ""
            if parameter.name == "accountId" || parameter.kind == .integer,
                !value.allSatisfy({ $0.isASCII && $0.isNumber })
            {
                throw APIFailure(404, "No Basecamp route for \(request.method.rawValue) \(path).")
            }
            values[parameter.name] = value
        }
        guard values["accountId"] == String(store.snapshot().accountID) else {
            throw APIFailure.notFound("Account \(values["accountId"] ?? "")")
        }
        let call = Call(
            server: self,
            operation: operation,
            pathValues: values,
            query: QueryString.items(request.uri.query),
            body: body,
            origin: Self.origin(request),
            path: path,
            contentType: request.headers[.contentType]
        )
        return .api(try call.reply(), call)
    }

    /// Any non-empty bearer token is accepted, except the ones the module was told to reject and
    /// the ones the authorization servers refuse (issued but expired or revoked, or any they did
    /// not issue when they require their own).
    func authenticate(_ request: Request) throws {
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

    func nextRequestID() -> String {
        "basecamp-"
            + String(
                requestCounter.withLock { count -> Int in
                    count += 1
                    return count
                }
            )
    }

    /// `http://host:port` as the client addressed the sandbox.
    static func origin(_ request: Request) -> String {
        "http://" + (request.head.authority ?? "127.0.0.1")
    }
}

/// Answers a path under the base path that no route matched as Basecamp does (after the token
/// check, in JSON, with a request id) rather than with Hummingbird's bare `404`.
@available(macOS 14, iOS 17, tvOS 17, *)
private struct UnmatchedPaths: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let server: BasecampServer

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let path = request.uri.path
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && path.hasPrefix(server.basePath + "/") {
            return try await server.handle(request, context) { _ in
                throw APIFailure(404, "No Basecamp route for \(request.method.rawValue) \(path).")
            }
        }
    }
}

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

    let basePath: String
    let store: AccountStore
    let rejectedTokens: Set<String>
    /// The authorization servers, whose verdict on a token the API follows.
    let authorization: BasecampSandboxAuthorization
    let timeSource: any TimeSource
    let webhooks: WebhookDispatcher
    /// The sandbox's shared state, which knows where the storage origin listens.
    let sandboxState: SandboxState
    private let requestCount = Locked(0)

    /// The server `module` describes, keeping its account in `store`.
    init(module: BasecampSandboxModule, store: AccountStore, state: SandboxState) {
        (basePath, rejectedTokens, authorization) = (module.basePath, module.rejectedTokens, module.authorization)
        sandboxState = state
        (self.store, timeSource) = (store, module.timeSource)
        webhooks = WebhookDispatcher(
            store: store,
            basePath: basePath,
            timeSource: timeSource,
            retryDelays: module.webhookRetryDelays,
            timeout: module.webhookTimeout
        )
    }

    /// Registers every Spec path template under the base path for every method, so that a
    /// method the path has no operation for answers `405`, as Basecamp does; then a download's
    /// redirect to the storage origin (see ``registerStorage(on:)``), and the reset.
    func register(on router: Router<SandboxRequestContext>) {
        let api = router.group(RouterPath(basePath))
        for (template, operations) in Dictionary(grouping: OperationCatalog.all, by: \.pathTemplate) {
            for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
                let operation = operations.first { $0.method == (method == .head ? .get : method) }
                api.on(Self.routerPath(template), method: method) { request, context in
                    try await self.handle(request) { body, requestID in
                        let call = try self.call(operation, request, context, body: body)
                        return self.respond(try call.reply(), of: call, to: request, requestID: requestID)
                    }
                }
            }
        }
        api.get(Self.routerPath(BlobRoutes.downloadPath)) { request, context in
            try await self.handle(request) { _, requestID in
                try self.redirectToStorage(request, context, requestID: requestID)
            }
        }
        api.post("_sandbox/reset") { request, _ in
            try await self.handle(request) { _, requestID in
                try self.store.reset()
                return Self.make(status: 204, body: nil, headers: [:], requestID: requestID)
            }
        }
    }

    /// Hummingbird names each capture by its place (`{p2}`), because two Spec templates may name
    /// the same place differently (`/todolists/{id}`, `/todolists/{todolistId}/todos.json`), and
    /// its trie would then keep them apart and find only one.
    static func routerPath(_ template: String) -> RouterPath {
        var place = 0
        let parts = template.split(separator: "/").map { part -> String in
            guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}") else { return String(part) }
            defer { place += 1 }
            return String(part[..<open]) + "{p\(place)}" + String(part[part.index(after: close)...])
        }
        return RouterPath(parts.joined(separator: "/"))
    }

    /// Checks the token, then answers with what `answer` makes of the body and a request id; a
    /// failure is answered as Basecamp does.
    func handle(_ request: Request, _ answer: (Data, String) throws -> Response) async throws -> Response {
        var request = request
        let requestID = nextRequestID()
        let body = Data(try await request.collectBody(upTo: Self.maxBodySize).readableBytesView)
        let response: Response
        do {
            // Any non-empty bearer token works, except those the module rejects and those the
            // authorization servers refuse (issued and then expired or revoked).
            guard let token = AuthorizationRoutes.bearerToken(request) else {
                throw APIFailure(401, "OAuth token required")
            }
            guard !rejectedTokens.contains(token) else { throw APIFailure(401, "OAuth token invalid") }
            guard authorization.accepts(token) else { throw APIFailure(401, "OAuth token expired (old age)") }
            response = try answer(body, requestID)
        } catch let failure as APIFailure {
            response = Self.failure(failure, requestID: requestID)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The request as a ``Call`` of `operation`.
    private func call(
        _ operation: BasecampOperation?,
        _ request: Request,
        _ context: SandboxRequestContext,
        body: Data
    ) throws -> Call {
        let (method, path) = (request.method.rawValue, request.uri.path)
        guard let operation else { throw APIFailure(405, "\(method) is not allowed on \(path).") }
        var values: [String: String] = [:]
        for (place, parameter) in operation.pathParameters.enumerated() {
            let value = context.parameters.get("p\(place)").map { $0.removingPercentEncoding ?? $0 } ?? ""
            let numeric = parameter.name == "accountId" || parameter.kind == .integer
            guard !numeric || value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw APIFailure(404, "No Basecamp route for \(method) \(path).")
            }
            values[parameter.name] = value
        }
        guard values["accountId"] == String(store.snapshot().accountID) else {
            throw APIFailure.notFound("Account \(values["accountId"] ?? "")")
        }
        return Call(
            server: self,
            operation: operation,
            pathValues: values,
            query: QueryString.items(request.uri.query),
            body: body,
            origin: AuthorizationRoutes.origin(request),
            path: path,
            contentType: request.headers[.contentType]
        )
    }

    func nextRequestID() -> String {
        requestCount.withLock { count in
            count += 1
            return "basecamp-\(count)"
        }
    }
}

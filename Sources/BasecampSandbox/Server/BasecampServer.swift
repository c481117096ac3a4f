import APISandbox
import Basecamp
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

/// The Basecamp API as the sandbox plays it: one Hummingbird route per Spec path, each looking
/// its operation up in ``OperationTable``, behind Basecamp's checks, with paging, ETags, ids.
@available(macOS 14, iOS 17, tvOS 17, *)
final class BasecampServer: Sendable {
    /// The largest JSON body taken; files are streamed to ``files`` instead.
    static let maxBodySize = 16 * 1024 * 1024

    let basePath: String
    let store: AccountStore
    /// Where uploaded files are kept, with the module's cap.
    let files: BodyFiles
    let rateLimiter: SandboxRateLimiter
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
        (self.store, timeSource, rateLimiter) = (store, module.timeSource, module.rateLimiter)
        var files = store.files
        files.maximumBytes = module.maximumUploadBytes
        self.files = files
        webhooks = WebhookDispatcher(
            store: store,
            basePath: basePath,
            timeSource: timeSource,
            retryDelays: module.webhookRetryDelays,
            timeout: module.webhookTimeout
        )
    }

    /// Each Spec path as a router path with its operations, made once per process: every
    /// in-process `--sandbox` command starts a server, and this is most of what starting costs.
    private static let specRoutes: [(RouterPath, [BasecampOperation])] =
        Dictionary(grouping: OperationCatalog.all, by: \.pathTemplate).map {
            (SandboxResponse.routerPath($0.key), $0.value)
        }

    /// Registers every Spec path template under the base path for every method, so that a
    /// method the path has no operation for answers `405`, as Basecamp does; then a download's
    /// redirect to the storage origin (see ``registerStorage(on:)``), and the reset. A path with a
    /// GET gets its HEAD from the router, which answers it with the GET's headers.
    func register(on router: Router<SandboxRequestContext>) {
        let base = RouterPath(basePath)
        for (path, operations) in Self.specRoutes {
            // Joined once, not once per method: registering is most of a sandbox's start-up.
            let fullPath = base.appendingPath(path)
            let hasGet = operations.contains { $0.method == .get }
            for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] where method != .head || !hasGet
            {
                let operation = operations.first { $0.method == method }
                let streams = operation?.id == "CreateAttachment"
                router.on(fullPath, method: method) { request, context in
                    try await self.handle(request, context, streamingBody: streams) { body, requestID in
                        let call = try self.call(operation, request, context, body: body)
                        return self.respond(try call.reply(), of: call, to: request, requestID: requestID)
                    }
                }
            }
        }
        let api = router.group(base)
        api.get(SandboxResponse.routerPath(BlobRoutes.downloadPath)) { request, context in
            try await self.handle(request, context) { _, requestID in
                try self.redirectToStorage(request, context, requestID: requestID)
            }
        }
        api.post("_sandbox/reset") { request, context in
            try await self.handle(request, context) { _, requestID in
                try self.store.reset()
                return Self.make(status: 204, body: nil, headers: [:], requestID: requestID)
            }
        }
    }

    /// Checks the rate limit, the `User-Agent` and the token, reads the body (into memory, or with `streamingBody`
    /// into a file of ``files``), then answers with what `answer` makes of it and a request id; a
    /// failure is answered as Basecamp does.
    private func handle(
        _ request: Request,
        _ context: SandboxRequestContext,
        streamingBody: Bool = false,
        _ answer: (Call.Body, String) throws -> Response
    ) async throws -> Response {
        var request = request
        let requestID = nextRequestID()
        var response: Response
        do {
            let segment = request.uri.path.dropFirst(basePath.count).split(separator: "/").first ?? ""
            let account = segment.removingPercentEncoding ?? ""  // as routed: `%31` is account 1
            if let wait = rateLimiter.admit("\(account) \(context.peerAddress)", at: timeSource.monotonicNow()) {
                let limit = rateLimiter.limit?.description ?? ""
                response = Self.failure(APIFailure(429, "Rate limit exceeded: \(limit)."), requestID: requestID)
                response.headers[.retryAfter] = SandboxRateLimiter.retryAfter(wait)
                return response
            }
            guard request.namesContact else { throw APIFailure(400, "User-Agent must name your app and a contact") }
            // Any non-empty bearer token works but those rejected, or issued and then expired or revoked.
            guard let token = request.bearerToken else { throw APIFailure(401, "OAuth token required") }
            guard !rejectedTokens.contains(token) else { throw APIFailure(401, "OAuth token invalid") }
            guard authorization.accepts(token) else { throw APIFailure(401, "OAuth token expired (old age)") }
            let body: Call.Body =
                streamingBody
                ? .file(try await files.receive(request.body, declaredLength: request.headers[.contentLength]))
                : .data(Data(try await request.collectBody(upTo: Self.maxBodySize).readableBytesView))
            do {
                response = try answer(body, requestID)
            } catch {
                if case .file(let stored) = body { files.remove(stored.name) }
                throw error
            }
        } catch let failure as APIFailure {
            response = Self.failure(failure, requestID: requestID)
        } catch let error as BodyFilesError {
            let tooLarge = if case .tooLarge = error { true } else { false }
            response = Self.failure(APIFailure(tooLarge ? 413 : 500, error.description), requestID: requestID)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The request as a ``Call`` of `operation`.
    private func call(
        _ operation: BasecampOperation?,
        _ request: Request,
        _ context: SandboxRequestContext,
        body: Call.Body
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
            query: QueryItems(request.uri.query),
            received: body,
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

extension Request {
    /// Whether the `User-Agent` names an app and a contact, as Basecamp asks of every request.
    var namesContact: Bool { userAgent.flatMap { try? BasecampUserAgent($0) } != nil }
}

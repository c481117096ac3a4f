import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The built-in `/_test/` surface used by the HTTP layer's loopback tests. Each route is
/// documented in the APISandbox DocC catalog.
@available(macOS 14, iOS 17, tvOS 17, *)
struct TestRoutes: Sendable {
    typealias Context = SandboxRequestContext
    typealias Handler = @Sendable (Request, Context) async throws -> Response

    /// Methods answered by the method-agnostic routes; HTTP clients mostly speak these.
    static let everyMethod: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
    /// Request bodies are read into memory, so they are capped well above anything a test sends.
    static let maxBodySize = 16 * 1024 * 1024
    /// Caps `/_test/bytes` so a typo cannot make the sandbox allocate gigabytes.
    static let maxGeneratedBytes = 64 * 1024 * 1024
    /// Caps every delay so a typo cannot hang a test run.
    static let maxDelayMilliseconds = 120_000
    /// The most items `/_test/pages` lists, and the highest page it serves.
    static let maxListedItems = 1_000_000_000
    /// The largest `?pad=` body `_test/status` sends.
    static let maxPadBytes = 64 * 1024 * 1024

    let state: SandboxState

    func register(on router: Router<Context>) {
        let test = router.group("_test").add(middleware: LoopbackOriginMiddleware())
        onEveryMethod(test, "echo") { try await echo($0, $1) }
        onEveryMethod(test, "echo/**") { try await echo($0, $1) }
        onEveryMethod(test, "status/:code") { try status($0, $1) }
        onEveryMethod(test, "delay/:ms") { try await delay($0, $1) }
        onEveryMethod(test, "hold/:name") { try await hold($0, $1) }
        test.post("hold/:name/release") { try release($0, $1) }
        onEveryMethod(test, "redirect/:code") { try redirect($0, $1) }
        test.get("bytes/:n") { try bytes($0, $1) }
        test.get("etag/:name") { try etag($0, $1) }
        test.put("etag/:name") { try await updateETag($0, $1) }
        test.get("pages") { try await pages($0, $1) }
        test.post("script/:name/configure") { try await configureScript($0, $1) }
        onEveryMethod(test, "script/:name") { try await script($0, $1) }
        test.get("counters") { _, _ in try JSONResponse.make(state.counters()) }
        test.post("reset") { _, _ in
            state.reset()
            return Response(status: .noContent)
        }
        test.post("writes") { try await write($0, $1) }
    }

    /// Registers `handler` for every method in ``everyMethod``; a HEAD answer keeps the GET
    /// headers, including `Content-Length`, but drops the body as HTTP requires.
    private func onEveryMethod(_ group: RouterGroup<Context>, _ path: RouterPath, handler: @escaping Handler) {
        for method in Self.everyMethod {
            group.on(path, method: method) { request, context in
                let response = try await handler(request, context)
                return request.method == .head ? response.createHeadResponse() : response
            }
        }
    }

    // MARK: Echo

    private func echo(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBodySize)
        let data = Data(buffer.readableBytesView)
        let text = String(data: data, encoding: .utf8)
        return try JSONResponse.make(
            EchoedRequest(
                method: request.method.rawValue,
                path: request.uri.path,
                query: QueryItems(request.uri.query).grouped,
                headers: request.lowercasedHeaders,
                body: text ?? data.base64EncodedString(),
                bodyEncoding: text == nil ? "base64" : "utf8",
                bodyBytes: data.count
            )
        )
    }

    // MARK: Status, delay, redirect

    func status(_ request: Request, _ context: Context) throws -> Response {
        guard let code = context.parameters.get("code", as: Int.self), (200...599).contains(code) else {
            return JSONResponse.error("status code must be between 200 and 599")
        }
        let query = QueryItems(request.uri.query)
        var headers = HTTPFields()
        for header in query.all("header") {
            guard let field = Self.parseHeader(header) else {
                return JSONResponse.error("header must look like Name:Value, got \(header)")
            }
            headers.append(field)
        }
        let status = HTTPResponse.Status(code: code)
        guard status.mayHaveBody else {
            var response = Response(status: status, headers: headers)
            response.headers[.contentLength] = nil
            return response
        }
        if let pad = query.first("pad").flatMap(Int.init), (0...Self.maxPadBytes).contains(pad) {
            // A large body of any status, for tests of how much of one a client keeps.
            headers[.contentType] = headers[.contentType] ?? "text/plain; charset=utf-8"
            let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: pad)
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        if let text = query.first("body") {
            if headers[.contentType] == nil {
                headers[.contentType] = "text/plain; charset=utf-8"
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return try JSONResponse.make(["status": code], status: status, headers: headers)
    }

    func delay(_ request: Request, _ context: Context) async throws -> Response {
        guard let milliseconds = context.parameters.get("ms", as: Int.self),
            (0...Self.maxDelayMilliseconds).contains(milliseconds)
        else {
            return JSONResponse.error("delay must be between 0 and \(Self.maxDelayMilliseconds) ms")
        }
        try await Task.sleep(for: .milliseconds(milliseconds))
        return try JSONResponse.make(["delayedMs": milliseconds])
    }

    func hold(_ request: Request, _ context: Context) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        try await state.waitForRelease(of: name)
        return try JSONResponse.make(["held": name])
    }

    private func release(_ request: Request, _ context: Context) throws -> Response {
        state.release(context.parameters.get("name") ?? "")
        return Response(status: .noContent)
    }

    private func redirect(_ request: Request, _ context: Context) throws -> Response {
        guard let code = context.parameters.get("code", as: Int.self), (300...399).contains(code), code != 304 else {
            return JSONResponse.error("redirect status must be a 3xx code other than 304")
        }
        guard let location = QueryItems(request.uri.query).first("to"), !location.isEmpty else {
            return JSONResponse.error("missing ?to= with the redirect target")
        }
        return Response(status: HTTPResponse.Status(code: code), headers: [.location: location])
    }

    // MARK: Helpers

    /// Parses `Name:Value` from the `header=` query parameter of `/_test/status`.
    private static func parseHeader(_ text: String) -> HTTPField? {
        guard let colon = text.firstIndex(of: ":"),
            let name = HTTPField.Name(text[..<colon].trimmingCharacters(in: .whitespaces))
        else { return nil }
        return HTTPField(name: name, value: text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    /// Sets a header whose name is only known as a string; swift-http-types names are failable and
    /// this code must not force-unwrap, so an invalid name is simply skipped.
    static func setHeader(_ headers: inout HTTPFields, _ name: String, _ value: String) {
        if let name = HTTPField.Name(name) {
            headers[name] = value
        }
    }
}

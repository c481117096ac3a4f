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

    let state: SandboxState

    func register(on router: Router<Context>) {
        let test = router.group("_test")
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

    private struct Echo: Encodable {
        var method: String
        var path: String
        var query: [String: [String]]
        var headers: [String: [String]]
        var body: String
        var bodyEncoding: String
        var bodyBytes: Int
    }

    private func echo(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBodySize)
        let data = Data(buffer.readableBytesView)
        let text = String(data: data, encoding: .utf8)
        return try JSONResponse.make(
            Echo(
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

    private func status(_ request: Request, _ context: Context) throws -> Response {
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
        if let text = query.first("body") {
            if headers[.contentType] == nil {
                headers[.contentType] = "text/plain; charset=utf-8"
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return try JSONResponse.make(["status": code], status: status, headers: headers)
    }

    private func delay(_ request: Request, _ context: Context) async throws -> Response {
        guard let milliseconds = context.parameters.get("ms", as: Int.self),
            (0...Self.maxDelayMilliseconds).contains(milliseconds)
        else {
            return JSONResponse.error("delay must be between 0 and \(Self.maxDelayMilliseconds) ms")
        }
        try await Task.sleep(for: .milliseconds(milliseconds))
        return try JSONResponse.make(["delayedMs": milliseconds])
    }

    private func hold(_ request: Request, _ context: Context) async throws -> Response {
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

    // MARK: Bytes

    private func bytes(_ request: Request, _ context: Context) throws -> Response {
        guard let count = context.parameters.get("n", as: Int.self), (0...Self.maxGeneratedBytes).contains(count) else {
            return JSONResponse.error("byte count must be between 0 and \(Self.maxGeneratedBytes)")
        }
        let query = QueryItems(request.uri.query)
        let headers: HTTPFields = [.contentType: "application/octet-stream"]
        guard query.first("chunked") == "1" || query.first("chunked") == "true" else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: Self.pattern(0..<count)))
        }
        let chunkSize = min(max(query.int("chunk_size") ?? 1024, 1), 1024 * 1024)
        let chunkDelay = min(max(query.int("chunk_delay_ms") ?? 0, 0), Self.maxDelayMilliseconds)
        let hold = query.first("hold")
        let state = self.state
        // No content length: Hummingbird then leaves framing to NIO, which uses chunked encoding.
        let body = ResponseBody { writer in
            var offset = 0
            while offset < count {
                let end = min(offset + chunkSize, count)
                try await writer.write(Self.pattern(offset..<end))
                if let hold, offset == 0, end < count {
                    try await state.waitForRelease(of: hold)
                }
                offset = end
                if chunkDelay > 0, offset < count {
                    try await Task.sleep(for: .milliseconds(chunkDelay))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Byte `i` of every generated body is `i % 256`, so a client can verify any slice it receives.
    static func pattern(_ range: Range<Int>) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(range.count)
        // Whole 256-byte blocks are copied rather than written byte by byte: a 10 MiB body took
        // over ten seconds in a debug build the old way.
        var index = range.lowerBound
        let head = min((256 - index % 256) % 256, range.count)
        for offset in 0..<head { buffer.writeInteger(UInt8(truncatingIfNeeded: index + offset)) }
        index += head
        while range.upperBound - index >= 256 {
            buffer.writeBytes(patternBlock)
            index += 256
        }
        while index < range.upperBound {
            buffer.writeInteger(UInt8(truncatingIfNeeded: index))
            index += 1
        }
        return buffer
    }

    private static let patternBlock: [UInt8] = (0..<256).map { UInt8($0) }

    // MARK: ETag

    private func etag(_ request: Request, _ context: Context) throws -> Response {
        let name = context.parameters.get("name") ?? ""
        let resource = state.resource(name)
        let candidates = Self.entityTags(request.headers[values: .ifNoneMatch])
        // If-None-Match uses the weak comparison (RFC 9110 §13.1.2), hence the W/ stripping.
        let weakCandidates = candidates.map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 }
        if weakCandidates.contains("*") || weakCandidates.contains(resource.etag) {
            return Response(status: .notModified, headers: [.eTag: resource.etag])
        }
        return try Self.representation(of: resource)
    }

    private func updateETag(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let name = context.parameters.get("name") ?? ""
        let body = try await request.collectBody(upTo: Self.maxBodySize)
        let ifMatch = request.headers[.ifMatch].map { _ in Self.entityTags(request.headers[values: .ifMatch]) }
        let outcome = state.updateResource(
            name,
            body: body.readableBytes > 0 ? Array(body.readableBytesView) : nil,
            contentType: body.readableBytes > 0 ? request.headers[.contentType] : nil,
            ifMatch: ifMatch
        )
        switch outcome {
        case .updated(let resource):
            return try Self.representation(of: resource)
        case .preconditionFailed(let current):
            var response = JSONResponse.error("If-Match does not match \(current.etag)", status: .preconditionFailed)
            response.headers[.eTag] = current.etag
            return response
        }
    }

    private static func representation(of resource: SandboxState.ETagResource) throws -> Response {
        guard let body = resource.body else {
            return try JSONResponse.make(
                ETagDefaultBody(name: resource.name, version: resource.version),
                headers: [.eTag: resource.etag]
            )
        }
        return Response(
            status: .ok,
            headers: [.eTag: resource.etag, .contentType: resource.contentType ?? "application/octet-stream"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    private struct ETagDefaultBody: Encodable {
        var name: String
        var version: Int
    }

    /// Splits `If-None-Match`/`If-Match` values into entity tags. Tags may not contain commas, so a
    /// plain split is exact.
    private static func entityTags(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    // MARK: Pages

    private struct PageItem: Encodable {
        var id: Int
    }

    private func pages(_ request: Request, _ context: Context) async throws -> Response {
        let query = QueryItems(request.uri.query)
        let total = query.int("total") ?? 100
        let perPage = query.int("per_page") ?? 10
        let page = query.int("page") ?? 1
        let delay = query.int("delay_ms")
        guard total >= 0, (1...10_000).contains(perPage), page >= 1 else {
            return JSONResponse.error("need total >= 0, 1 <= per_page <= 10000 and page >= 1")
        }
        if let delay {
            try await Task.sleep(for: .milliseconds(min(max(delay, 0), Self.maxDelayMilliseconds)))
        }
        let lastPage = max(1, (total + perPage - 1) / perPage)
        let first = (page - 1) * perPage + 1
        let last = min(page * perPage, total)
        let items = first <= last ? (first...last).map { PageItem(id: $0) } : []

        // Links point back at the origin the client used, so they stay followable whether the
        // client said 127.0.0.1 or localhost.
        let origin = "http://" + (request.head.authority ?? Self.localAuthority(context.channel))
        let delayParameter = delay.map { "&delay_ms=\($0)" } ?? ""
        func link(_ page: Int, _ relation: String) -> String {
            "<\(origin)/_test/pages?total=\(total)&per_page=\(perPage)&page=\(page)\(delayParameter)>; rel=\"\(relation)\""
        }
        var links = [link(1, "first")]
        if page > 1 {
            links.append(link(min(page - 1, lastPage), "prev"))
        }
        if page < lastPage {
            links.append(link(page + 1, "next"))
        }
        links.append(link(lastPage, "last"))

        var headers = HTTPFields()
        Self.setHeader(&headers, "Link", links.joined(separator: ", "))
        Self.setHeader(&headers, "X-Total-Count", String(total))
        return try JSONResponse.make(items, headers: headers)
    }

    private static func localAuthority(_ channel: any Channel) -> String {
        "127.0.0.1:\(channel.localAddress?.port ?? 80)"
    }

    // MARK: Scripts

    private struct ScriptConfiguration: Decodable {
        var steps: [ScriptStep]
    }

    private struct ScriptConfigured: Encodable {
        var name: String
        var steps: Int
    }

    private func configureScript(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let name = context.parameters.get("name") ?? ""
        let body = try await request.collectBody(upTo: Self.maxBodySize)
        let configuration: ScriptConfiguration
        do {
            configuration = try JSONDecoder().decode(ScriptConfiguration.self, from: Data(body.readableBytesView))
        } catch {
            return JSONResponse.error("expected {\"steps\": [...]}: \(error)")
        }
        state.script(name, configuration.steps)
        return try JSONResponse.make(ScriptConfigured(name: name, steps: configuration.steps.count))
    }

    private func script(_ request: Request, _ context: Context) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        guard let step = state.nextScriptStep(name) else {
            return JSONResponse.error(
                "no script named \(name); POST /_test/script/\(name)/configure",
                status: .notFound
            )
        }
        if let delay = step.delayMs, delay > 0 {
            try await Task.sleep(for: .milliseconds(min(delay, Self.maxDelayMilliseconds)))
        }
        guard let fault = step.fault else {
            return try Self.response(for: step)
        }
        return try await ConnectionBreaker.apply(fault, request: request, context: context) {
            try Self.response(for: step)
        }
    }

    static func response(for step: ScriptStep) throws -> Response {
        guard (200...599).contains(step.status) else {
            return JSONResponse.error(
                "scripted status \(step.status) is not between 200 and 599",
                status: .internalServerError
            )
        }
        let status = HTTPResponse.Status(code: step.status)
        var headers = HTTPFields()
        for (name, value) in step.headers.sorted(by: { $0.key < $1.key }) {
            Self.setHeader(&headers, name, value)
        }
        guard status.mayHaveBody, let body = step.body else {
            var response = Response(status: status, headers: headers)
            if !status.mayHaveBody {
                response.headers[.contentLength] = nil
            }
            return response
        }
        if case .string(let text) = body {
            if headers[.contentType] == nil {
                headers[.contentType] = "text/plain; charset=utf-8"
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        var response = try JSONResponse.make(body, status: status)
        for field in headers {
            response.headers[field.name] = field.value
        }
        return response
    }

    // MARK: Writes

    private struct WriteReceipt: Encodable {
        var writeId: Int
        var idempotencyKey: String?
        var applied: Bool
        var replayed: Bool
    }

    private func write(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: Self.maxBodySize)
        let key = HTTPField.Name("Idempotency-Key").flatMap { request.headers[$0] }
        switch state.recordWrite(idempotencyKey: key, body: Array(body.readableBytesView)) {
        case .applied(let writeID):
            return try JSONResponse.make(
                WriteReceipt(writeId: writeID, idempotencyKey: key, applied: true, replayed: false),
                status: .created
            )
        case .replayed(let writeID):
            var headers = HTTPFields()
            Self.setHeader(&headers, "Idempotent-Replayed", "true")
            return try JSONResponse.make(
                WriteReceipt(writeId: writeID, idempotencyKey: key, applied: false, replayed: true),
                status: .created,
                headers: headers
            )
        case .conflict:
            return JSONResponse.error(
                "Idempotency-Key \(key ?? "") was already used with a different body",
                status: .unprocessableContent
            )
        }
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
    private static func setHeader(_ headers: inout HTTPFields, _ name: String, _ value: String) {
        if let name = HTTPField.Name(name) {
            headers[name] = value
        }
    }
}

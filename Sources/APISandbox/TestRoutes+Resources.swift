import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension TestRoutes {
    func etag(_ request: Request, _ context: Context) throws -> Response {
        let name = context.parameters.get("name") ?? ""
        let resource = state.resource(name)
        if EntityTag.noneMatch(request.headers[values: .ifNoneMatch], names: resource.etag) {
            return Response(status: .notModified, headers: [.eTag: resource.etag])
        }
        return try Self.representation(of: resource)
    }

    func updateETag(_ request: Request, _ context: Context) async throws -> Response {
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

    static func representation(of resource: SandboxState.ETagResource) throws -> Response {
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

    struct ETagDefaultBody: Encodable {
        var name: String
        var version: Int
    }

    /// Splits `If-None-Match`/`If-Match` values into entity tags. Tags may not contain commas, so a
    /// plain split is exact.
    static func entityTags(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    // MARK: Pages

    struct PageItem: Encodable {
        var id: Int
    }

    func pages(_ request: Request, _ context: Context) async throws -> Response {
        let query = QueryItems(request.uri.query)
        let total = query.int("total") ?? 100
        let perPage = query.int("per_page") ?? 10
        let page = query.int("page") ?? 1
        let delay = query.int("delay_ms")
        // Bounded so no request can overflow the page arithmetic, which would stop the process.
        guard (0...Self.maxListedItems).contains(total), (1...10_000).contains(perPage),
            (1...Self.maxListedItems).contains(page)
        else {
            return JSONResponse.error(
                "need 0 <= total <= \(Self.maxListedItems), 1 <= per_page <= 10000 and 1 <= page <= \(Self.maxListedItems)"
            )
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

    static func localAuthority(_ channel: any Channel) -> String {
        "127.0.0.1:\(channel.localAddress?.port ?? 80)"
    }

    // MARK: Writes

    struct WriteReceipt: Encodable {
        var writeId: Int
        var idempotencyKey: String?
        var applied: Bool
        var replayed: Bool
    }

    func write(_ request: Request, _ context: Context) async throws -> Response {
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
}

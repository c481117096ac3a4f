import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird

@available(macOS 14, iOS 17, tvOS 17, *)
extension BasecampServer {
    /// An operation's answer: lists cut to the page asked for, with `X-Total-Count` and a `Link`
    /// to the next; a `200` GET tagged with its ETag, or `304` when `If-None-Match` names it. The
    /// Spec's example is marked `X-Sandbox-Example: true`, so a test can tell it from kept data.
    func respond(_ answer: APIReply, of call: Call, to request: Request, requestID: String) -> Response {
        var headers = HTTPFields()
        if OperationTable.answers[call.operation.id] == nil { headers[.xSandboxExample] = "true" }
        let status: Int
        let body: JSONValue
        switch answer {
        case .empty(let code):
            return Self.make(status: code, body: nil, headers: headers, requestID: requestID)
        case .json(let value, let code):
            (status, body) = (code, value)
        case .page(let count, let items):
            let pageSize = call.operation.metadata.pagination?.pageSize ?? 50
            // Clamped so that a huge `page` reads as past the end instead of overflowing.
            let page = min(max(1, call.query.int("page") ?? 1), count / pageSize + 2)
            let start = min(count, (page - 1) * pageSize)
            let end = min(count, start + pageSize)
            (status, body) = (200, .array(items(start..<end)))
            if call.operation.isPaginated {
                if let name = call.operation.metadata.pagination?.totalCountHeader.flatMap({ HTTPField.Name($0) }) {
                    headers[name] = String(count)
                }
                if end < count {
                    var query = call.query.items.filter { $0.name != "page" }
                    query.append(("page", String(page + 1)))
                    headers[.link] = "<\(call.origin + call.path)?\(QueryItems.encode(query))>; rel=\"next\""
                }
            }
        }
        let data = body.encoded()
        if call.operation.method == .get, status == 200 {
            let etag = EntityTag.of(data)
            headers[.eTag] = etag
            if EntityTag.noneMatch(request.headers[values: .ifNoneMatch], names: etag) {
                return Self.make(status: 304, body: nil, headers: headers, requestID: requestID)
            }
        }
        return Self.make(status: status, body: data, headers: headers, requestID: requestID)
    }

    static func make(status: Int, body: Data?, headers: HTTPFields, requestID: String) -> Response {
        var fields = headers
        fields[.xRequestID] = requestID
        guard let body, status != 204, status != 304 else {
            return Response(status: .init(code: status), headers: fields)
        }
        fields[.contentType] = fields[.contentType] ?? "application/json; charset=utf-8"
        return Response(
            status: .init(code: status),
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    static func failure(_ failure: APIFailure, requestID: String) -> Response {
        if failure.status == 401 {
            // Basecamp refuses a token in plain text, e.g. "OAuth token expired (old age)".
            let headers: HTTPFields = [
                .wwwAuthenticate: "Bearer realm=\"Basecamp\"", .contentType: "text/plain; charset=utf-8",
            ]
            return make(status: 401, body: Data(failure.message.utf8), headers: headers, requestID: requestID)
        }
        var members: [String: JSONValue] = ["error": .string(failure.message)]
        if !failure.fieldErrors.isEmpty {
            members["errors"] = .object(failure.fieldErrors.mapValues { .array($0.map(JSONValue.string)) })
        }
        let body = JSONValue.object(members).encoded()
        return make(status: failure.status, body: body, headers: [:], requestID: requestID)
    }
}

extension HTTPField.Name {
    static let xTotalCount = HTTPField.Name("X-Total-Count") ?? .contentType
    static let xSandboxExample = HTTPField.Name("X-Sandbox-Example") ?? .contentType
}

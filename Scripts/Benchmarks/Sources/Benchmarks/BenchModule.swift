import APISandbox
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The ~4 KiB JSON object the GET, cache, concurrency and hooks workloads fetch and decode.
struct BenchDocument: Codable, Sendable, Hashable {
    struct Owner: Codable, Sendable, Hashable {
        var id: Int
        var name: String
        var email: String
    }

    struct Entry: Codable, Sendable, Hashable {
        var id: Int
        var title: String
        var done: Bool
        var score: Double
        var assignee: String
    }

    var id: Int
    var name: String
    var summary: String
    var tags: [String]
    var owner: Owner
    var entries: [Entry]

    /// The default document's JSON, as the in-memory transports answer it.
    static func encoded() throws -> Data {
        try JSONEncoder().encode(make())
    }

    /// A deterministic document whose JSON encoding is just over `minimumBytes`.
    static func make(minimumBytes: Int = 4096) -> BenchDocument {
        var document = BenchDocument(
            id: 42,
            name: "Quarterly planning",
            summary: "A representative API object: scalars, a nested owner and a list of entries.",
            tags: ["planning", "q3", "benchmark"],
            owner: Owner(id: 7, name: "Ada Lovelace", email: "ada@example.com"),
            entries: []
        )
        while (try? JSONEncoder().encode(document).count).map({ $0 < minimumBytes }) ?? false {
            let index = document.entries.count + 1
            document.entries.append(
                Entry(
                    id: 1000 + index,
                    title: "Entry number \(index) with a title",
                    done: index.isMultiple(of: 3),
                    score: Double(index) * 1.25,
                    assignee: "person\(index % 9)@example.com"
                )
            )
        }
        return document
    }
}

/// One item of the paginated list: an id plus `pad` bytes of text, so memory measurements see
/// realistically sized items (the default ~1 KiB is about one Basecamp todo).
struct BenchItem: Codable, Sendable, Hashable {
    var id: Int
    var title: String
    var notes: String
}

/// Routes the benchmark needs beyond the sandbox's built-in `/_test/*` ones, mounted under
/// `/bench`.
///
/// - `GET /bench/doc`: ``BenchDocument`` as JSON with a strong `ETag`; a matching
///   `If-None-Match` gets `304` with no body.
/// - `GET /bench/items?total=&per_page=&page=&delay_ms=&pad=`: a page of ``BenchItem``s with
///   `Link` (`rel="next"`) and `X-Total-Count`, like `/_test/pages` but with sized items.
/// - `GET /bench/blob?bytes=`: that many bytes, written in 1 MiB parts as the client reads them,
///   so a download of hundreds of megabytes costs the server no memory.
/// - `POST /bench/sink`: reads the body as it arrives and throws it away, answering
///   `{"bytes": n}`, so an upload meets a server as fast as loopback allows.
struct BenchModule: SandboxModule {
    static let etag = "\"bench-doc-v1\""
    let documentBody: ByteBuffer

    init() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        documentBody = ByteBuffer(bytes: (try? encoder.encode(BenchDocument.make())) ?? Data())
    }

    func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        let body = documentBody
        router.get("bench/doc") { request, _ -> Response in
            if let match = request.headers[.ifNoneMatch], match == Self.etag || match == "*" {
                return Response(status: .notModified, headers: [.eTag: Self.etag])
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .eTag: Self.etag],
                body: ResponseBody(byteBuffer: body)
            )
        }
        router.get("bench/blob") { request, _ -> Response in
            let total = min(max(request.uri.queryParameters.get("bytes", as: Int.self) ?? 0, 0), 4 << 30)
            let part = ByteBuffer(repeating: 0x5A, count: 1 << 20)
            let body = ResponseBody(contentLength: total) { writer in
                var sent = 0
                while sent < total {
                    let count = min(part.readableBytes, total - sent)
                    try await writer.write(part.getSlice(at: 0, length: count) ?? part)
                    sent += count
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .eTag: "\"blob-\(total)\""],
                body: body
            )
        }
        router.post("bench/sink") { request, _ -> Response in
            var received = 0
            for try await part in request.body { received += part.readableBytes }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"bytes\":\(received)}"))
            )
        }
        router.get("bench/items") { request, _ -> Response in
            let query = request.uri.queryParameters
            let total = max(query.get("total", as: Int.self) ?? 100, 0)
            let perPage = min(max(query.get("per_page", as: Int.self) ?? 10, 1), 1000)
            let page = max(query.get("page", as: Int.self) ?? 1, 1)
            let delay = min(max(query.get("delay_ms", as: Int.self) ?? 0, 0), 10_000)
            let pad = min(max(query.get("pad", as: Int.self) ?? 1000, 0), 100_000)
            if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
            let first = (page - 1) * perPage + 1
            let last = min(page * perPage, total)
            let notes = String(repeating: "x", count: pad)
            var json = "["
            if first <= last {
                for id in first...last {
                    if id != first { json += "," }
                    json += "{\"id\":\(id),\"title\":\"Item \(id)\",\"notes\":\"\(notes)\"}"
                }
            }
            json += "]"
            let host = request.head.authority ?? "127.0.0.1"
            let pages = max((total + perPage - 1) / perPage, 1)
            func link(_ target: Int, _ relation: String) -> String {
                "<http://\(host)/bench/items?total=\(total)&per_page=\(perPage)&page=\(target)"
                    + "&delay_ms=\(delay)&pad=\(pad)>; rel=\"\(relation)\""
            }
            var links = [link(1, "first"), link(pages, "last")]
            if page < pages { links.append(link(page + 1, "next")) }
            var headers: HTTPFields = [.contentType: "application/json"]
            if let linkName = HTTPField.Name("Link") { headers[linkName] = links.joined(separator: ", ") }
            if let totalName = HTTPField.Name("X-Total-Count") { headers[totalName] = String(total) }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
        }
    }
}

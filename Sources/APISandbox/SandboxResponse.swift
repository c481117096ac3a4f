public import HTTPCore
public import HTTPTypes
public import Hummingbird
import NIOCore

/// Answers that sandbox modules build often, and the routes they mount for a Spec's paths.
public enum SandboxResponse {
    /// `value` as JSON (`application/json; charset=utf-8`), with `headers` added.
    public static func json(
        _ value: JSONValue,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status,
            headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: value.encoded()))
        )
    }

    /// A one-paragraph HTML page titled `title`, for what a browser is shown; cached nowhere.
    public static func page(_ text: String, title: String, status: HTTPResponse.Status = .ok) -> Response {
        let html =
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(title)</title></head><body><p>\(text)</p></body></html>\n"
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }

    /// The router path for a Spec path template (`/todolists/{id}/todos.json`), each capture named
    /// by its place (`{p0}`, `{p1}`…): two templates may name the same place differently
    /// (`/todolists/{id}`, `/todolists/{todolistId}/todos.json`), and Hummingbird's trie would then
    /// keep them apart and find only one.
    public static func routerPath(_ template: String) -> RouterPath {
        var place = 0
        let parts = template.split(separator: "/").map { part -> String in
            guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}") else { return String(part) }
            defer { place += 1 }
            return String(part[..<open]) + "{p\(place)}" + String(part[part.index(after: close)...])
        }
        return RouterPath(parts.joined(separator: "/"))
    }
}

import Foundation
import HTTPCore
import Hummingbird

/// JSON responses with sorted keys, so bodies are byte-for-byte stable across runs and platforms.
enum JSONResponse {
    static func make(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        // Encoding a [String: String] cannot fail; the fallback keeps this non-throwing without forcing.
        (try? make(["error": message], status: status)) ?? Response(status: status)
    }
}

/// A query string (or form body) read with full percent-decoding of names and values and `+`
/// read as a space, which Hummingbird's own `queryParameters` does not do for names.
public struct QueryItems: Sendable {
    /// Every name and value, in order.
    public private(set) var items: [(name: String, value: String)] = []

    /// Reads `query` (without its `?`); `nil` or empty gives no items.
    public init(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            items.append((name, value))
        }
    }

    /// Every value of every name, in order of appearance per name.
    public var grouped: [String: [String]] {
        var grouped: [String: [String]] = [:]
        for item in items {
            grouped[item.name, default: []].append(item.value)
        }
        return grouped
    }

    /// The first value of `name`.
    public func first(_ name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value of `name`.
    public func all(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }

    /// The first value of `name` as an integer.
    public func int(_ name: String) -> Int? {
        first(name).flatMap { Int($0) }
    }

    /// `items` as a query string, every byte but `A-Z a-z 0-9 - . _ ~` percent-encoded.
    public static func encode(_ items: [(name: String, value: String)]) -> String {
        items.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
    }

    private static func decode(_ raw: Substring) -> String {
        let spaced = raw.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

extension Request {
    /// Every request header with lower-cased names. HTTP/1 `Host` is kept by swift-http-types as
    /// the `:authority` pseudo-header, so it is added back under `host` to match the wire.
    var lowercasedHeaders: [String: [String]] {
        var headers: [String: [String]] = [:]
        if let authority = head.authority {
            headers["host"] = [authority]
        }
        for field in self.headers {
            headers[field.name.canonicalName, default: []].append(field.value)
        }
        return headers
    }
}

import Foundation
public import HTTPTypes

/// The response type of endpoints that return no body (`204`, or an empty `200`/`201`).
public struct NoContent: Sendable, Hashable {
    /// The only value.
    public init() {}
}

/// Turns a successful response's body into an endpoint's `Response` value.
///
/// Endpoints pick one automatically from their response type: JSON for `Decodable` types,
/// raw bytes for `Data`, nothing for ``NoContent``. Pass a custom one for anything else.
public struct ResponseDecoder<Response: Sendable>: Sendable {
    /// Decodes the body of a 2xx response. Errors thrown here become an `api_error` whose
    /// message names what failed to decode.
    public let decode: @Sendable (_ body: Data, _ response: HTTPResponse, _ json: JSONDecoder) throws -> Response

    /// Creates a decoder from a closure.
    public init(
        _ decode: @escaping @Sendable (_ body: Data, _ response: HTTPResponse, _ json: JSONDecoder) throws -> Response
    ) {
        self.decode = decode
    }
}

extension ResponseDecoder where Response: Decodable {
    /// Decodes the body as JSON with the client's key and date strategies.
    public static var json: ResponseDecoder<Response> {
        ResponseDecoder { body, _, json in
            guard !body.isEmpty else { throw EmptyBodyError() }
            return try parsedJSONValue(body) ?? json.decode(Response.self, from: body)
        }
    }

    /// The body read in one pass by ``JSONValueParser`` when `Response` is `JSONValue` or
    /// `[JSONValue]`, which `JSONDecoder` reads by trying each kind in turn (key and date
    /// strategies leave such values as they are); `nil` for other types and for a body the parser
    /// refuses or of another shape, which `JSONDecoder` then reads or reports.
    private static func parsedJSONValue(_ body: Data) -> Response? {
        guard Response.self == JSONValue.self || Response.self == [JSONValue].self,
            let value = JSONValueParser.value(of: body)
        else { return nil }
        return value as? Response ?? value.arrayValue as? Response
    }
}

extension ResponseDecoder where Response == Data {
    /// Returns the body bytes unchanged.
    public static var bytes: ResponseDecoder<Data> {
        ResponseDecoder { body, _, _ in body }
    }
}

extension ResponseDecoder where Response == NoContent {
    /// Ignores the body, whatever it holds.
    public static var noContent: ResponseDecoder<NoContent> {
        ResponseDecoder { _, _, _ in NoContent() }
    }
}

/// Thrown by ``ResponseDecoder/json`` when a success carries no body to decode.
struct EmptyBodyError: Error, CustomStringConvertible {
    var description: String { "the response had no body, but a JSON value was expected" }
}

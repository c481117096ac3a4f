/// What `/_test/echo` answers: the request as the sandbox received it.
///
/// Decode it with a plain `JSONDecoder` (its keys are camelCase) to check what a client really
/// sent: method, query, headers and body.
public struct EchoedRequest: Codable, Sendable, Hashable {
    /// The request method, as sent (`GET`, `POST`, …).
    public var method: String
    /// The path, without the query.
    public var path: String
    /// Every query item, grouped by name in the order sent.
    public var query: [String: [String]]
    /// Every header, by lowercased name, in the order sent.
    public var headers: [String: [String]]
    /// The body as UTF-8 text, or base64 when it is not valid UTF-8 (see ``bodyEncoding``).
    public var body: String
    /// `utf8` or `base64`: how ``body`` holds the bytes.
    public var bodyEncoding: String
    /// How many bytes the body had.
    public var bodyBytes: Int

    /// The first value of the header `name`, matched without regard to case.
    public func header(_ name: String) -> String? { headers[name.lowercased()]?.first }
}

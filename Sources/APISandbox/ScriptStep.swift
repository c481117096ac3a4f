public import HTTPCore

/// One canned answer in a scripted route (`/_test/script/{name}`).
///
/// Scripts let a test describe a whole conversation up front — "fail twice, then succeed" — so the
/// client's retry and back-off logic can be exercised against a real socket without timing tricks.
/// Each request consumes the next step; once the last step is reached it repeats forever.
///
/// The JSON form, accepted by `POST /_test/script/{name}/configure`, uses the same field names:
/// `{"status": 429, "headers": {"Retry-After": "1"}, "body": {...}, "delayMs": 50}` or
/// `{"fault": "closeBeforeResponse"}`.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct ScriptStep: Sendable, Hashable, Codable {
    /// The status code to answer with; ignored when ``fault`` is set.
    public var status: Int
    /// Extra response headers, for example `Retry-After` or `ETag`.
    public var headers: [String: String]
    /// The body to send: a ``HTTPCore/JSONValue/string(_:)`` is sent as plain text, anything else as JSON.
    /// `nil` sends an empty body.
    public var body: JSONValue?
    /// How long to wait before answering, so slow servers and client timeouts can be scripted.
    public var delayMs: Int?
    /// A transport-level failure to produce instead of a normal response.
    public var fault: ConnectionFault?

    /// Describes an ordinary response; the defaults give an empty `200 OK`.
    public init(
        status: Int = 200,
        headers: [String: String] = [:],
        body: JSONValue? = nil,
        delayMs: Int? = nil,
        fault: ConnectionFault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMs = delayMs
        self.fault = fault
    }

    /// A step that breaks the connection instead of answering, for tests of network-error handling.
    public static func fault(_ fault: ConnectionFault, delayMs: Int? = nil) -> ScriptStep {
        ScriptStep(delayMs: delayMs, fault: fault)
    }

    private enum CodingKeys: String, CodingKey {
        case status
        case headers
        case body
        case delayMs
        case fault
    }

    /// Decodes a step in which every field is optional, so JSON scripts stay as short as the Swift ones.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 200
        self.headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        self.body = try container.decodeIfPresent(JSONValue.self, forKey: .body)
        self.delayMs = try container.decodeIfPresent(Int.self, forKey: .delayMs)
        self.fault = try container.decodeIfPresent(ConnectionFault.self, forKey: .fault)
    }
}

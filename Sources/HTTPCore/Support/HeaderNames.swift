public import HTTPTypes

extension HTTPField.Name {
    /// A header name known at compile time.
    ///
    /// Only for string literals that are valid field names (RFC 9110 tokens); the check fails
    /// loudly in development rather than silently dropping the header.
    package static func constant(_ name: StaticString) -> HTTPField.Name {
        guard let parsed = HTTPField.Name("\(name)") else {
            preconditionFailure("\(name) is not a valid HTTP field name")
        }
        return parsed
    }

    /// `X-Request-Id`, the de facto header for a server's request id.
    public static let xRequestID = constant("X-Request-Id")
    /// `X-CSRF-Token`.
    public static let xCSRFToken = constant("X-CSRF-Token")
    /// `Idempotency-Key`.
    public static let idempotencyKey = constant("Idempotency-Key")
    /// `X-Total-Count`, the common total-items header of paginated lists.
    public static let xTotalCount = constant("X-Total-Count")
}

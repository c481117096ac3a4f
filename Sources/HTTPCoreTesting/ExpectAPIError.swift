#if canImport(Testing)
public import HTTPCore
public import Testing

/// Runs `body` and returns the ``HTTPCore/APIError`` it throws (or the ``HTTPCore/APIErrorConvertible/apiError``
/// of a typed error that reports as one), recording a Swift Testing issue when it returns a
/// value, throws another error, or throws an `APIError` with a code other than `code`.
///
/// ```swift
/// let error = await expectAPIError(.notFound) {
///     try await client.send(Endpoint<JSONValue>(.get, "things/404"))
/// }
/// #expect(error?.httpStatus == 404)
/// ```
///
/// - Parameters:
///   - code: The code the error must have; `nil` accepts any `APIError`.
///   - comment: Added to a recorded issue.
///   - sourceLocation: Where a recorded issue points; the caller by default.
///   - body: The call that should fail.
/// - Returns: The `APIError`, whatever its code, or `nil` when `body` threw none.
@discardableResult
public func expectAPIError<Value>(
    _ code: APIError.Code? = nil,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    isolation: isolated (any Actor)? = #isolation,
    performing body: () async throws -> Value
) async -> APIError? {
    func check(_ error: APIError) -> APIError {
        if let code, error.code != code {
            Issue.record(
                Comment(
                    rawValue: "Expected an APIError with code \(code.rawValue), got \(error.code.rawValue): \(error)"
                        + (comment.map { " (\($0))" } ?? "")
                ),
                sourceLocation: sourceLocation
            )
        }
        return error
    }
    let outcome: String
    do {
        _ = try await body()
        outcome = "it returned a value"
    } catch let error as APIError {
        return check(error)
    } catch let error as any APIErrorConvertible {
        return check(error.apiError)
    } catch {
        outcome = "it threw \(error)"
    }
    let expected = code.map { "an APIError with code \($0.rawValue)" } ?? "an APIError"
    Issue.record(
        Comment(rawValue: "Expected \(expected), but \(outcome)" + (comment.map { " (\($0))" } ?? "")),
        sourceLocation: sourceLocation
    )
    return nil
}
#endif

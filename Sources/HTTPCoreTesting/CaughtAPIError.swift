public import HTTPCore

/// Runs `body` and returns the ``HTTPCore/APIError`` it throws (or the ``HTTPCore/APIErrorConvertible/apiError``
/// of a typed error that reports as one), or `nil` when it throws nothing or another error.
///
/// Use it where a test inspects the error itself; ``expectAPIError(_:_:sourceLocation:isolation:performing:)``
/// also records an issue when no `APIError` (or one with another code) is thrown.
///
/// ```swift
/// let error = await caughtAPIError { try await client.send(endpoint) }
/// #expect(error?.code == .notFound)
/// ```
public func caughtAPIError<Value>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Value
) async -> APIError? {
    do {
        _ = try await body()
        return nil
    } catch let error as APIError {
        return error
    } catch let error as any APIErrorConvertible {
        return error.apiError
    } catch {
        return nil
    }
}

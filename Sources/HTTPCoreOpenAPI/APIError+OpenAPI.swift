public import HTTPCore
import OpenAPIRuntime

extension APIError {
    /// The HTTPCore error behind an error a generated client threw: the client wraps what
    /// ``HTTPCoreTransport`` throws in its `ClientError`; `nil` when no ``APIError`` is inside.
    ///
    /// Not every failure is an API error: cancellation (`CancellationError`) and a download file
    /// that could not be written (`FileWriteError`, carrying the path and the reason) give `nil`, so
    /// look for those in the `ClientError`'s `underlyingError` yourself.
    ///
    /// ```swift
    /// do { _ = try await api.getProject(path: .init(accountId: 999, projectId: 1)) }
    /// catch { if let error = APIError(openAPI: error) { exit(error.exitCode) } }
    /// ```
    public init?(openAPI error: any Error) {
        var current: any Error = error
        // The runtime nests a middleware's error in a `ClientError`, and may nest that again.
        for _ in 0..<4 {
            if let apiError = current as? APIError {
                self = apiError
                return
            }
            guard let wrapped = current as? ClientError else { return nil }
            current = wrapped.underlyingError
        }
        return nil
    }

    /// This error, saying that the call was not sent again because its body could be read only
    /// once.
    func notRetriedForSingleUseBody() -> APIError {
        var details = self.details
        details.message += " The request was not retried: its body could be read only once."
        details.hint =
            "Give the generated client a body that can be read again (HTTPBody with iterationBehavior .multiple) to let failed attempts be retried."
        return APIError(code, details)
    }
}

/// An error another module defines that reports as an ``APIError``: command-line tools print
/// ``apiError``'s message and hint and exit with its ``APIError/exitCode``, so a typed error keeps
/// its own cases for code that catches it and the one error vocabulary for scripts.
///
/// ```swift
/// struct QuotaError: APIErrorConvertible {
///     var apiError: APIError { .limitExceeded(APIError.Details(message: "Quota used up.", cause: self)) }
/// }
/// ```
public protocol APIErrorConvertible: Error, Sendable {
    /// The error as HTTPCore reports it; its `cause` is usually `self`.
    var apiError: APIError { get }
}

extension ErrorMapping {
    /// Maps anything the middleware chain threw to an ``APIError`` (or passes cancellation, and a
    /// download's ``FileWriteError``, on: neither is the API's doing).
    ///
    /// - Parameter isIdempotent: Whether repeating the request is harmless; when it is not and
    ///   the request may have reached the server, the outcome is `ambiguous`.
    package static func apiError(from error: any Error, isIdempotent: Bool) -> any Error {
        switch error {
        case let error as APIError:
            return error
        case let error as CancellationError:
            return error
        case let error as FileWriteError:
            return error
        case let error as TransportError:
            let details = APIError.Details(message: error.message, cause: error)
            switch error.kind {
            case .invalidURL:
                return APIError.usage(details)
            case .bodyLimitExceeded:
                return APIError.limitExceeded(details)
            case .redirectRefused:
                return APIError.apiError(details)
            case .cannotConnect, .timedOut, .connectionLost, .invalidResponse, .other:
                guard error.requestMayHaveBeenSent, !isIdempotent else { return APIError.network(details) }
                return outcomeUnknown(details)
            }
        default:
            return APIError.network(APIError.Details(message: "The request failed.", cause: SendableDescription(error)))
        }
    }

    /// `error`, or `ambiguous` when the request is not safe to repeat and the error is a server
    /// error that may have come after the request took effect (500, 502, 504).
    package static func outcomeOfServerError(_ error: APIError, isSafeToRepeat: Bool) -> APIError {
        guard !isSafeToRepeat, error.code == .apiError, let status = error.httpStatus,
            APIError.outcomeUnknownStatuses.contains(status)
        else { return error }
        return outcomeUnknown(error.details)
    }

    /// `ambiguous`, with `details` saying the request may or may not have been applied.
    package static func outcomeUnknown(_ details: APIError.Details) -> APIError {
        var ambiguous = details
        ambiguous.message = "The server may or may not have applied this request: \(details.message)"
        ambiguous.hint = "Check the resource's state before trying again."
        return APIError.ambiguous(ambiguous)
    }
}

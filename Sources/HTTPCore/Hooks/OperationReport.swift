import HTTPTypes

/// Reports one call to the hooks: its start when made, its end (with status or error and the
/// attempts the request hooks counted) when it is over.
///
/// The call's events wrap the whole call, decoding included, so the client sends them around
/// the pipeline rather than from a stage in it.
struct OperationReport {
    private let hooks: any Hooks
    private let timeSource: any TimeSource
    private let started: Duration
    private let start: OperationStartEvent

    /// Reports the start of the call.
    init(
        hooks: any Hooks,
        timeSource: any TimeSource,
        operation: OperationMetadata,
        method: HTTPRequest.Method,
        url: String,
        callID: UInt64
    ) {
        self.hooks = hooks
        self.timeSource = timeSource
        self.start = OperationStartEvent(operation: operation, method: method, url: url, callID: callID)
        self.started = timeSource.monotonicNow()
        hooks.operationStarted(start)
    }

    /// Reports a call that ended with a response of `status`.
    func ended(status: Int, attempts: Int) {
        report(status: status, error: nil, cancelled: false, attempts: attempts)
    }

    /// Reports a call that ended with `error`; anything but an ``APIError`` is a cancellation.
    func ended(error: any Error, attempts: Int) {
        let apiError = error as? APIError
        report(status: apiError?.httpStatus, error: apiError, cancelled: apiError == nil, attempts: attempts)
    }

    private func report(status: Int?, error: APIError?, cancelled: Bool, attempts: Int) {
        hooks.operationEnded(
            OperationEndEvent(
                operation: start.operation,
                method: start.method,
                url: start.url,
                callID: start.callID,
                duration: timeSource.monotonicNow() - started,
                status: status,
                attempts: attempts,
                error: error,
                cancelled: cancelled
            )
        )
    }
}

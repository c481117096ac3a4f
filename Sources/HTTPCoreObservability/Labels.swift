import Foundation
import HTTPCore
import HTTPTypes

/// The bounded values every adapter derives from hook events, so logs, metrics and spans agree.
enum Labels {
    /// What stands in for an operation or service an endpoint left empty.
    static let unknown = "unknown"

    /// OpenTelemetry's value for a method outside the standard set: custom methods are
    /// caller-defined strings, and a metric dimension must not grow with them.
    static let otherMethod = "_OTHER"

    private static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
    ]

    static func operation(_ operation: OperationMetadata) -> String {
        operation.name.isEmpty ? unknown : operation.name
    }

    static func service(_ operation: OperationMetadata) -> String {
        operation.service.isEmpty ? unknown : operation.service
    }

    static func method(_ method: HTTPRequest.Method) -> String {
        knownMethods.contains(method.rawValue) ? method.rawValue : otherMethod
    }

    static func isKnown(_ method: HTTPRequest.Method) -> Bool {
        knownMethods.contains(method.rawValue)
    }

    /// The error code reported for a download whose file could not be written: not an
    /// `APIError.Code`, since the API did nothing wrong.
    static let fileWriteErrorCode = "file_write"

    /// `2xx` … `5xx` for a status, `error` when no usable status arrived.
    static func statusClass(_ status: Int?) -> String {
        guard let status, (100..<600).contains(status) else { return "error" }
        return statusClasses[status / 100 - 1]
    }

    /// Looked up, not formatted: every attempt and every call records one.
    private static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]

    /// Milliseconds, rounded to the microsecond: readable in a log line and exact enough to sort.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        let micros = Double(seconds) * 1_000_000 + (Double(attoseconds) / 1e12).rounded()
        return micros / 1000
    }

    /// Nanoseconds for a timer, clamped rather than trapping on absurd durations.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? 0 : Int64.max }
        let (total, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflowAgain else { return Int64.max }
        return max(total, 0)
    }

    /// Host and port of a (redacted) URL, for `server.address` and `server.port`.
    static func server(of urlString: String) -> (address: String, port: Int?)? {
        guard let components = URLComponents(string: urlString), let host = components.host, !host.isEmpty else {
            return nil
        }
        let port = components.port ?? defaultPort(forScheme: components.scheme)
        return (host, port)
    }

    private static func defaultPort(forScheme scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }
}

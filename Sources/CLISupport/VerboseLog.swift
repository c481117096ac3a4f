import HTTPCore
import HTTPCoreObservability
import Logging

/// `--verbose`: HTTPCoreObservability's ``HTTPCoreObservability/LoggingHooks`` with a log handler
/// that writes one compact line per event to stderr.
///
/// The hooks already hold the guarantees that matter (the client's redacted URLs, never headers
/// or bodies), so a credential cannot reach these lines; the sink scrubs known secrets again.
///
/// ```
/// [http] GET http://127.0.0.1:50123/monash/schedules -> 200 in 3 ms (attempt 1, request monash-0)
/// [http] retrying GET https://api.example.com/items in 1000 ms after rate_limit (attempt 1)
/// ```
enum VerboseLog {
    static func hooks(writingTo sink: any OutputSink) -> LoggingHooks {
        let logger = Logger(label: "cli.verbose") { _ in LineLogHandler(sink: sink) }
        // Every kind of line at one level, so the handler's level decides alone.
        let levels = LoggingHooks.Levels(attempt: .info, retry: .info, failure: .info, cancellation: .info)
        return LoggingHooks(logger: logger, levels: levels)
    }

    static func line(message: String, metadata: Logger.Metadata) -> String {
        typealias Key = LoggingHooks.Key
        func value(_ key: String) -> String? {
            metadata[key].map { "\($0)" }
        }
        let method = value(Key.method) ?? "?"
        let url = value(Key.url) ?? "?"
        let attempt = value(Key.attempt)
        let duration = value(Key.durationMilliseconds).map { "\($0) ms" }
        var notes: [String] = []
        if let attempt { notes.append("attempt \(attempt)") }
        if let requestID = value(Key.requestID) { notes.append("request \(requestID)") }
        if value(Key.fromCache) == "true" { notes.append("from cache") }
        let suffix = notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"

        switch message {
        case "\(LoggingHooks.Message.attemptFinished)":
            return "[http] \(method) \(url) -> \(value(Key.statusCode) ?? "?") in \(duration ?? "?")\(suffix)"
        case "\(LoggingHooks.Message.attemptFailed)":
            let code = value(Key.errorCode) ?? "error"
            return "[http] \(method) \(url) -> \(code) after \(duration ?? "?")\(suffix)"
        case "\(LoggingHooks.Message.retrying)":
            let delay = value(Key.retryDelayMilliseconds).map { "\($0) ms" } ?? "?"
            let reason = value(Key.retryReason) ?? "?"
            return "[http] retrying \(method) \(url) in \(delay) after \(reason)\(suffix)"
        case "\(LoggingHooks.Message.callFailed)":
            let attempts = value(Key.attempts) ?? "?"
            let code = value(Key.errorCode) ?? "error"
            let status = value(Key.statusCode).map { " HTTP \($0)" } ?? ""
            return "[http] \(method) \(url) failed after \(attempts) attempt(s): \(code)\(status)"
        case "\(LoggingHooks.Message.callCancelled)":
            return "[http] \(method) \(url) cancelled"
        default:
            let pairs = metadata.keys.sorted().map { "\($0)=\(metadata[$0].map { "\($0)" } ?? "")" }
            return "[http] \(message) \(pairs.joined(separator: " "))"
        }
    }
}

/// Writes each log event as one ``VerboseLog`` line.
struct LineLogHandler: LogHandler {
    let sink: any OutputSink
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        sink.write(VerboseLog.line(message: "\(event.message)", metadata: merged) + "\n")
    }
}

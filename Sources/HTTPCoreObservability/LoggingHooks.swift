import Foundation
public import HTTPCore
import HTTPTypes
public import Logging

/// Hooks that write each call's attempts, retries and failures to a swift-log `Logger`.
///
/// ```swift
/// configuration.addLogging(logger: logger)
/// // or, composed with other hooks:
/// configuration.hooks = ChainHooks(LoggingHooks(logger: logger), MetricsHooks())
/// ```
///
/// | event | level (default) | message |
/// |---|---|---|
/// | each attempt (each hop of a redirected one) that got a response | ``Levels-swift.struct/attempt`` (`debug`) | `HTTP attempt finished` |
/// | each attempt (or hop) that got no response | ``Levels-swift.struct/attempt`` (`debug`) | `HTTP attempt failed` |
/// | each retry, before its wait | ``Levels-swift.struct/retry`` (`warning`) | `Retrying HTTP request` |
/// | a call that ends with an error | ``Levels-swift.struct/failure`` (`error`) | `HTTP call failed` |
/// | a cancelled call | ``Levels-swift.struct/cancellation`` (`debug`) | `HTTP call cancelled` |
/// | a cache hit, miss, revalidation, store or eviction | ``Levels-swift.struct/cache`` (`trace`) | `HTTP cache event` |
/// | a page of a paginated list | ``Levels-swift.struct/page`` (`debug`) | `HTTP page received` |
/// | credentials refreshed, logged in or renewed | ``Levels-swift.struct/auth`` (`debug`) | `HTTP credentials updated` |
/// | a refresh, login or credential save that failed | ``Levels-swift.struct/authFailure`` (`warning`) | `HTTP credentials update failed` |
///
/// Metadata keys are listed in ``Key`` and never change meaning. URLs are the client's
/// redacted ones; headers and bodies are never logged, so a credential cannot reach a log line.
public struct LoggingHooks: Hooks {
    /// The level each kind of line is written at.
    ///
    /// swift-log advises libraries to stay at `info` or below; these hooks are something an
    /// application opts into, so retries and failures default to `warning` and `error`. Lower
    /// them when the caller already reports failures it catches.
    public struct Levels: Sendable, Hashable {
        /// One line per attempt, and per hop of a redirected one.
        public var attempt: Logger.Level
        /// One line per retry.
        public var retry: Logger.Level
        /// One line per call that ends with an error.
        public var failure: Logger.Level
        /// One line per cancelled call.
        public var cancellation: Logger.Level
        /// One line per cache event; `trace`, since attempt lines already say `from_cache`.
        public var cache: Logger.Level
        /// One line per page of a paginated list.
        public var page: Logger.Level
        /// One line per refresh, login or renewal.
        public var auth: Logger.Level
        /// One line per failed refresh, login or credential save.
        public var authFailure: Logger.Level

        /// Creates levels; the defaults are those in the table above.
        public init(
            attempt: Logger.Level = .debug,
            retry: Logger.Level = .warning,
            failure: Logger.Level = .error,
            cancellation: Logger.Level = .debug,
            cache: Logger.Level = .trace,
            page: Logger.Level = .debug,
            auth: Logger.Level = .debug,
            authFailure: Logger.Level = .warning
        ) {
            self.attempt = attempt
            self.retry = retry
            self.failure = failure
            self.cancellation = cancellation
            self.cache = cache
            self.page = page
            self.auth = auth
            self.authFailure = authFailure
        }
    }

    /// The metadata keys these hooks write. Keys shared with OpenTelemetry use its names.
    public enum Key {
        /// The HTTP method, e.g. `GET`.
        public static let method = "http.request.method"
        /// The request URL with secret query values and passwords replaced.
        public static let url = "url.full"
        /// The HTTP status, when a response arrived.
        public static let statusCode = "http.response.status_code"
        /// The endpoint's operation name; absent when the endpoint has none.
        public static let operation = "httpcore.operation"
        /// The endpoint's service; absent when the endpoint has none.
        public static let service = "httpcore.service"
        /// The id shared by every line of one call.
        public static let callID = "httpcore.call_id"
        /// The attempt number, 1 for the first; on a retry line, the attempt that failed.
        public static let attempt = "httpcore.attempt"
        /// How many attempts a failed call made.
        public static let attempts = "httpcore.attempts"
        /// How long the attempt (or, on a failure line, the whole call) took, in milliseconds.
        public static let durationMilliseconds = "httpcore.duration_ms"
        /// The server's request id, when it sent one.
        public static let requestID = "httpcore.request_id"
        /// Whether the response came from the client's cache (`true`/`false`).
        public static let fromCache = "httpcore.from_cache"
        /// The `APIError.Code` of a failed attempt or call, e.g. `network`, or `file_write` for a
        /// download whose file could not be written.
        public static let errorCode = "httpcore.error.code"
        /// The failed call's error message (credential-free by `APIError`'s contract).
        public static let errorMessage = "httpcore.error.message"
        /// How long the client waits before retrying, in milliseconds.
        public static let retryDelayMilliseconds = "httpcore.retry.delay_ms"
        /// The `APIError.Code` that caused the retry.
        public static let retryReason = "httpcore.retry.reason"
        /// What the cache did: `hit`, `miss`, `revalidated`, `stored` or `evicted`.
        public static let cacheEvent = "httpcore.cache.event"
        /// Why an entry was evicted, e.g. `capacity`.
        public static let cacheEvictionReason = "httpcore.cache.eviction_reason"
        /// The size of the cache entry concerned, in bytes.
        public static let cacheBytes = "httpcore.cache.bytes"
        /// The page's position in its walk, 0 for the first.
        public static let pageIndex = "httpcore.page.index"
        /// How many items the page held.
        public static let pageItems = "httpcore.page.items"
        /// Whether the page links to a next one.
        public static let pageHasNext = "httpcore.page.has_next"
        /// The list's total item count, when the server sent it.
        public static let pageTotalCount = "httpcore.page.total_count"
        /// What the auth strategy did, e.g. `refreshed` or `login_failed`.
        public static let authEvent = "httpcore.auth.event"
        /// Why it acted: `initial`, `expiry` or `rejected`.
        public static let authTrigger = "httpcore.auth.trigger"
        /// The strategy's name, e.g. `RefreshingTokenAuth`.
        public static let authStrategy = "httpcore.auth.strategy"
        /// Until when the new credentials are good (ISO 8601), when known. Never the credentials.
        public static let authValidUntil = "httpcore.auth.valid_until"
    }

    /// The messages these hooks write, one per kind of line.
    public enum Message {
        /// An attempt that got a response.
        public static let attemptFinished: Logger.Message = "HTTP attempt finished"
        /// An attempt that got no response.
        public static let attemptFailed: Logger.Message = "HTTP attempt failed"
        /// A retry about to wait.
        public static let retrying: Logger.Message = "Retrying HTTP request"
        /// A call that ended with an error.
        public static let callFailed: Logger.Message = "HTTP call failed"
        /// A cancelled call.
        public static let callCancelled: Logger.Message = "HTTP call cancelled"
        /// Something the response cache did.
        public static let cacheEvent: Logger.Message = "HTTP cache event"
        /// A page of a paginated list arrived.
        public static let pageReceived: Logger.Message = "HTTP page received"
        /// Credentials were refreshed, or a session opened or renewed.
        public static let credentialsUpdated: Logger.Message = "HTTP credentials updated"
        /// A refresh, login or credential save failed.
        public static let credentialsFailed: Logger.Message = "HTTP credentials update failed"
    }

    /// The logger given at creation; `nil` reads `Logger.current` at each event.
    public let logger: Logger?
    /// The level of each kind of line.
    public let levels: Levels

    /// Creates logging hooks.
    ///
    /// - Parameters:
    ///   - logger: Where lines go. Leave it `nil` to use the task-local `Logger.current` of the
    ///     task making each call, so metadata the application bound with `withLogger` (a request
    ///     id, say) travels with every line.
    ///   - levels: The level of each kind of line.
    public init(logger: Logger? = nil, levels: Levels = Levels()) {
        self.logger = logger
        self.levels = levels
    }

    /// Writes one line per attempt.
    public func requestEnded(_ event: RequestEndEvent) {
        let message = event.status == nil ? Message.attemptFailed : Message.attemptFinished
        resolvedLogger.log(level: levels.attempt, message, metadata: Self.metadata(for: event))
    }

    /// Writes one line per retry.
    public func retryScheduled(_ event: RetryEvent) {
        resolvedLogger.log(level: levels.retry, Message.retrying, metadata: Self.metadata(for: event))
    }

    /// Writes one line for a call that failed or was cancelled; successful calls are covered by
    /// their attempt lines.
    public func operationEnded(_ event: OperationEndEvent) {
        if event.cancelled {
            resolvedLogger.log(level: levels.cancellation, Message.callCancelled, metadata: Self.metadata(for: event))
        } else if let error = event.error ?? event.fileError.map({ $0 as any Error }) {
            resolvedLogger.log(
                level: levels.failure,
                Message.callFailed,
                error: error,
                metadata: Self.metadata(for: event)
            )
        }
    }

    /// Writes one line per cache event.
    public func cache(_ event: CacheEvent) {
        resolvedLogger.log(level: levels.cache, Message.cacheEvent, metadata: Self.metadata(for: event))
    }

    /// Writes one line per page.
    public func page(_ event: PageEvent) {
        resolvedLogger.log(level: levels.page, Message.pageReceived, metadata: Self.metadata(for: event))
    }

    /// Writes one line per refresh, login or renewal, and per failure of one.
    public func auth(_ event: AuthEvent) {
        if let error = event.error {
            resolvedLogger.log(
                level: levels.authFailure,
                Message.credentialsFailed,
                error: error,
                metadata: Self.metadata(for: event)
            )
        } else {
            resolvedLogger.log(level: levels.auth, Message.credentialsUpdated, metadata: Self.metadata(for: event))
        }
    }

    private var resolvedLogger: Logger { logger ?? Logger.current }

    private static func add(_ operation: OperationMetadata, to metadata: inout Logger.Metadata) {
        if !operation.name.isEmpty { metadata[Key.operation] = .string(operation.name) }
        if !operation.service.isEmpty { metadata[Key.service] = .string(operation.service) }
    }

    private static func common(
        _ operation: OperationMetadata,
        method: HTTPRequest.Method,
        url: String,
        callID: UInt64
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            Key.method: .string(method.rawValue),
            Key.url: .string(url),
            Key.callID: .stringConvertible(callID),
        ]
        add(operation, to: &metadata)
        return metadata
    }

    static func metadata(for event: RequestEndEvent) -> Logger.Metadata {
        var metadata = common(event.operation, method: event.method, url: event.url, callID: event.callID)
        metadata[Key.attempt] = .stringConvertible(event.attempt)
        metadata[Key.durationMilliseconds] = .stringConvertible(Labels.milliseconds(event.duration))
        metadata[Key.fromCache] = .stringConvertible(event.fromCache)
        if let status = event.status { metadata[Key.statusCode] = .stringConvertible(status) }
        if let requestID = event.requestID { metadata[Key.requestID] = .string(requestID) }
        if let error = event.error { metadata[Key.errorCode] = .string(error.code.rawValue) }
        return metadata
    }

    static func metadata(for event: RetryEvent) -> Logger.Metadata {
        var metadata = common(event.operation, method: event.method, url: event.url, callID: event.callID)
        metadata[Key.attempt] = .stringConvertible(event.attempt)
        metadata[Key.retryDelayMilliseconds] = .stringConvertible(Labels.milliseconds(event.delay))
        metadata[Key.retryReason] = .string(event.error.code.rawValue)
        if let status = event.error.httpStatus { metadata[Key.statusCode] = .stringConvertible(status) }
        if let requestID = event.error.requestID { metadata[Key.requestID] = .string(requestID) }
        return metadata
    }

    static func metadata(for event: OperationEndEvent) -> Logger.Metadata {
        var metadata = common(event.operation, method: event.method, url: event.url, callID: event.callID)
        metadata[Key.attempts] = .stringConvertible(event.attempts)
        metadata[Key.durationMilliseconds] = .stringConvertible(Labels.milliseconds(event.duration))
        if let status = event.status { metadata[Key.statusCode] = .stringConvertible(status) }
        if let error = event.error {
            metadata[Key.errorCode] = .string(error.code.rawValue)
            metadata[Key.errorMessage] = .string(error.message)
            if let requestID = error.requestID { metadata[Key.requestID] = .string(requestID) }
        }
        if let fileError = event.fileError {
            metadata[Key.errorCode] = .string(Labels.fileWriteErrorCode)
            metadata[Key.errorMessage] = .string(fileError.description)
        }
        return metadata
    }

    static func metadata(for event: CacheEvent) -> Logger.Metadata {
        var metadata = common(event.operation, method: event.method, url: event.url, callID: event.callID)
        metadata[Key.attempt] = .stringConvertible(event.attempt)
        metadata[Key.cacheEvent] = .string(event.kind.rawValue)
        if let reason = event.reason { metadata[Key.cacheEvictionReason] = .string(reason.rawValue) }
        if let bytes = event.byteCount { metadata[Key.cacheBytes] = .stringConvertible(bytes) }
        return metadata
    }

    static func metadata(for event: PageEvent) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            Key.url: .string(event.url),
            Key.statusCode: .stringConvertible(event.status),
            Key.fromCache: .stringConvertible(event.fromCache),
            Key.pageIndex: .stringConvertible(event.index),
            Key.pageItems: .stringConvertible(event.itemCount),
            Key.pageHasNext: .stringConvertible(event.hasNext),
        ]
        add(event.operation, to: &metadata)
        if let total = event.totalCount { metadata[Key.pageTotalCount] = .stringConvertible(total) }
        return metadata
    }

    static func metadata(for event: AuthEvent) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            Key.authEvent: .string(event.kind.rawValue),
            Key.authTrigger: .string(event.trigger.rawValue),
            Key.authStrategy: .string(event.strategy),
            Key.callID: .stringConvertible(event.callID),
            Key.durationMilliseconds: .stringConvertible(Labels.milliseconds(event.duration)),
        ]
        add(event.operation, to: &metadata)
        if let validUntil = event.validUntil {
            metadata[Key.authValidUntil] = .string(validUntil.formatted(.utcTimestamp))
        }
        if let error = event.error {
            metadata[Key.errorCode] = .string(error.code.rawValue)
            metadata[Key.errorMessage] = .string(error.message)
        }
        return metadata
    }
}

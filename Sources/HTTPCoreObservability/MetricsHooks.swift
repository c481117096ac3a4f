public import HTTPCore
import HTTPTypes
public import Metrics

/// Hooks that count calls, attempts, retries and errors and time them with swift-metrics.
///
/// ```swift
/// configuration.addMetrics()
/// // or, composed with other hooks:
/// configuration.hooks = ChainHooks(LoggingHooks(logger: logger), MetricsHooks())
/// ```
///
/// | name (default prefix) | kind | dimensions, in order | recorded |
/// |---|---|---|---|
/// | `httpcore.requests` | counter | operation, service, method, status_class | once per request sent (each attempt, each redirect hop) |
/// | `httpcore.request.duration` | timer | operation, service, method, status_class | once per request sent |
/// | `httpcore.operations` | counter | operation, service, method, status_class | once per call |
/// | `httpcore.operation.duration` | timer | operation, service, method, status_class | once per call |
/// | `httpcore.retries` | counter | operation, service, method, error_code | once per retry |
/// | `httpcore.errors` | counter | operation, service, method, error_code | once per failed call |
/// | `httpcore.cache.events` | counter | operation, service, method, event | once per cache event |
/// | `httpcore.pages` | counter | operation, service | once per page of a paginated list |
/// | `httpcore.page.items` | counter | operation, service | items per page, added up |
/// | `httpcore.auth.events` | counter | strategy, event, trigger | once per refresh, login, renewal or failure |
/// | `httpcore.auth.duration` | timer | strategy, event, trigger | once per refresh, login, renewal or failure |
///
/// Every dimension is bounded: an empty operation or service is `unknown`, methods outside the
/// standard nine are `_OTHER`, `status_class` is `1xx`–`5xx`, `error` (no response) or
/// `cancelled`, `error_code` is an `APIError.Code`, the cache `event` is a `CacheEvent.Kind`
/// (`hit`, `miss`, `revalidated`, `stored`, `evicted`), the auth `event` and `trigger` are an
/// `AuthEvent.Kind` and `AuthEvent.Trigger`, and `strategy` is the auth strategy's type name.
/// URLs, ids and user values are never dimensions. Past ``maxOperationNames`` distinct operation names, new ones count as `other`,
/// so a misbehaving caller cannot grow the number of series without limit.
public final class MetricsHooks: Hooks {
    /// The metric names, relative to the prefix.
    public enum Name {
        /// Counter: requests that reached the transport (each attempt, and each redirect hop).
        public static let requests = "requests"
        /// Timer: how long each request took.
        public static let requestDuration = "request.duration"
        /// Counter: calls, by their final status class.
        public static let operations = "operations"
        /// Timer: how long each call took, waits and retries included.
        public static let operationDuration = "operation.duration"
        /// Counter: retries, by the error that caused them.
        public static let retries = "retries"
        /// Counter: calls that ended with an error, by its code.
        public static let errors = "errors"
        /// Counter: response cache hits, misses, revalidations, stores and evictions.
        public static let cacheEvents = "cache.events"
        /// Counter: pages of paginated lists.
        public static let pages = "pages"
        /// Counter: items received in pages of paginated lists.
        public static let pageItems = "page.items"
        /// Counter: token refreshes, session logins and renewals, and their failures.
        public static let authEvents = "auth.events"
        /// Timer: how long each refresh, login or renewal took.
        public static let authDuration = "auth.duration"
    }

    /// The dimension names.
    public enum Dimension {
        /// `OperationMetadata.name`, or `unknown`.
        public static let operation = "operation"
        /// `OperationMetadata.service`, or `unknown`.
        public static let service = "service"
        /// The HTTP method, or `_OTHER`.
        public static let method = "method"
        /// `1xx`, `2xx`, `3xx`, `4xx`, `5xx`, `error` or `cancelled`.
        public static let statusClass = "status_class"
        /// An `APIError.Code` raw value, e.g. `rate_limit`, or `file_write` for a download whose
        /// file could not be written.
        public static let errorCode = "error_code"
        /// A `CacheEvent.Kind` or `AuthEvent.Kind` raw value.
        public static let event = "event"
        /// The auth strategy's type name, e.g. `RefreshingTokenAuth`.
        public static let strategy = "strategy"
        /// An `AuthEvent.Trigger` raw value.
        public static let trigger = "trigger"
    }

    /// What an operation name past ``maxOperationNames`` is recorded as.
    public static let overflowOperationName = "other"

    /// The prefix of every metric name, joined with a dot.
    public let prefix: String
    /// How many distinct operation names are kept as dimension values.
    public let maxOperationNames: Int

    private let factory: any MetricsFactory
    private let state = Locked(State())

    private struct State: Sendable {
        var counters: [SeriesKey: Counter] = [:]
        var timedSeries: [SeriesKey: TimedSeries] = [:]
        var operationNames: Set<String> = []

        /// `name`, or the overflow name once `limit` other names are kept.
        mutating func bounded(_ name: String, limit: Int) -> String {
            if operationNames.contains(name) { return name }
            guard operationNames.count < limit else { return MetricsHooks.overflowOperationName }
            operationNames.insert(name)
            return name
        }
    }

    /// One series: a metric's name and its dimension values, in the order the table lists them.
    ///
    /// Fixed fields rather than an array of values, so finding an existing series (every event
    /// does) builds nothing.
    private struct SeriesKey: Hashable, Sendable {
        var name: String
        var first: String
        var second: String
        var third: String?
        var fourth: String?

        var values: [String] { [first, second] + [third, fourth].compactMap { $0 } }
    }

    /// A counter and a timer that every event of a series records together, found with one lookup.
    private struct TimedSeries: Sendable {
        let counter: Counter
        let timer: Timer
    }

    /// Creates metrics hooks.
    ///
    /// - Parameters:
    ///   - factory: Where metrics go; `nil` uses `MetricsSystem.factory` as it is now (the
    ///     bootstrapped one, or a task-local one bound with `withMetricsFactory`).
    ///   - prefix: The prefix of every metric name.
    ///   - maxOperationNames: How many distinct operation names are kept before new ones are
    ///     recorded as `other`.
    public init(factory: (any MetricsFactory)? = nil, prefix: String = "httpcore", maxOperationNames: Int = 500) {
        self.factory = factory ?? MetricsSystem.factory
        self.prefix = prefix
        self.maxOperationNames = max(maxOperationNames, 0)
    }

    /// Counts and times the attempt.
    public func requestEnded(_ event: RequestEndEvent) {
        let series = timedSeries(
            Name.requests,
            Name.requestDuration,
            statusDimensions,
            OperationLabels(event.operation, event.method, Labels.statusClass(event.status))
        )
        series.counter.increment()
        series.timer.recordNanoseconds(Labels.nanoseconds(event.duration))
    }

    /// Counts the retry by its cause.
    public func retryScheduled(_ event: RetryEvent) {
        counter(
            Name.retries,
            errorDimensions,
            OperationLabels(event.operation, event.method, event.error.code.rawValue)
        )
        .increment()
    }

    /// Counts and times the call, and counts its error.
    public func operationEnded(_ event: OperationEndEvent) {
        let statusClass = event.cancelled ? "cancelled" : Labels.statusClass(event.status)
        let series = timedSeries(
            Name.operations,
            Name.operationDuration,
            statusDimensions,
            OperationLabels(event.operation, event.method, statusClass)
        )
        series.counter.increment()
        series.timer.recordNanoseconds(Labels.nanoseconds(event.duration))
        if let code = event.error?.code.rawValue ?? event.fileError.map({ _ in Labels.fileWriteErrorCode }) {
            counter(Name.errors, errorDimensions, OperationLabels(event.operation, event.method, code)).increment()
        }
    }

    /// Counts the cache's hits, misses, revalidations, stores and evictions.
    public func cache(_ event: CacheEvent) {
        counter(Name.cacheEvents, cacheDimensions, OperationLabels(event.operation, event.method, event.kind.rawValue))
            .increment()
    }

    /// Counts pages and their items.
    public func page(_ event: PageEvent) {
        let labels = OperationLabels(event.operation, nil, nil)
        counter(Name.pages, pageDimensions, labels).increment()
        counter(Name.pageItems, pageDimensions, labels).increment(by: max(event.itemCount, 0))
    }

    /// Counts and times refreshes, logins and renewals.
    public func auth(_ event: AuthEvent) {
        let key = SeriesKey(
            name: Name.authEvents,
            first: event.strategy,
            second: event.kind.rawValue,
            third: event.trigger.rawValue
        )
        let series = state.withLock { state in timedSeries(key, Name.authDuration, authDimensions, in: &state) }
        series.counter.increment()
        series.timer.recordNanoseconds(Labels.nanoseconds(event.duration))
    }

    private let cacheDimensions = [Dimension.operation, Dimension.service, Dimension.method, Dimension.event]
    private let pageDimensions = [Dimension.operation, Dimension.service]
    private let authDimensions = [Dimension.strategy, Dimension.event, Dimension.trigger]
    private let statusDimensions = [Dimension.operation, Dimension.service, Dimension.method, Dimension.statusClass]
    private let errorDimensions = [Dimension.operation, Dimension.service, Dimension.method, Dimension.errorCode]

    /// An event's operation, service and method labels and the dimension that follows them;
    /// the operation name is bounded only once the lock is held.
    private struct OperationLabels {
        var operation: String
        var service: String
        var method: String?
        var last: String?

        init(_ operation: OperationMetadata, _ method: HTTPRequest.Method?, _ last: String?) {
            self.operation = Labels.operation(operation)
            self.service = Labels.service(operation)
            self.method = method.map(Labels.method)
            self.last = last
        }

        func key(_ name: String, in state: inout State, limit: Int) -> SeriesKey {
            SeriesKey(
                name: name,
                first: state.bounded(operation, limit: limit),
                second: service,
                third: method,
                fourth: last
            )
        }
    }

    /// The metric objects are made once per series and reused: creating them per event is slow
    /// and swift-metrics advises against it.
    private func counter(_ name: String, _ dimensions: [String], _ labels: OperationLabels) -> Counter {
        state.withLock { state in
            let key = labels.key(name, in: &state, limit: maxOperationNames)
            if let existing = state.counters[key] { return existing }
            let counter = Counter(label: label(name), dimensions: Array(zip(dimensions, key.values)), factory: factory)
            state.counters[key] = counter
            return counter
        }
    }

    private func timedSeries(
        _ counterName: String,
        _ timerName: String,
        _ dimensions: [String],
        _ labels: OperationLabels
    ) -> TimedSeries {
        state.withLock { state in
            timedSeries(
                labels.key(counterName, in: &state, limit: maxOperationNames),
                timerName,
                dimensions,
                in: &state
            )
        }
    }

    /// The counter named by `key` and the timer `timerName` with the same dimension values.
    private func timedSeries(
        _ key: SeriesKey,
        _ timerName: String,
        _ dimensions: [String],
        in state: inout State
    ) -> TimedSeries {
        if let existing = state.timedSeries[key] { return existing }
        let dimensions = Array(zip(dimensions, key.values))
        let series = TimedSeries(
            counter: Counter(label: label(key.name), dimensions: dimensions, factory: factory),
            timer: Timer(
                label: label(timerName),
                dimensions: dimensions,
                preferredDisplayUnit: .milliseconds,
                factory: factory
            )
        )
        state.timedSeries[key] = series
        return series
    }

    private func label(_ name: String) -> String {
        prefix.isEmpty ? name : prefix + "." + name
    }
}

public import HTTPCore
public import Logging
public import Metrics
public import Tracing

extension ClientConfiguration {
    /// Logs every attempt, retry and failure of this client's calls: one line to set up logging.
    ///
    /// The ``LoggingHooks`` are added after any hooks already configured.
    ///
    /// - Parameters:
    ///   - logger: Where lines go; `nil` uses the calling task's `Logger.current`.
    ///   - levels: The level of each kind of line.
    public mutating func addLogging(logger: Logger? = nil, levels: LoggingHooks.Levels = LoggingHooks.Levels()) {
        appendHooks(LoggingHooks(logger: logger, levels: levels))
    }

    /// Counts and times this client's calls, attempts, retries and errors: one line to set up
    /// metrics.
    ///
    /// The ``MetricsHooks`` are added after any hooks already configured.
    ///
    /// - Parameters:
    ///   - factory: Where metrics go; `nil` uses `MetricsSystem.factory`.
    ///   - prefix: The prefix of every metric name.
    public mutating func addMetrics(factory: (any MetricsFactory)? = nil, prefix: String = "httpcore") {
        appendHooks(MetricsHooks(factory: factory, prefix: prefix))
    }

    /// Traces this client's calls and propagates their trace context to servers: one line to set
    /// up tracing.
    ///
    /// Installs three parts: a ``TracingMiddleware`` first among the call middlewares, so its
    /// span wraps the whole call; a ``TraceContextMiddleware`` last among the middlewares, so it
    /// sees each attempt's request as it will be sent; and ``SpanEventHooks`` among the hooks,
    /// which add retries, cache and auth events to the call's span. The attempt stage reads the
    /// request id from the configuration's `requestIDHeader` as it is when this is called.
    ///
    /// - Parameter tracer: The tracer to use instead of the installed one; `nil` uses
    ///   `InstrumentationSystem.tracer` (or the task-local one bound with `withTracer`).
    public mutating func addTracing(tracer: (any Tracer)? = nil) {
        callMiddlewares.insert(TracingMiddleware(tracer: tracer), at: 0)
        middlewares.append(TraceContextMiddleware(tracer: tracer, requestIDHeader: requestIDHeader))
        appendHooks(SpanEventHooks())
    }

    private mutating func appendHooks(_ added: any Hooks) {
        if hooks is NoopHooks {
            hooks = added
        } else if let chain = hooks as? ChainHooks {
            hooks = ChainHooks(chain.hooks + [added])
        } else {
            hooks = ChainHooks(hooks, added)
        }
    }
}

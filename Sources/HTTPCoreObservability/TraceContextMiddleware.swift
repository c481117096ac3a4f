public import Foundation
public import HTTPCore
public import HTTPTypes
public import Tracing

/// A middleware that gives each attempt a `client` span and injects its trace context into the
/// outgoing request headers through the installed instrument (W3C `traceparent` with an
/// OpenTelemetry tracer).
///
/// Its spans are children of the call's span when a ``TracingMiddleware`` runs around the call
/// (`addTracing` installs both), and of the caller's `ServiceContext.current` otherwise. Each is
/// named after the HTTP method, carries the attempt's number as `http.request.resend_count`, and
/// records the answer's status, request id and whether the cache served it (see
/// ``TracingMiddleware/Attribute``).
///
/// Install it last in `ClientConfiguration.middlewares`: it must see the request as it will be
/// sent, and its span should time the transport, not other middlewares. A redirected attempt is
/// one span: the redirect stage, inside it, sends each hop with the same trace headers. While the
/// attempt runs, `ServiceContext.current` is the attempt span's context, so log lines written by
/// hooks and transports can carry its trace id through a logging metadata provider.
///
/// When no tracer is installed it still propagates: the caller's `ServiceContext.current` is
/// injected through `InstrumentationSystem.instrument`, so propagation-only instruments work.
public struct TraceContextMiddleware: Middleware {
    private let tracer: (any Tracer)?
    private let requestIDHeader: HTTPField.Name

    /// Creates the attempt stage.
    ///
    /// - Parameters:
    ///   - tracer: The tracer to use instead of the installed one; `nil` uses the call span's
    ///     tracer, else resolves `InstrumentationSystem.tracer` for each attempt.
    ///   - requestIDHeader: The response header that carries the server's request id (the
    ///     client's `requestIDHeader`).
    public init(tracer: (any Tracer)? = nil, requestIDHeader: HTTPField.Name = .xRequestID) {
        self.tracer = tracer
        self.requestIDHeader = requestIDHeader
    }

    /// Starts the attempt's span, injects its context and ends the span when the attempt does.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let call = CallSpan.current
        let tracer = self.tracer ?? call?.tracer ?? InstrumentationSystem.tracer
        let instrument: any Instrument = self.tracer ?? InstrumentationSystem.instrument
        var request = request
        guard !(tracer is NoOpTracer) else {
            if let current = ServiceContext.current {
                instrument.inject(current, into: &request.headerFields, using: HeaderInjector())
            }
            return try await next(request, body, context)
        }

        let span = tracer.startSpan(
            Labels.method(request.method),
            context: call?.span.context ?? ServiceContext.current ?? .topLevel,
            ofKind: .client
        )
        defer { span.end() }
        span.updateAttributes { attributes in
            Spans.describe(request, redactor: context.redactor, into: &attributes)
            if context.attempt > 1 { attributes[TracingMiddleware.Attribute.resendCount] = context.attempt - 1 }
        }
        instrument.inject(span.context, into: &request.headerFields, using: HeaderInjector())
        let outgoing = request
        do {
            let result = try await ServiceContext.withValue(span.context) {
                try await next(outgoing, body, context)
            }
            let status = result.response.status.code
            span.updateAttributes { attributes in
                // The cache stage, outside, serves a 304 to its own conditional request.
                attributes[TracingMiddleware.Attribute.fromCache] =
                    result.fromCache || (status == 304 && context.isCacheRevalidation)
                if let requestID = result.response.headerFields[requestIDHeader] {
                    attributes[TracingMiddleware.Attribute.requestID] = requestID
                }
            }
            Spans.record(status: status, on: span)
            return result
        } catch {
            span.attributes[TracingMiddleware.Attribute.fromCache] = false
            if let apiError = ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent) as? APIError {
                Spans.fail(span, with: apiError)
            }
            throw error
        }
    }
}

/// Writes propagation values into request headers; keys that are not valid header names are
/// skipped rather than sent malformed.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}

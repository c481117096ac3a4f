public import Foundation
public import HTTPCore
public import HTTPTypes
public import Tracing

/// A middleware that gives each attempt a `client` span and injects its trace context into the
/// outgoing request headers through the installed instrument (W3C `traceparent` with an
/// OpenTelemetry tracer).
///
/// Get the one linked to your ``TracingHooks`` from ``TracingHooks/middleware`` (or let
/// `addTracing` install both), so attempt spans become children of the call's span. Created on
/// its own, it parents attempt spans under the caller's `ServiceContext.current`.
///
/// Install it last in `ClientConfiguration.middlewares`: it must see the request as it will be
/// sent, and its span should time the transport, not other middlewares. While the attempt runs,
/// `ServiceContext.current` is the attempt span's context, so log lines written by hooks and
/// transports can carry its trace id through a logging metadata provider.
///
/// When no tracer is installed it still propagates: the caller's `ServiceContext.current` is
/// injected through `InstrumentationSystem.instrument`, so propagation-only instruments work.
public struct TraceContextMiddleware: Middleware {
    private let tracer: (any Tracer)?
    private let registry: SpanRegistry?

    /// Creates a middleware that is not linked to any ``TracingHooks``.
    ///
    /// - Parameter tracer: The tracer to use instead of the installed one; `nil` resolves
    ///   `InstrumentationSystem.tracer` for each attempt.
    public init(tracer: (any Tracer)? = nil) {
        self.tracer = tracer
        self.registry = nil
    }

    init(registry: SpanRegistry) {
        self.tracer = registry.explicitTracer
        self.registry = registry
    }

    /// Starts the attempt's span, injects its context and ends the span when the attempt does.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        next: MiddlewareNext
    ) async throws -> TransportResponse {
        let call = registry?.call(context.callID)
        let tracer = call?.tracer ?? self.tracer ?? InstrumentationSystem.tracer
        let instrument: any Instrument = self.tracer ?? InstrumentationSystem.instrument
        var request = request
        guard !(tracer is NoOpTracer) else {
            if let current = ServiceContext.current {
                instrument.inject(current, into: &request.headerFields, using: HeaderInjector())
            }
            return try await next(request, body, context)
        }

        let span = TracingHooks.startAttempt(
            tracer: tracer,
            parent: call?.operation.context ?? ServiceContext.current ?? .topLevel,
            method: request.method,
            url: request.url.map(context.redactor.redact) ?? "",
            attempt: context.attempt
        )
        registry?.update(context.callID) {
            $0.attempt = SpanRegistry.Attempt(span: span, ownedByMiddleware: true)
        }
        defer {
            registry?.update(context.callID) { $0.attempt = nil }
            span.end()
        }
        instrument.inject(span.context, into: &request.headerFields, using: HeaderInjector())
        let outgoing = request
        do {
            let result = try await ServiceContext.withValue(span.context) {
                try await next(outgoing, body, context)
            }
            TracingHooks.record(status: result.response.status.code, on: span)
            return result
        } catch let replay as ReplayRequest {
            // Not a failure: an inner middleware asked for the request to be sent again.
            TracingHooks.record(status: replay.response.response.status.code, on: span)
            throw replay
        } catch {
            // The request hooks may already have recorded this failure on the span; record it once.
            if span.attributes[TracingHooks.Attribute.errorType] == nil,
                let apiError = ErrorMapping.apiError(from: error, isIdempotent: context.isIdempotent) as? APIError
            {
                TracingHooks.fail(span, with: apiError)
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

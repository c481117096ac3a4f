import Foundation
import HTTPTypes

/// The stages every call and each of its attempts go through, in one fixed order, ending at the
/// transport.
///
/// The order, outermost first (<doc:RequestPipeline> says why):
///
/// Once per call:
/// 1. the call middlewares, in the order configured;
/// 2. the operation hooks;
/// 3. the call's answer: the failure or status mapped to an ``APIError``, or the value decoded;
/// 4. a stage of the call's own, if it brings one (pagination reads the next link there).
///
/// Once per attempt:
/// 5. retry, which sends each attempt on through the rest;
/// 6. download resume, so each attempt of a download to a file continues the last;
/// 7. the rate limit, so each attempt, a retry or a replay included, costs one permit: the
///    hops of its redirect share it, and an answer served from the cache costs it too;
/// 8. auth, inside the rate limit so an attempt that waited for its permit carries the
///    credentials current after the wait;
/// 9. cache, inside auth so entries are keyed by the credentials an attempt carries;
/// 10. the user's middlewares, in the order configured;
/// 11. redirects, which send each hop on through the rest;
/// 12. request hooks, next to the transport, so they time and report what is really sent;
/// 13. the transport, one hop at a time.
///
/// Every stage is a ``Middleware``. The attempt chain is built once, in `init`, by one loop; the
/// call-level stages are put around it for each call, because the answer stage is the call's own.
struct Pipeline: Sendable {
    /// The call-level stages the client brings, outermost first.
    let callStages: [any Middleware]
    /// The attempt stages before the transport, outermost first.
    let stages: [any Middleware]
    /// The first attempt stage's entry point: runs the attempt chain.
    private let entry: MiddlewareNext

    /// The pipeline a client with `configuration` runs.
    init(
        configuration: ClientConfiguration,
        baseURL: URL,
        redactor: Redactor,
        hooks: (any Hooks)?,
        transport: any HTTPTransport
    ) {
        let options = TransportOptions(
            timeout: configuration.timeout,
            maxBodySize: configuration.maxResponseBodySize,
            maxErrorBodySize: configuration.maxErrorBodySize
        )
        let callStages: [(any Middleware)?] =
            configuration.callMiddlewares.map { $0 }
            + [hooks.map { OperationReportStage(hooks: $0, timeSource: configuration.timeSource) }]
        let stages: [(any Middleware)?] =
            [
                RetryStage(configuration: configuration, hooks: hooks),
                DownloadResumeStage(),
                configuration.rateLimit.map { RateLimitStage(rateLimit: $0, timeSource: configuration.timeSource) },
                configuration.auth.map {
                    AuthStage(
                        strategy: $0,
                        configuration: configuration,
                        baseURL: baseURL,
                        hooks: hooks,
                        transport: transport,
                        options: options
                    )
                },
                configuration.cache.map { CacheStage(cache: $0, hooks: hooks, timeSource: configuration.timeSource) },
            ]
            + configuration.middlewares.map { $0 }
            + [
                RedirectStage(
                    policy: configuration.redirectPolicy,
                    redactor: redactor,
                    idempotencyKeyHeader: configuration.idempotencyKeyHeader
                ),
                hooks.map {
                    RequestHooksStage(
                        hooks: $0,
                        requestIDHeader: configuration.requestIDHeader,
                        timeSource: configuration.timeSource
                    )
                },
            ]
        self.init(
            callStages: callStages.compactMap { $0 },
            stages: stages.compactMap { $0 },
            transport: TransportStage(
                transport: transport,
                options: options,
                timeSource: configuration.timeSource,
                redactor: redactor
            )
        )
    }

    /// Chains `stages`, outermost first, in front of `transport`, with `callStages` around them.
    init(callStages: [any Middleware] = [], stages: [any Middleware], transport: TransportStage) {
        self.callStages = callStages
        self.stages = stages
        var next: MiddlewareNext = { request, body, context in
            try await transport.send(request, body: body, context: context)
        }
        for stage in stages.reversed() {
            next = Self.link(stage, next)
        }
        entry = next
    }

    private static func link(_ stage: any Middleware, _ rest: @escaping MiddlewareNext) -> MiddlewareNext {
        { request, body, context in
            try await stage.intercept(request, body: body, context: context, next: rest)
        }
    }

    /// Runs one call through the pipeline and returns its final answer.
    ///
    /// - Parameters:
    ///   - answer: The call's answer stage, inside the client's call-level stages.
    ///   - callStage: A stage for this call alone, right outside retry, so it sees the call's
    ///     final answer after every retry and before the answer stage decodes it; pagination
    ///     reads the next link with one.
    func send(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        answer: any Middleware,
        through callStage: (any Middleware)? = nil
    ) async throws -> TransportResponse {
        var next = entry
        if let callStage { next = Self.link(callStage, next) }
        // The outermost stage is called directly: a call with no call-level stages but its answer
        // costs no closure of its own.
        guard let outermost = callStages.first else {
            return try await answer.intercept(request, body: body, context: context, next: next)
        }
        next = Self.link(answer, next)
        for stage in callStages.dropFirst().reversed() {
            next = Self.link(stage, next)
        }
        return try await outermost.intercept(request, body: body, context: context, next: next)
    }
}

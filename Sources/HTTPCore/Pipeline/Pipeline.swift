import Foundation
import HTTPTypes

/// The stages every attempt of a call goes through, in one fixed order, ending at the transport.
///
/// The order, outermost first (<doc:RequestPipeline> says why):
///
/// 1. retry, which sends each attempt on through the rest;
///    then, for a download to a file, the resume stage, so each attempt continues the last;
/// 2. auth, so every attempt, a retry or a replay included, carries the current credentials;
/// 3. cache, inside auth so entries are keyed by the credentials an attempt carries;
/// 4. the user's middlewares, in the order configured;
/// 5. request hooks, next to the transport, so they time and report what is really sent;
/// 6. the transport.
///
/// Every stage is a ``Middleware``; the chain is built once, in `init`, by one loop. Calls that
/// stream no file take a second chain without the resume stage, which has nothing to do for them.
struct Pipeline: Sendable {
    /// The stages before the transport, outermost first.
    let stages: [any Middleware]
    /// The first stage's entry point: runs the whole chain for one attempt.
    private let entry: MiddlewareNext
    /// The same chain without the stages that only act on file transfers.
    private let entryWithoutTransfers: MiddlewareNext

    /// The pipeline a client with `configuration` runs.
    init(
        configuration: ClientConfiguration,
        baseURL: URL,
        redactor: Redactor,
        hooks: (any Hooks)?,
        transport: any HTTPTransport
    ) {
        var redirectPolicy = configuration.redirectPolicy
        redirectPolicy.credentialHeaders.formUnion(redactor.secretHeaders)
        let options = TransportOptions(
            timeout: configuration.timeout,
            maxBodySize: configuration.maxResponseBodySize,
            maxErrorBodySize: configuration.maxErrorBodySize,
            redirectPolicy: redirectPolicy
        )
        let stages: [(any Middleware)?] =
            [
                RetryStage(configuration: configuration, hooks: hooks),
                DownloadResumeStage(),
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
            + [hooks.map { RequestHooksStage(hooks: $0, requestIDHeader: configuration.requestIDHeader) }]
        self.init(
            stages: stages.compactMap { $0 },
            transport: TransportStage(transport: transport, options: options, timeSource: configuration.timeSource)
        )
    }

    /// Chains `stages`, outermost first, in front of `transport`.
    init(stages: [any Middleware], transport: TransportStage) {
        self.stages = stages
        entry = Self.chain(stages, transport: transport)
        entryWithoutTransfers = Self.chain(stages.filter { !($0 is DownloadResumeStage) }, transport: transport)
    }

    private static func chain(_ stages: [any Middleware], transport: TransportStage) -> MiddlewareNext {
        var next: MiddlewareNext = { request, body, context in
            try await transport.send(request, body: body, context: context)
        }
        for stage in stages.reversed() {
            let rest = next
            next = { request, body, context in
                try await stage.intercept(request, body: body, context: context, next: rest)
            }
        }
        return next
    }

    /// Runs one call through the pipeline and returns its final answer.
    ///
    /// - Parameter callStage: A stage for this call alone, run outside the pipeline, so it sees
    ///   the call's final answer after every retry; pagination reads the next link with one.
    func send(
        _ request: HTTPRequest,
        body: Data?,
        context: RequestContext,
        through callStage: (any Middleware)? = nil
    ) async throws -> TransportResponse {
        let chain = context.transfer == nil ? entryWithoutTransfers : entry
        guard let callStage else { return try await chain(request, body, context) }
        return try await callStage.intercept(request, body: body, context: context, next: chain)
    }
}

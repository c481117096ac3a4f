import APISandbox
import AsyncHTTPClient
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPCoreOpenAPI
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIBenchClient
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Runner {
    // MARK: 9. A swift-openapi-generator client on HTTPCoreOpenAPI

    /// What every client of this workload names itself, with the contact Basecamp asks for.
    static let benchAgent = "httpcore-bench (bench@example.com)"

    /// The example's generated client fetching a project from the Basecamp sandbox, through
    /// HTTPCoreOpenAPI (an HTTPCore client, retry on, over each transport) next to the same client
    /// on the generator's own transport for that stack, with a bearer-token middleware as its auth.
    func openAPIGET() async throws {
        guard #available(macOS 14, *) else { return }
        try await withBasecampSandbox { sandbox in
            let serverURL = sandbox.baseURL.appending(path: "basecamp")
            let (account, project) = (
                String(BasecampSandboxSeed.accountID), Int64(BasecampSandboxSeed.letoLaptopProjectID)
            )
            for kind in TransportKind.allCases {
                let core = try HTTPCore.Client(
                    configuration: ClientConfiguration(
                        baseURL: serverURL,
                        userAgent: Self.benchAgent,
                        auth: BearerTokenAuth(token: "bench")
                    ),
                    transport: transport(kind)
                )
                let onHTTPCore = ProjectFetcher(serverURL: serverURL, transport: HTTPCoreTransport(client: core))
                let onOwn = ProjectFetcher(
                    serverURL: serverURL,
                    transport: openAPITransport(kind),
                    middlewares: [BenchBearer()]
                )
                let result = try await measurePair(
                    variant: { Sink.consume(Int(try await onHTTPCore.fetch(account: account, project: project))) },
                    baseline: { Sink.consume(Int(try await onOwn.fetch(account: account, project: project))) }
                )
                rows.append(
                    Row(
                        workload: "9. OpenAPI client GET",
                        variant: "generated client on HTTPCoreOpenAPI, \(kind.rawValue)",
                        unit: .time,
                        measured: result,
                        baseline: "same client on \(kind.openAPIPackage)",
                        floor: .atMost(1.10),
                        note: "GetProject from the Basecamp sandbox; retry on, no hooks, cache off"
                    )
                )
            }
        }
    }

    /// The generator's own transport for `kind`, on this runner's session or HTTP client.
    private func openAPITransport(_ kind: TransportKind) -> any ClientTransport {
        switch kind {
        case .urlSession:
            OpenAPIURLSession.URLSessionTransport(configuration: .init(session: urlSession))
        case .asyncHTTPClient:
            OpenAPIAsyncHTTPClient.AsyncHTTPClientTransport(configuration: .init(client: httpClient))
        }
    }
}

/// The bearer token and `User-Agent` the baselines send, as a generated client's own middleware
/// adds them: the sandbox, as Basecamp, refuses a `User-Agent` that names no contact, so every
/// client of this workload sends the same one.
private struct BenchBearer: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer bench"
        request.headerFields[.userAgent] = Runner.benchAgent
        return try await next(request, body, baseURL)
    }
}

extension TransportKind {
    /// The swift-openapi-generator transport package for the same HTTP stack.
    var openAPIPackage: String {
        switch self {
        case .urlSession: "swift-openapi-urlsession"
        case .asyncHTTPClient: "swift-openapi-async-http-client"
        }
    }
}

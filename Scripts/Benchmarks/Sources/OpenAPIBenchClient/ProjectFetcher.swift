public import Foundation
public import OpenAPIRuntime

/// The example's generated Basecamp client (Sources/BasecampOpenAPIExample/Generated, linked here:
/// the generator makes it internal) behind the one call the OpenAPI benchmark row times.
public struct ProjectFetcher: Sendable {
    private let client: Client

    /// A generated client for `serverURL` on `transport`.
    public init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
        client = Client(
            serverURL: serverURL,
            configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
            transport: transport,
            middlewares: middlewares
        )
    }

    /// `GetProject`, decoded; returns the project's id.
    public func fetch(account: String, project: Int64) async throws -> Int64 {
        try await client.getProject(path: .init(accountId: account, projectId: project)).ok.body.json.id
    }
}

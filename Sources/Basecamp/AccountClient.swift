import Foundation
import HTTPCore

/// Every Basecamp service for one account; get one from ``BasecampClient/forAccount(_:)``.
///
/// ```swift
/// let account = try basecamp.forAccount("999999999")
/// let todo = try await account.todos.get(todoID: 42)
/// ```
///
/// Services are cheap values; each property returns a fresh one bound to this account.
public struct AccountClient: Sendable {
    let context: AccountContext

    /// The account id every path starts with.
    public var accountID: String { context.accountID }
    /// The client this account belongs to.
    public var basecamp: BasecampClient { context.basecamp }
}

/// What a generated service needs: the account id for paths and the client to send through.
struct AccountContext: Sendable {
    let accountID: String
    let basecamp: BasecampClient

    /// Sends one endpoint after applying the client's retry settings.
    func send<Value>(_ endpoint: Endpoint<Value>) async throws -> Value {
        try await basecamp.http.send(prepared(endpoint))
    }

    /// Sends one endpoint and returns the full response (headers, status, request id).
    func response<Value>(_ endpoint: Endpoint<Value>) async throws -> Response<Value> {
        try await basecamp.http.response(prepared(endpoint))
    }

    /// Walks every page (up to `maxPages`) and returns the items with the list's metadata.
    func collect<Item: Decodable & Sendable>(
        _ endpoint: Endpoint<[Item]>,
        maxItems: Int?
    ) async throws -> ListResult<Item> {
        try await paginate(endpoint, options: nil).collect(maxItems: maxItems)
    }

    /// The list as an async sequence of items (and pages), fetched lazily with prefetching.
    func paginate<Item: Decodable & Sendable>(
        _ endpoint: Endpoint<[Item]>,
        options: PaginationOptions?
    ) -> Paginated<Item> {
        basecamp.http.paginate(
            prepared(endpoint),
            options: options ?? PaginationOptions(maxPages: basecamp.config.maxPages)
        )
    }

    /// The endpoint with the client's retry switches applied to its Spec retry policy.
    func prepared<Value>(_ endpoint: Endpoint<Value>) -> Endpoint<Value> {
        var endpoint = endpoint
        let config = basecamp.config
        if !config.enableRetry {
            endpoint.operation.retry = RetryPolicy.none
            return endpoint
        }
        if let policy = config.retryPolicy {
            endpoint.operation.retry = policy
        }
        if config.maxRetries != nil {
            var policy = endpoint.operation.retry ?? RetryPolicy()
            policy.maxAttempts = config.attempts(capping: policy.maxAttempts)
            endpoint.operation.retry = policy
        }
        return endpoint
    }
}

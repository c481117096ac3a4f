import Foundation
import HTTPCore

extension AccountClient {
    /// Polls any read-only operation by its description and yields its JSON each time it
    /// changes: the first answer at once, then only answers that differ. This is what
    /// `basecamp timeline --watch` uses.
    ///
    /// ```swift
    /// let timeline = try #require(OperationCatalog.operation(id: "GetProjectTimeline"))
    /// for try await page in try account.poll(timeline, pathParameters: ["projectId": "1"], every: .seconds(10)) {
    ///     print(page.arrayValue?.count ?? 0, "events on the newest page")
    /// }
    /// ```
    ///
    /// Each poll is a conditional GET (`If-None-Match`), so an unchanged answer costs a
    /// `304 Not Modified`, which still counts against Basecamp's rate limit of 50 requests per
    /// 10 seconds: choose `interval` with that budget in mind. A paginated operation is polled
    /// on its first page, where new items appear. See ``HTTPCore/Client/poll(_:every:options:)``
    /// for failures and cancellation.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for an operation that writes or a missing
    ///   parameter.
    public func poll(
        _ operation: BasecampOperation,
        pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [],
        every interval: Duration,
        options: PollOptions = PollOptions()
    ) throws -> Polling<JSONValue> {
        guard operation.isReadOnly else {
            throw APIError.usage("\(operation.id) writes; only read-only operations can be polled.")
        }
        let endpoint = try endpoint(operation, pathParameters: pathParameters, query: query, body: nil)
        return basecamp.http.poll(context.prepared(endpoint), every: interval, options: options)
    }
}

import Basecamp
import Foundation
import HTTPCore

extension OperationRunner {
    /// A list whose pages hold it inside an object (a person's progress: the person, then a page
    /// of events), walked like any list.
    struct EnvelopeWalk {
        /// The first page's object, its list holding the items kept.
        var value: JSONValue
        /// The list's items (in `project` when one is given), with what the walk saw.
        var result: ListResult<JSONValue>
        /// The error that stopped the walk after some pages, if one did.
        var stopped: APIError?
    }

    /// Every page (or the one `page` asks for), up to `limit` items, kept whole with the other
    /// members of the object the list sits in; when the walk stops with an error after some
    /// pages, what they held comes back with it, so it can be printed before the error.
    ///
    /// With `project`, the filter is applied before the limit, as for any list.
    func collectEnvelope(
        _ list: ListCall,
        on account: AccountClient,
        inProject project: Int64? = nil
    ) async throws -> EnvelopeWalk {
        let operation = list.operation
        var sawItems = false
        let whole: EnvelopedList<JSONValue>
        var stopped: APIError?
        do {
            whole = try await account.performEnveloped(
                operation,
                pathParameters: list.path,
                query: list.query,
                options: options(for: list)
            ) { item in
                sawItems = true
                return project.map { Self.belongs(item, to: $0) } ?? true
            }
        } catch let error as APIError {
            guard let partial = error.partialEnvelope(of: JSONValue.self) else { throw error }
            (whole, stopped) = (partial, error)
        }
        // `performEnveloped` has refused an operation without the key.
        let items = operation.pagination?.itemsKey.flatMap { whole.value[$0]?.arrayValue } ?? []
        if let project, stopped == nil, items.isEmpty, sawItems, !whole.meta.truncated, list.page == nil {
            throw Self.notInProject(operation, project: project)
        }
        return EnvelopeWalk(value: whole.value, result: ListResult(items: items, meta: whole.meta), stopped: stopped)
    }
}

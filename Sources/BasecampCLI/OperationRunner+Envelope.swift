import Basecamp
import Foundation
import HTTPCore

extension OperationRunner {
    /// A list whose pages hold it inside an object (a person's progress: the person, then a page
    /// of events), walked like any list.
    struct EnvelopeWalk {
        /// The first page's object, its list holding the items kept; `nil` when the walk stopped
        /// with an error, as only the items fetched so far come back with it.
        var value: JSONValue?
        /// The list's items (in `project` when one is given), with what the walk saw.
        var result: ListResult<JSONValue>
        /// The error that stopped the walk after some pages, if one did.
        var stopped: APIError?
    }

    /// Every page (or the one `page` asks for), up to `limit` items, kept whole with the other
    /// members of the object the list sits in.
    ///
    /// With `project`, the filter is applied before the limit, as for any list, so the walk
    /// reads every page `--max-pages` allows.
    func collectEnvelope(
        _ list: ListCall,
        on account: AccountClient,
        inProject project: Int64? = nil
    ) async throws
        -> EnvelopeWalk
    {
        let (operation, limit, page) = (list.operation, list.limit, list.page)
        guard let key = operation.pagination?.itemsKey else {
            throw APIError.usage("\(operation.id) does not send its list inside an object.")
        }
        let whole: EnvelopedList<JSONValue>
        do {
            whole = try await account.performEnveloped(
                operation,
                pathParameters: list.path,
                query: list.query,
                options: options(for: list, limitingItems: project == nil)
            )
        } catch let error as APIError {
            guard var partial = error.partialList(of: JSONValue.self) else { throw error }
            if let project {
                partial.items = Array(partial.items.filter { Self.belongs($0, to: project) }.prefix(limit ?? .max))
            }
            return EnvelopeWalk(value: nil, result: partial, stopped: error)
        }
        guard case .object(var members) = whole.value else {
            return EnvelopeWalk(value: whole.value, result: ListResult(items: [], meta: whole.meta))
        }
        var meta = whole.meta
        var items = members[key]?.arrayValue ?? []
        if let project {
            let all = items
            items = all.filter { Self.belongs($0, to: project) }
            if let limit, items.count > limit {
                items = Array(items.prefix(limit))
                meta.truncated = true
            }
            if items.isEmpty, !all.isEmpty, !meta.truncated, page == nil {
                throw Self.notInProject(operation, project: project)
            }
            members[key] = .array(items)
        }
        return EnvelopeWalk(value: .object(members), result: ListResult(items: items, meta: meta))
    }
}

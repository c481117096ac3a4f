import Foundation
import HTTPCore

/// Search and the account-wide recordings list, over every recording the account really holds.
extension Handlers {
    /// Active recordings whose title or text holds `q` (ignoring case), newest first; `type`,
    /// `bucket_id` and `creator_id` narrow it.
    func search() throws -> APIReply {
        guard let query = request.queryValue("q")?.trimmingCharacters(in: .whitespaces), !query.isEmpty else {
            throw APIFailure(400, "Search needs a query: q=…")
        }
        let data = store.snapshot()
        let type = request.queryValue("type")
        let bucket = request.queryValue("bucket_id").flatMap { Int($0) }
        let creator = request.queryValue("creator_id").flatMap { Int($0) }
        let found = data.allRecordingSources().filter { recording in
            recording.status == "active"
                && (type == nil || recording.type == type)
                && (bucket == nil || recording.projectID == bucket)
                && (creator == nil || recording.creatorID == creator)
                && (recording.title.localizedCaseInsensitiveContains(query)
                    || recording.text.localizedCaseInsensitiveContains(query))
        }
        let render = renderer(data)
        return .list(found.sorted { $0.createdAt > $1.createdAt }) { recording in
            Templates.searchResult.merging(recording.render(render).objectValue ?? [:])
        }
    }

    /// Recordings of one `type` (required) across projects or those in `bucket` (ids, comma
    /// separated), with `status` (active by default), sorted by `sort` (`created_at` or
    /// `updated_at`) in `direction` (`desc` by default).
    func listRecordings() throws -> APIReply {
        guard let type = request.queryValue("type"), !type.isEmpty else {
            throw APIFailure(400, "Name the recordings' type: type=Todo, Message, Kanban::Card…")
        }
        let data = store.snapshot()
        let buckets = request.queryValue("bucket").map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        let status = request.queryValue("status") ?? "active"
        let byUpdate = request.queryValue("sort") == "updated_at"
        let ascending = request.queryValue("direction") == "asc"
        let recordings = data.allRecordingSources().filter { recording in
            recording.type == type && recording.status == status
                && buckets.map { $0.contains(recording.projectID) } ?? true
        }
        let sorted = recordings.sorted { first, second in
            let (a, b) = byUpdate ? (first.updatedAt, second.updatedAt) : (first.createdAt, second.createdAt)
            return ascending ? a < b : a > b
        }
        let render = renderer(data)
        return .list(sorted) { $0.render(render) }
    }
}

import Foundation
import HTTPCore

/// Search and the account-wide recordings list, over every recording the account really holds.
extension Call {
    /// Active recordings whose title or text holds `q` (ignoring case), newest first; `type`,
    /// `bucket_id` and `creator_id` narrow it.
    func search() throws -> APIReply {
        guard let words = query.first("q")?.trimmingCharacters(in: .whitespaces), !words.isEmpty else {
            throw APIFailure(400, "Search needs a query: q=…")
        }
        let data = store.snapshot()
        let type = query.first("type")
        let bucket = query.int("bucket_id")
        let creator = query.int("creator_id")
        let found = data.records.filter { recording in
            recording.kind.isRecording && recording.status == "active"
                && (type == nil || recording.kind.type == type)
                && (bucket == nil || recording.projectID == bucket)
                && (creator == nil || recording.creatorID == creator)
                && (recording.title.localizedCaseInsensitiveContains(words)
                    || recording.text.localizedCaseInsensitiveContains(words))
        }
        let render = renderer(data)
        return .list(found.sorted { $0.createdAt > $1.createdAt }) { recording in
            Templates.searchResult.merging(render.record(recording).objectValue ?? [:])
        }
    }

    /// Recordings of one `type` (required) across projects or those in `bucket` (ids, comma separated), with `status`
    /// (active by default), sorted by `sort` (`created_at` or `updated_at`) in `direction` (`desc` by default).
    func recordings() throws -> APIReply {
        guard let type = query.first("type"), !type.isEmpty else {
            throw APIFailure(400, "Name the recordings' type: type=Todo, Message, Kanban::Card…")
        }
        let data = store.snapshot()
        let buckets = query.first("bucket").map { Set($0.split(separator: ",").compactMap { Int($0) }) }
        let status = query.first("status") ?? "active"
        let byUpdate = query.first("sort") == "updated_at"
        let ascending = query.first("direction") == "asc"
        let recordings = data.records.filter { recording in
            recording.kind.isRecording && recording.kind.type == type && recording.status == status
                && buckets.map { $0.contains(recording.projectID) } ?? true
        }
        let sorted = recordings.sorted { first, second in
            let (a, b) = byUpdate ? (first.updatedAt, second.updatedAt) : (first.createdAt, second.createdAt)
            return ascending ? a < b : a > b
        }
        let render = renderer(data)
        return .list(sorted) { render.record($0) }
    }
}

import Foundation
import HTTPCore

/// Search and the account-wide recordings list, over every recording the account really holds.
extension Call {
    /// Active recordings outside trashed projects with `q` in their title or text (any case), newest first;
    /// `type_names[]`, `bucket_ids[]` and `creator_ids[]` (or their singulars) and `exclude_chat` narrow it.
    func search() throws -> APIReply {
        guard let words = query.first("q")?.trimmingCharacters(in: .whitespaces), !words.isEmpty else {
            throw APIFailure(400, "Search needs a query: q=…")
        }
        let data = store.snapshot()
        func wanted(_ name: String, _ list: String) -> Set<String> { Set(query.all(name) + query.all(list)) }
        let types = wanted("type", "type_names[]")
        let buckets = wanted("bucket_id", "bucket_ids[]")
        let creators = wanted("creator_id", "creator_ids[]")
        let trashed = Set(data.records.filter { $0.kind == .project && $0.status == "trashed" }.map(\.id))
        let found = data.records.filter { recording in
            recording.kind.isRecording && recording.status == "active" && !trashed.contains(recording.projectID)
                && (types.isEmpty || types.contains(recording.kind.type))
                && (buckets.isEmpty || buckets.contains(String(recording.projectID)))
                && (creators.isEmpty || creators.contains(String(recording.creatorID)))
                && !(recording.kind == .campfireLine && query.first("exclude_chat") == "true")
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
        let stamp: (Record) -> String = query.first("sort") == "updated_at" ? \.updatedAt : \.createdAt
        let ascending = query.first("direction") == "asc"
        let recordings = data.records.filter { recording in
            recording.kind.isRecording && recording.kind.type == type && recording.status == status
                && buckets.map { $0.contains(recording.projectID) } ?? true
        }
        let sorted = recordings.sorted { ascending ? stamp($0) < stamp($1) : stamp($0) > stamp($1) }
        let render = renderer(data)
        return .list(sorted) { render.record($0) }
    }
}

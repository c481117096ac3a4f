import Foundation
import HTTPCore

extension MarkbookClient {
    /// `markbooklist`: the school's markbooks.
    ///
    /// - Throws: ``HTTPCore/APIError``.
    public func markbookList() async throws -> [MarkbookSummary] {
        try await send(.markbookList, [:]) { reader, _ in try MarkbookDecoding.summaries(reader) }
    }

    /// `userlist`: the school's users.
    ///
    /// - Throws: ``HTTPCore/APIError``.
    public func userList() async throws -> [MarkbookUser] {
        try await send(.userList, [:]) { reader, _ in try MarkbookDecoding.users(reader) }
    }

    /// `getmarkbook`: one markbook with results joined.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getMarkbook(key: Int) async throws -> MarkbookSheet {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getMarkbook, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.sheet(reader, alternate: false)
        }
    }

    /// `getmarkbookalt`: one markbook from the flat-list format, results joined the same way.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getMarkbookAlt(key: Int) async throws -> MarkbookSheet {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getMarkbookAlt, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.sheet(reader, alternate: true)
        }
    }

    /// `getoutcomes`: one markbook's outcomes and levels.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getOutcomes(key: Int) async throws -> MarkbookOutcomes {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getOutcomes, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.outcomes(reader, markbookKey: key, alternate: false)
        }
    }

    /// `getoutcomesalt`: one markbook's outcomes from the flat-list format.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getOutcomesAlt(key: Int) async throws -> MarkbookOutcomes {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getOutcomesAlt, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.outcomes(reader, markbookKey: key, alternate: true)
        }
    }
}

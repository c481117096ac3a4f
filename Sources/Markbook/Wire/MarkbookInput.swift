import Foundation
import HTTPCore

/// Checks on what a caller passes, made before any request, so bad input is a `usage` error and
/// never a half-understood write on the server.
enum MarkbookInput {
    /// The shortest `matching` text `schedulebackup` accepts.
    static let minimumMatchingLength = 2

    static func requireKey(_ key: Int, _ name: String) throws {
        guard key > 0 else {
            throw APIError.usage("\(name) must be a positive key, not \(key).")
        }
    }

    /// Rejects empty text (unless allowed), control characters and line breaks, which no name,
    /// id or result contains and which would only corrupt the markbook.
    ///
    /// Invisible format characters are kept: names need them (a zero-width non-joiner in a
    /// Persian name, a soft hyphen), and the API stores them.
    static func requireText(_ text: String, _ name: String, allowEmpty: Bool = false) throws {
        if !allowEmpty, text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw APIError.usage("\(name) must not be empty.")
        }
        let breaking: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
        if text.unicodeScalars.contains(where: { breaking.contains($0.properties.generalCategory) }) {
            throw APIError.usage("\(name) must not contain line breaks or other control characters.")
        }
    }

    /// Checks the keys and school id that name one student in a write; returns them as the
    /// request's `key`, `studentkey` and `sid`.
    static func student(markbookKey: Int, studentKey: Int, sid: String) throws -> [String: String] {
        try requireKey(markbookKey, "markbookKey")
        try requireKey(studentKey, "studentKey")
        try requireText(sid, "sid")
        return ["key": String(markbookKey), "studentkey": String(studentKey), "sid": sid]
    }

    /// Checks the names a student is created or updated with; returns them, with the gender, as
    /// the request's `family`, `given`, `preferred` and `gender`.
    static func studentNames(
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender
    ) throws -> [String: String] {
        try requireText(familyName, "familyName")
        try requireText(givenName, "givenName")
        try requireText(preferredName, "preferredName", allowEmpty: true)
        return ["family": familyName, "given": givenName, "preferred": preferredName, "gender": gender.rawValue]
    }

    /// How class names are compared for uniqueness: trimmed and case-insensitive.
    static func uniquenessKey(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

import Foundation
public import HTTPCore

/// How the API's `status` strings become errors.
///
/// Every Markbook response is an HTTP 200 whose `status` is `OKAY` or `ERROR:` and a reason. The
/// reasons are free text; the documented ones and the families below map to ``HTTPCore/APIError``
/// codes, and anything else is `api_error`. The raw status is always kept in
/// ``HTTPCore/APIError/Details/rawStatus``.
///
/// | status | code | exit |
/// |---|---|---|
/// | `ERROR:invalid credentials`, any reason mentioning a session or credentials | `auth_required` | 3 |
/// | `ERROR:invalid student`, `invalid markbook`, `invalid class`, `invalid task`, `invalid user`, `invalid outcome` (also `unknown …`, `no such …`, `… not found`, and the key names `studentkey`, `sid`, `key`, `classkey`, `taskkey`, `ownerkey`) | `not_found` | 2 |
/// | `ERROR:missing …`, `ERROR:invalid …` for any other field (`gender`, `matching`, `jsondata`, `result`, …), `ERROR:duplicate …`, reasons with `already`, `unique`, `required`, `must`, `too short`, `too long` | `validation` | 9 |
/// | `ERROR:pending`, `ERROR:no backup` | a ``BackupStatus`` from ``MarkbookClient/getBackupURL()``; `api_error` from any other action | 7 |
/// | `ERROR:invalid action` and anything else | `api_error` | 7 |
public enum MarkbookStatus {
    /// The status of every successful response.
    public static let okay = "OKAY"
    /// The prefix of every failure.
    public static let errorPrefix = "ERROR:"
    /// The status the API uses for a rejected login, API key or session.
    public static let invalidCredentials = "ERROR:invalid credentials"

    /// Names of the things a write refers to: an `invalid <name>` status means the referenced
    /// thing does not exist.
    static let entities: Set<String> = [
        "student", "studentkey", "sid", "studentid", "markbook", "key", "markbookkey", "class", "classkey", "task",
        "taskkey", "user", "owner", "ownerkey", "outcome",
    ]

    /// The error code a status maps to; `nil` for `OKAY`.
    ///
    /// `ERROR:pending` and `ERROR:no backup` map to `api_error` here: only
    /// ``MarkbookClient/getBackupURL()`` reads them as a ``BackupStatus``.
    public static func errorCode(for status: String) -> APIError.Code? {
        guard status != okay else { return nil }
        let reason = reasonText(status).lowercased()
        if isInvalidSession(status) { return .authRequired }
        if reason == "invalid action" { return .apiError }
        let words = reason.split(whereSeparator: { $0 == " " || $0 == ":" }).map(String.init)
        if words.count >= 2, ["invalid", "unknown"].contains(words[0]), entities.contains(words[1]) {
            return .notFound
        }
        if words.count >= 3, words[0] == "no", words[1] == "such", entities.contains(words[2]) { return .notFound }
        if reason.hasSuffix("not found"), let first = words.first, entities.contains(first) { return .notFound }
        let validationMarkers = ["already", "unique", "required", "must", "too short", "too long"]
        if ["missing", "invalid", "duplicate"].contains(words.first ?? "")
            || validationMarkers.contains(where: { reason.contains($0) })
        {
            return .validation
        }
        return .apiError
    }

    /// Whether a status means the session, API key or login was rejected, which the client
    /// answers by logging in again once and replaying the call.
    public static func isInvalidSession(_ status: String) -> Bool {
        guard status.hasPrefix(errorPrefix) else { return false }
        let reason = reasonText(status).lowercased()
        return reason.contains("credential") || reason.contains("session")
    }

    /// The text after `ERROR:`, trimmed.
    static func reasonText(_ status: String) -> String {
        let reason = status.hasPrefix(errorPrefix) ? status.dropFirst(errorPrefix.count) : Substring(status)
        return reason.trimmingCharacters(in: .whitespaces)
    }

    /// The error for a failed status of `action`, keeping the raw status.
    static func error(
        for status: String,
        action: MarkbookAction,
        scrub: (String) -> String
    ) -> APIError {
        let shown = scrub(status)
        let code = errorCode(for: status) ?? .apiError
        var message = "Markbook answered \(action.rawValue) with \"\(shown)\"."
        let hint: String?
        switch code {
        case .authRequired:
            message = "Markbook rejected the credentials or session for \(action.rawValue) (\"\(shown)\")."
            hint =
                "Check the API key, user name and password; the user needs the \"Allow user administration\" permission."
        case .notFound:
            hint =
                "Check the keys: markbook keys come from markbookList(), student, task and class keys from getMarkbook(key:)."
        case .validation:
            hint = "Check the values sent; nothing was changed."
        default:
            hint = nil
        }
        // No HTTP status: the API answers every outcome with a 200, so "HTTP 200" next to a
        // failure would only mislead; the status itself is in rawStatus.
        return APIError(code, APIError.Details(message: message, hint: hint, rawStatus: shown))
    }
}

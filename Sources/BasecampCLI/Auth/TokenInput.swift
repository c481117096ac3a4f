import ArgumentParser
import Foundation
import HTTPCore

/// What `basecamp auth login --with-token` reads from stdin: a bare access token, or a JSON
/// object in the shape of an OAuth 2 token response, so a token endpoint's answer can be piped
/// in as it is:
///
/// ```json
/// {"access_token": "…", "refresh_token": "…", "expires_in": 1209600}
/// ```
///
/// `access_token` is required; `refresh_token` is optional; the expiry is either `expires_in`
/// (seconds from now) or `expires_at` (an ISO 8601 time), not both; a `token_type`, when
/// present, must be `Bearer`. `scope` and `resource` are kept with the tokens: a token bound to
/// one account (`resource`, e.g. `urn:bc:account:123`) can only be refreshed by sending it back.
/// Other members are ignored. No message ever repeats what was read.
enum TokenInput {
    /// The most stdin may hold: a token response is well under a kilobyte.
    static let maximumBytes = 64 * 1024

    /// The credentials in `data`, with an `expires_in` counted from `now`.
    ///
    /// - Throws: `ValidationError` (exit 64) saying what is wrong with the input.
    static func credentials(from data: Data, now: Date) throws -> TokenCredentials {
        guard data.count <= maximumBytes else {
            throw failure("stdin holds more than \(maximumBytes / 1024) KiB, which is no token.")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw failure("stdin is not UTF-8 text.") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw failure("stdin is empty: pipe the access token in, or a JSON object holding it.")
        }
        if trimmed.hasPrefix("{") { return try fromJSON(Data(trimmed.utf8), now: now) }
        guard isToken(trimmed) else {
            throw failure(
                "stdin is neither one access token (visible ASCII characters, no spaces or quotes) nor a JSON object."
            )
        }
        return TokenCredentials(accessToken: trimmed)
    }

    /// Whether `text` can be sent as a bearer token: up to 4,096 visible ASCII characters other
    /// than quotes and backslashes. That is wider than RFC 6750's `b64token`, since Launchpad's
    /// tokens are signed Rails messages (`BAh…=--` and a hex digest) with `=` before their end.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 4096
            && text.utf8.allSatisfy { (0x21...0x7E).contains($0) && !"\"'\\".utf8.contains($0) }
    }

    private static func fromJSON(_ data: Data, now: Date) throws -> TokenCredentials {
        guard case .object(let object)? = try? JSONValue(parsing: data) else {
            throw failure("stdin starts like JSON but is not a JSON object.")
        }
        guard case .string(let access)? = object["access_token"], isToken(access) else {
            throw failure("The JSON on stdin needs \"access_token\": a token string.")
        }
        switch object["token_type"] {
        case nil, .null?:
            break
        case .string(let type)? where type.lowercased() == "bearer":
            break
        default:
            throw failure("\"token_type\" on stdin must be Bearer, the only kind basecamp sends.")
        }
        var refresh: String?
        switch object["refresh_token"] {
        case nil, .null?:
            refresh = nil
        case .string(let text)? where isToken(text):
            refresh = text
        default:
            throw failure("\"refresh_token\" on stdin must be a token string.")
        }
        return TokenCredentials(
            accessToken: access,
            refreshToken: refresh,
            expiresAt: try expiry(in: object, now: now),
            scope: try text(object, "scope"),
            resource: try text(object, "resource")
        )
    }

    /// An optional member that must be a non-empty string when present.
    private static func text(_ object: [String: JSONValue], _ name: String) throws -> String? {
        switch object[name] {
        case nil, .null?:
            return nil
        case .string(let text)? where !text.isEmpty:
            return text
        default:
            throw failure("\"\(name)\" on stdin must be a non-empty string.")
        }
    }

    private static func expiry(in object: [String: JSONValue], now: Date) throws -> Date? {
        let seconds = object["expires_in"].flatMap { $0 == .null ? nil : $0 }
        let time = object["expires_at"].flatMap { $0 == .null ? nil : $0 }
        switch (seconds, time) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw failure("Give \"expires_in\" or \"expires_at\" on stdin, not both.")
        case (let seconds?, nil):
            let count: Double?
            switch seconds {
            case .integer(let value): count = Double(value)
            case .number(let value): count = value
            default: count = nil
            }
            guard let count, count > 0, count <= 315_360_000 else {
                throw failure("\"expires_in\" on stdin must be a number of seconds, more than 0.")
            }
            return now.addingTimeInterval(count.rounded(.down))
        case (nil, let time?):
            guard case .string(let text) = time, let date = Date(iso8601Timestamp: text) else {
                throw failure("\"expires_at\" on stdin must be an ISO 8601 time, e.g. 2026-12-01T10:00:00Z.")
            }
            return date
        }
    }

    private static func failure(_ message: String) -> ValidationError {
        ValidationError("--with-token: \(message)")
    }
}

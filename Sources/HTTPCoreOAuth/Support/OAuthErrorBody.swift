import Foundation
import HTTPCore
import HTTPTypes

/// The `error` and `error_description` of an OAuth error answer or redirect, made safe to show.
struct OAuthErrorBody: Sendable {
    /// The error code, when the server sent a well-formed one.
    var code: OAuthErrorCode?
    /// The description, with control characters removed, every secret the request carried
    /// replaced, and cut to 200 characters.
    var description: String?

    /// Reads a JSON error body.
    init(body: Data, secrets: [String]) {
        let value = try? JSONValue(parsing: body)
        self.init(
            code: value?["error"]?.stringValue,
            description: value?["error_description"]?.stringValue,
            secrets: secrets
        )
    }

    /// Reads the parameters of an error redirect.
    init(code: String?, description: String?, secrets: [String]) {
        self.code = code.flatMap(OAuthErrorCode.init(validating:))
        self.description = description.flatMap { Self.sanitized($0, secrets: secrets) }
    }

    /// `" (code: description)"`-style text for a message, or empty.
    var summary: String {
        switch (code, description) {
        case (let code?, let description?): return " (\(code.rawValue): \(description))"
        case (let code?, nil): return " (\(code.rawValue))"
        case (nil, let description?): return " (\(description))"
        case (nil, nil): return ""
        }
    }

    private static func sanitized(_ text: String, secrets: [String]) -> String? {
        let printable = String(
            text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init)
        )
        let scrubbed = Redactor.scrub(printable, removing: secrets).trimmingCharacters(in: .whitespaces)
        guard !scrubbed.isEmpty else { return nil }
        return scrubbed.count > 200 ? String(scrubbed.prefix(199)) + "…" : scrubbed
    }
}

extension APIError.Details {
    /// Details carrying `code` as the OAuth error code.
    mutating func setOAuthCode(_ code: OAuthErrorCode?) {
        rawStatus = code.map { OAuthErrorCode.rawStatusPrefix + $0.rawValue }
    }
}

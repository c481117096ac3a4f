public import Foundation
import HTTPCore

/// The `User-Agent` every Basecamp request carries: your app's name and a contact, as
/// Basecamp requires (`MyApp (me@example.com)` or `MyApp (https://example.com/support)`).
///
/// Basecamp identifies integrations by it and may block requests without a way to reach their
/// author, so ``BasecampClient`` and the sign-in presets refuse one that names no contact.
///
/// ```swift
/// let agent = try BasecampUserAgent(app: "Acme Reports", contact: "ops@acme.example")
/// let basecamp = try BasecampClient(accessToken: token, userAgent: agent.value)
/// ```
public struct BasecampUserAgent: Sendable, Hashable, CustomStringConvertible {
    /// The header value.
    public let value: String

    /// The environment variable ``fromEnvironment(_:)`` reads.
    public static let environmentVariable = "BASECAMP_USER_AGENT"

    /// Checks a complete header value.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when it is empty, longer than 512 characters,
    ///   holds control characters, names no contact (an email address or an http(s) URL), or
    ///   names nothing besides the contact.
    public init(_ value: String) throws {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw Self.invalid("The User-Agent is empty.") }
        guard trimmed.count <= 512 else { throw Self.invalid("The User-Agent is longer than 512 characters.") }
        guard !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw Self.invalid("The User-Agent contains control characters.")
        }
        guard let contact = Self.contact(in: trimmed) else {
            throw Self.invalid("The User-Agent \"\(trimmed.prefix(80))\" names no contact.")
        }
        let rest = trimmed.replacingOccurrences(of: contact, with: "")
        guard rest.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw Self.invalid("The User-Agent names a contact but no app.")
        }
        self.value = trimmed
    }

    /// `"app (contact)"`, checked.
    ///
    /// - Throws: As ``init(_:)``.
    public init(app: String, contact: String) throws {
        try self.init("\(app.trimmingCharacters(in: .whitespaces)) (\(contact.trimmingCharacters(in: .whitespaces)))")
    }

    /// `BASECAMP_USER_AGENT` from `environment`, checked; `nil` when it is unset or empty.
    ///
    /// - Throws: As ``init(_:)``, naming the variable.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> BasecampUserAgent? {
        guard let text = environment[environmentVariable], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            return nil
        }
        do {
            return try BasecampUserAgent(text)
        } catch let error as APIError {
            var details = error.details
            details.message = "\(environmentVariable): \(error.message)"
            throw APIError.usage(details)
        }
    }

    /// The header value.
    public var description: String { value }

    /// The agent of a command-line tool: `override` (the user's `BASECAMP_USER_AGENT`) when
    /// given, else `tool` itself when it names a contact, else `tool` with `contact` (the
    /// signed-in user's email, say) added: `basecamp/1.0 (swift-api-sdks)` with
    /// `me@example.com` becomes `basecamp/1.0 (swift-api-sdks; me@example.com)`.
    ///
    /// - Throws: As ``init(_:)``, for an `override` that names no contact, or when neither
    ///   `tool` nor `contact` names one.
    public static func forTool(_ tool: String, contact: String?, override: String? = nil) throws -> BasecampUserAgent {
        if let override, !override.trimmingCharacters(in: .whitespaces).isEmpty {
            return try fromEnvironment([environmentVariable: override]) ?? BasecampUserAgent(override)
        }
        if let named = try? BasecampUserAgent(tool) { return named }
        let name = tool.trimmingCharacters(in: .whitespaces)
        let contact = contact?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !name.isEmpty, !contact.isEmpty else {
            throw invalid("The User-Agent \"\(name.prefix(80))\" names no contact.")
        }
        // A trailing comment ("(swift-api-sdks)") takes the contact as one more entry.
        if name.hasSuffix(")"), name.contains("(") {
            return try BasecampUserAgent("\(name.dropLast()); \(contact))")
        }
        return try BasecampUserAgent(app: name, contact: contact)
    }

    /// The first email address or http(s) URL in `text`.
    static func contact(in text: String) -> String? {
        let separators = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "()<>[];,\""))
        for found in text.components(separatedBy: separators) where !found.isEmpty {
            let word = found.hasPrefix("+") ? String(found.dropFirst()) : found
            let lowered = word.lowercased()
            if lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
                let host = URL(string: word)?.host, host.contains(".") || host == "localhost"
            {
                return word
            }
            let parts = word.split(separator: "@", omittingEmptySubsequences: false)
            if parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
                !parts[1].hasSuffix(".")
            {
                return word
            }
        }
        return nil
    }

    private static func invalid(_ message: String) -> APIError {
        APIError.usage(
            APIError.Details(
                message: message,
                hint: "Basecamp requires your app's name and a contact, e.g. \"MyApp (me@example.com)\"."
            )
        )
    }
}

import Foundation

extension Redactor {
    /// The OAuth 2 parameter names whose values are secrets, in URLs (an authorization
    /// response's `code`), forms (a token request) and bodies: `access_token`, `refresh_token`,
    /// `id_token`, `code`, `code_verifier`, `client_secret`, `device_code`, `assertion`,
    /// `client_assertion` and `password`.
    ///
    /// `state` is not among them: it proves nothing once the redirect is checked, and showing it
    /// helps to match a browser's callback to the sign-in that asked for it.
    public static let oauthSecretParameters: Set<String> = [
        "access_token", "refresh_token", "id_token", "code", "code_verifier", "client_secret",
        "device_code", "assertion", "client_assertion", "password",
    ]

    /// A copy that also hides every ``oauthSecretParameters`` name in URLs and forms.
    public func addingOAuthSecrets() -> Redactor {
        var redactor = self
        for name in Self.oauthSecretParameters { redactor.addSecretQueryParameter(name) }
        return redactor
    }

    /// `text` with every occurrence of each of `secrets` replaced by ``placeholder``.
    ///
    /// For text a server wrote (an OAuth `error_description`), which may quote a code or token
    /// it was sent. Secrets shorter than 4 characters are left alone: replacing them would
    /// garble ordinary words without protecting anything.
    public static func scrub(_ text: String, removing secrets: some Sequence<String>) -> String {
        scrub(text, spellings: spellings(ofEach: secrets))
    }

    /// `text` with each of `spellings` (from ``spellings(ofEach:)``) replaced by ``placeholder``.
    package static func scrub(_ text: String, spellings: [String]) -> String {
        var scrubbed = text
        for secret in spellings where scrubbed.contains(secret) {
            scrubbed = scrubbed.replacingOccurrences(of: secret, with: placeholder)
        }
        return scrubbed
    }

    /// `body` with every occurrence of each of `secrets` replaced by ``placeholder``, as
    /// ``scrub(_:removing:)`` does for text: for a body read before it is shown.
    static func scrub(_ body: Data, removing secrets: some Sequence<String>) -> Data {
        var scrubbed = body
        let replacement = Data(placeholder.utf8)
        for secret in spellings(ofEach: secrets) {
            let needle = Data(secret.utf8)
            var from = scrubbed.startIndex
            while let found = scrubbed.range(of: needle, in: from..<scrubbed.endIndex) {
                scrubbed.replaceSubrange(found, with: replacement)
                from = found.lowerBound + replacement.count
            }
        }
        return scrubbed
    }

    /// Every spelling of each of `secrets` that is 4 characters or longer, longest first, so a
    /// secret that contains another is replaced whole.
    package static func spellings(ofEach secrets: some Sequence<String>) -> [String] {
        Set(secrets.filter { $0.count >= 4 }.flatMap(spellings(of:))).sorted { $0.count > $1.count }
    }

    /// `secret` as text a server echoes may hold it: as it is, and percent-encoded as in a URL
    /// or a form (a space as `%20` or `+`), so `pw-Secr3t!` is found as `pw-Secr3t%21` too.
    package static func spellings(of secret: String) -> Set<String> {
        [secret, PercentEncoding.encode(secret), PercentEncoding.encode(secret, spaceAsPlus: true)]
    }
}

import Foundation
public import HTTPTypes

/// Hides secrets in everything HTTPCore shows: hook payloads, error descriptions, logs.
///
/// Credential headers (`Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`,
/// `X-CSRF-Token`), the query parameters that carry credentials by convention
/// (``standardSecretQueryParameters``: OAuth tokens and secrets, the signatures of presigned
/// storage URLs), any header or query parameter registered as secret, and the password of a
/// URL's user info are replaced by ``placeholder``. Names are compared case-insensitively.
public struct Redactor: Sendable, Hashable {
    /// What a secret is replaced with.
    public static let placeholder = "[REDACTED]"

    /// Query parameters hidden by every redactor: OAuth's tokens and client secret, and the
    /// credentials and signatures of presigned AWS S3 and Google Cloud Storage URLs, which a
    /// download's redirect may lead to (the names OpenTelemetry's `url.full` also hides).
    public static let standardSecretQueryParameters: Set<String> = [
        "access_token", "refresh_token", "id_token", "client_secret",
        "awsaccesskeyid", "signature", "sig", "x-amz-signature", "x-amz-credential", "x-amz-security-token",
        "x-goog-signature", "x-goog-credential",
    ]

    /// Header names whose values are never shown.
    public private(set) var secretHeaders: Set<HTTPField.Name>
    /// Query parameter names (lowercased) whose values are never shown.
    public private(set) var secretQueryParameters: Set<String>

    /// Creates a redactor with the standard credential headers plus the given names.
    public init(secretHeaders: [HTTPField.Name] = [], secretQueryParameters: [String] = []) {
        self.secretHeaders = Set(
            [.authorization, .cookie, .setCookie, .proxyAuthorization, .xCSRFToken]
                + secretHeaders
        )
        self.secretQueryParameters = Self.standardSecretQueryParameters.union(
            secretQueryParameters.map { $0.lowercased() }
        )
    }

    /// Registers another secret header.
    public mutating func addSecretHeader(_ name: HTTPField.Name) {
        secretHeaders.insert(name)
    }

    /// Registers another secret query parameter (or form field) name.
    public mutating func addSecretQueryParameter(_ name: String) {
        secretQueryParameters.insert(name.lowercased())
    }

    /// A copy with the other redactor's secrets added.
    public func merging(_ other: Redactor) -> Redactor {
        var merged = self
        merged.secretHeaders.formUnion(other.secretHeaders)
        merged.secretQueryParameters.formUnion(other.secretQueryParameters)
        return merged
    }

    /// The URL as text with secret query values and any user-info password replaced.
    public func redact(_ url: URL) -> String {
        redact(urlString: url.absoluteString)
    }

    /// The URL text with secret query values and any user-info password replaced.
    ///
    /// Works on the text itself, so even a string that is not a valid URL is redacted.
    public func redact(urlString: String) -> String {
        // Nearly every URL has neither user info nor a secret query parameter, and comes back
        // as it is.
        let mayHaveUserInfo = urlString.utf8.contains(UInt8(ascii: "@"))
        let mayHaveSecretQuery = !secretQueryParameters.isEmpty && urlString.utf8.contains(UInt8(ascii: "?"))
        guard mayHaveUserInfo || mayHaveSecretQuery else { return urlString }
        var text = urlString
        if let schemeEnd = text.range(of: "://"), let at = text[schemeEnd.upperBound...].firstIndex(of: "@") {
            let userInfo = text[schemeEnd.upperBound..<at]
            if !userInfo.contains("/"), let colon = userInfo.firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: Self.placeholder)
            }
        }
        guard !secretQueryParameters.isEmpty, let queryStart = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[queryStart...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: queryStart)..<fragmentStart]
        let redactedQuery = redact(formEncoded: String(query))
        return String(text[...queryStart]) + redactedQuery + String(text[fragmentStart...])
    }

    /// `name=value&…` text (a query or a form body) with secret values replaced.
    public func redact(formEncoded text: String) -> String {
        guard !secretQueryParameters.isEmpty else { return text }
        return text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = Self.name(of: pair)
            return isSecret(name) ? "\(name)=\(Self.placeholder)" : String(pair)
        }
        .joined(separator: "&")
    }

    /// Whether `name=value&…` text (a query or a form body) has a field whose value is secret.
    package func containsSecret(formEncoded text: String) -> Bool {
        !secretQueryParameters.isEmpty && text.split(separator: "&").contains { isSecret(Self.name(of: $0)) }
    }

    private static func name(of pair: Substring) -> String {
        pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// Whether the query or form field named `encodedName` (as sent, percent-encoded) holds a secret.
    func isSecret(_ encodedName: String) -> Bool {
        secretQueryParameters.contains((encodedName.removingPercentEncoding ?? encodedName).lowercased())
    }

    /// The fields with every secret header's value replaced, and the secrets in the URLs that
    /// `Location`, `Content-Location`, `Refresh` and `Link` carry (a redirect to a presigned
    /// storage URL, a next page with an `access_token`) replaced as ``redact(urlString:)`` does.
    public func redact(_ fields: HTTPFields) -> HTTPFields {
        // Most fields hold no secret: those come back as they are, without a copy.
        var redacted = fields
        for index in fields.indices {
            let field = fields[index]
            if secretHeaders.contains(field.name) {
                redacted[index] = HTTPField(name: field.name, value: Self.placeholder)
            } else if Self.urlFields.contains(field.name) {
                let value = field.name == .link ? redact(linkTargetsIn: field.value) : redact(urlString: field.value)
                if value != field.value { redacted[index] = HTTPField(name: field.name, value: value) }
            }
        }
        return redacted
    }

    private static let urlFields: Set<HTTPField.Name> = [.location, .contentLocation, .refresh, .link]

    /// A `Link` value with each target between `<` and `>` redacted; text after a `<` that is
    /// never closed is redacted as one URL.
    private func redact(linkTargetsIn value: String) -> String {
        var result = ""
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<") {
            let target = rest[rest.index(after: open)...]
            guard let close = target.firstIndex(of: ">") else {
                return result + rest[...open] + redact(urlString: String(target))
            }
            result += rest[...open] + redact(urlString: String(target[..<close]))
            rest = target[close...]
        }
        return result + rest
    }

    /// A one-line description of a request (`GET https://…`) with secrets replaced.
    public func describe(_ request: HTTPRequest) -> String {
        let url = request.url.map(redact) ?? "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")"
        return "\(request.method.rawValue) \(url)"
    }
}

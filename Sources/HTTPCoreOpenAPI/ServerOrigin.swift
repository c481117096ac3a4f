import Foundation
import HTTPCore
import HTTPTypes

/// Places a generated client's requests (a path relative to its server URL) on the HTTPCore
/// client's origin, and refuses a server URL on any other origin, so the client's credentials go
/// only where it was configured to send them.
struct ServerOrigin: Sendable {
    private let scheme: String?
    private let authority: String?
    /// Hides the credentials a refused server URL may carry in the error that names it.
    private let redactor: Redactor
    /// The last server URL seen and its path without a trailing slash: a generated client sends
    /// every request with the same one, so it is taken apart once.
    private let last = Locked<(url: URL, prefix: String)?>(nil)

    init(client: HTTPCore.Client) {
        let base = HTTPRequest(method: .get, url: client.baseURL)
        scheme = base.scheme?.lowercased()
        authority = base.authority?.lowercased()
        redactor = client.redactor
    }

    /// `request` with the client's scheme and authority and the server URL's path before its own.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` when `baseURL` is on another origin.
    func target(for request: HTTPRequest, baseURL: URL) throws -> HTTPRequest {
        var target = request
        target.scheme = scheme
        target.authority = authority
        target.path = try prefix(of: baseURL) + (request.path ?? "/")
        return target
    }

    private func prefix(of baseURL: URL) throws -> String {
        if let cached = last.withLock({ $0 }), cached.url == baseURL { return cached.prefix }
        let parts = HTTPRequest(method: .get, url: baseURL)
        guard parts.scheme?.lowercased() == scheme, parts.authority?.lowercased() == authority else {
            throw APIError.usage(
                "The generated client's server URL \(redactor.redact(baseURL)) is not on the HTTPCore client's origin.",
                hint: "Give the generated client the same scheme, host and port as the HTTPCore client's base URL."
            )
        }
        var prefix = parts.path ?? ""
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let result = prefix
        last.withLock { $0 = (baseURL, result) }
        return result
    }
}

import Foundation

/// Decides whether a walk may follow a `next` link: same origin, no https-to-http downgrade, no
/// page twice. Shared by a walk and its fetches, which check a page's link as soon as the
/// page's head arrives, so it keeps the visited pages under a lock.
package final class LinkGuard: Sendable {
    private let origin: Origin?
    private let redactor: Redactor
    private let visited: Locked<Set<String>>

    /// A guard for a walk starting at `first` (`nil` when the endpoint makes no valid URL).
    package init(first: URL?, redactor: Redactor) {
        self.origin = first.map(Origin.init)
        self.redactor = redactor
        self.visited = Locked(first.map { [Self.visitKey($0)] } ?? [])
    }

    /// Records that `answered` was fetched, then lets the walk go on to `next`, recording it
    /// too, or refuses it.
    ///
    /// - Throws: an `api_error` when `next` leaves the origin, downgrades to http, is not
    ///   http(s), or was fetched before.
    package func admit(_ next: URL, after answered: URL) throws(APIError) {
        let problem = problem(with: next)
        let answeredKey = Self.visitKey(answered)
        let nextKey = problem == nil ? Self.visitKey(next) : nil
        let fresh = visited.withLock { visited -> Bool in
            visited.insert(answeredKey)
            guard let nextKey else { return true }
            return visited.insert(nextKey).inserted
        }
        if let problem { throw Self.refusal(problem) }
        guard fresh else {
            throw Self.refusal(
                "The server's next-page link \(redactor.redact(next)) points to a page already fetched; stopping instead of looping."
            )
        }
    }

    private func problem(with next: URL) -> String? {
        let shown = redactor.redact(next)
        let target = Origin(next)
        guard target.scheme == "https" || target.scheme == "http" else {
            return "The server's next-page link \(shown) is not an http(s) URL; stopping the list here."
        }
        guard let origin else { return nil }
        if origin.scheme == "https", target.scheme == "http" {
            return "The server's next-page link \(shown) downgrades https to http; refusing to follow it."
        }
        guard target == origin else {
            return
                "The server's next-page link \(shown) points to another origin; refusing to send the request there."
        }
        return nil
    }

    private static func refusal(_ message: String) -> APIError {
        .apiError(
            APIError.Details(
                message: message,
                hint:
                    "The list's links are inconsistent; report it to the API's maintainers, or fetch pages one by one."
            )
        )
    }

    private static func visitKey(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }
}

/// Scheme, host and port, as compared for "same origin" (RFC 6454).
struct Origin: Hashable {
    var scheme: String
    var host: String
    var port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        switch (scheme, url.port) {
        case ("https", 443?), ("http", 80?): port = nil
        default: port = url.port
        }
    }
}

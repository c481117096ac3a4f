/// The pages a loopback redirect listener shows in the browser.
public struct LoopbackPages: Sendable, Hashable {
    /// After a successful callback.
    public var signedIn: String
    /// After a callback that reports an error (the user declined, the server failed).
    public var failed: String
    /// For a request that is not the sign-in's callback.
    public var refused: String
    /// For any other path.
    public var notFound: String

    /// Creates pages; each is a short line of text, shown as the body of a plain HTML page.
    public init(
        signedIn: String = "Signed in. You can close this window and return to the terminal.",
        failed: String = "The sign-in did not complete. Return to the terminal for details.",
        refused: String = "This request does not belong to the sign-in in progress.",
        notFound: String = "Not found."
    ) {
        self.signedIn = signedIn
        self.failed = failed
        self.refused = refused
        self.notFound = notFound
    }
}

/// One answer of a loopback redirect listener: a status and a short HTML page, sent with
/// ``headerFields``.
public struct LoopbackAnswer: Sendable, Hashable {
    /// The HTTP status, e.g. 200, 404, 421.
    public var status: Int
    /// The page's line of text, before escaping.
    public var text: String

    /// Creates an answer.
    public init(status: Int, text: String) {
        self.status = status
        self.text = text
    }

    /// The status line's words: `OK`, `Not Found`, `Misdirected Request`.
    public var reasonPhrase: String {
        let phrases = [
            200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 421: "Misdirected Request",
            431: "Request Header Fields Too Large", 503: "Service Unavailable",
        ]
        return phrases[status] ?? "Error"
    }

    /// The headers every page carries: HTML, never cached, no referrer sent on, nothing loaded
    /// or run, and the connection closed after it.
    public static let headerFields: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("Content-Security-Policy", "default-src 'none'"),
        ("Connection", "close"),
    ]

    /// The page: ``text``, HTML-escaped, in a minimal document.
    public var html: String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Sign-in</title></head><body><p>\(escaped)</p></body></html>\n"
    }
}

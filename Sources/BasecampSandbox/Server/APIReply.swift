import HTTPCore

/// What the sandbox answers one operation with, before it becomes a response.
enum APIReply {
    /// A JSON body with a status.
    case json(JSONValue, status: Int)
    /// A list of `count` items, paged by the sandbox (`Link`, `X-Total-Count`): only the page
    /// asked for is rendered, so a page costs the same however long the list.
    case page(count: Int, items: (Range<Int>) -> [JSONValue])
    /// No body.
    case empty(status: Int)

    /// `items`, each rendered with `render` when its page is asked for.
    static func list<Item>(_ items: [Item], _ render: @escaping (Item) -> JSONValue) -> APIReply {
        .page(count: items.count) { items[$0].map(render) }
    }
}

/// A failure answered as Basecamp does: a status and `{"error": …}` (field errors for 422); a `401` in plain text.
struct APIFailure: Error {
    var status: Int
    var message: String
    var fieldErrors: [String: [String]] = [:]

    init(_ status: Int, _ message: String, fieldErrors: [String: [String]] = [:]) {
        self.status = status
        self.message = message
        self.fieldErrors = fieldErrors
    }

    static func notFound(_ what: String) -> APIFailure { APIFailure(404, "\(what) not found.") }

    static func invalid(_ field: String, _ problem: String) -> APIFailure {
        APIFailure(422, "Validation failed", fieldErrors: [field: [problem]])
    }
}

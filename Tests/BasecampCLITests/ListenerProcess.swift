import Basecamp
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPTypes

/// A running `basecamp` (such as `webhooks listen`), read while it runs and stopped with SIGINT.
typealias ListenerProcess = RunningExecutable

extension RunningExecutable {
    /// Starts the built `basecamp` with `arguments`.
    init(arguments: [String], variables: [String: String], filePath: String = #filePath) throws {
        try self.init("basecamp", arguments: arguments, variables: variables, filePath: filePath)
    }

    /// The URL the listener announced on stderr (`Listening on URL (Ctrl-C to stop)`).
    func listeningURL() async throws -> URL? {
        let text = try await waitFor("(Ctrl-C to stop)", in: stderr)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Listening on ") }),
            let url = line.split(separator: " ").dropFirst(2).first
        else { return nil }
        return URL(string: String(url))
    }
}

/// A to-do event as Basecamp delivers it, with the given id, kind and title.
func webhookEvent(id: Int, kind: String, title: String) -> Data {
    Data(
        #"{"id":\#(id),"kind":"\#(kind)","created_at":"2026-02-06T09:12:45Z","recording":{"id":1,"status":"active","visible_to_clients":false,"created_at":"2026-02-06T09:12:45Z","updated_at":"2026-02-06T09:12:45Z","title":"\#(title)","inherits_status":true,"type":"Todo","url":"u","app_url":"a","bucket":{"id":2,"name":"The Leto Laptop","type":"Project"},"creator":{"id":3,"name":"Victor Cooper"}},"creator":{"id":3,"name":"Victor Cooper"}}"#
            .utf8
    )
}

/// POSTs `body` to `url`, signed with `secret`, as Basecamp delivers; the status it was answered.
func deliverWebhook(_ body: Data, to url: URL, secret: String) async throws -> Int {
    var request = HTTPRequest(
        method: .post,
        scheme: url.scheme,
        authority: url.host.map { "\($0):\(url.port ?? 80)" },
        path: url.path
    )
    request.headerFields[.contentType] = "application/json"
    request.headerFields[BasecampWebhooks.signatureHeader] = BasecampWebhooks.signature(secret: secret).signature(
        for: body
    )
    let response = try await URLSessionTransport().send(request, body: body, options: TransportOptions())
    return response.response.status.code
}

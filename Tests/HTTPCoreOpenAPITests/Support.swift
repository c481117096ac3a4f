import Foundation
import HTTPCore
import HTTPCoreOpenAPI
import HTTPCoreTesting
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import BasecampOpenAPIExample

/// The generated Basecamp client on an HTTPCore client over a scripted transport, with the test
/// clock and hooks that keep every event.
struct Harness {
    static let serverURL = URL(string: "https://api.example.com/basecamp")

    let api: BasecampOpenAPIExample.Client
    let transport: HTTPCoreTransport
    let scripted: ScriptedTransport
    let clock: TestClock
    let events: HookRecorder

    init(
        _ steps: [ScriptedTransport.Step] = [],
        handler: (@Sendable (ScriptedTransport.RecordedRequest) async throws -> TransportResponse)? = nil,
        options: HTTPCoreTransport.Configuration = HTTPCoreTransport.Configuration(service: "basecamp"),
        serverURL: URL? = nil,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) throws {
        let base = try #require(Self.serverURL)
        let clock = TestClock()
        let events = HookRecorder()
        let scripted =
            handler.map { ScriptedTransport(clock: clock, handler: $0) } ?? ScriptedTransport(steps, clock: clock)
        (self.clock, self.events, self.scripted) = (clock, events, scripted)
        var configuration = ClientConfiguration(baseURL: base, hooks: events, timeSource: clock)
        configure(&configuration)
        let core = try HTTPCore.Client(configuration: configuration, transport: scripted)
        transport = HTTPCoreTransport(client: core, configuration: options)
        api = BasecampOpenAPIExample.Client.basecamp(serverURL: serverURL ?? base, transport: transport)
    }
}

/// Payloads and inputs the tests share.
enum Fixtures {
    static let account = "999"
    static let projectPath = Operations.GetProject.Input.Path(accountId: account, projectId: 1)
    static let projectsURL = "https://api.example.com/basecamp/999/projects.json"

    static func project(_ id: Int, name: String = "Leto") -> JSONValue {
        [
            "id": .integer(id), "status": "active", "created_at": "2024-01-08T10:00:00.000Z",
            "updated_at": "2024-01-08T10:00:00.000Z", "name": .string(name),
            "url": .string("https://api.example.com/basecamp/999/projects/\(id).json"),
            "app_url": .string("https://example.com/\(id)"),
        ]
    }

    /// Credentials whose access token the ``tokenServer(answer:status:)`` rejects, with a refresh
    /// token it renews.
    static func refreshingAuth() -> RefreshingTokenAuth {
        RefreshingTokenAuth(
            credentials: TokenCredentials(accessToken: "old-token", refreshToken: "r1", expiresAt: nil),
            refresh: RefreshEndpoint(path: "oauth/token")
        )
    }

    /// A server that issues `new-token` at `oauth/token` and answers every other request with
    /// `answer` when it carries that token, 401 otherwise.
    static func tokenServer(
        answer: Data,
        status: HTTPResponse.Status = .ok
    ) -> @Sendable (ScriptedTransport.RecordedRequest) async throws -> TransportResponse {
        { recorded in
            let json: HTTPFields = [.contentType: "application/json"]
            if recorded.url.path.hasSuffix("oauth/token") {
                let tokens: JSONValue = ["access_token": "new-token", "refresh_token": "r2", "expires_in": 3600]
                return TransportResponse(
                    response: HTTPResponse(status: .ok, headerFields: json),
                    body: tokens.encoded(),
                    url: recorded.url
                )
            }
            let accepted = recorded.header("Authorization") == "Bearer new-token"
            return TransportResponse(
                response: HTTPResponse(status: accepted ? status : .unauthorized, headerFields: json),
                body: accepted ? answer : Data(),
                url: recorded.url
            )
        }
    }

    /// A `Link` header naming `url` as the next page.
    static func next(_ url: String) -> HTTPFields {
        [.link: "<\(url)>; rel=\"next\""]
    }

    /// A body of `count` bytes in chunks of 16 KiB, of unknown length, that can be read once.
    static func singleUseBody(_ bytes: [UInt8]) -> HTTPBody {
        let chunks = stride(from: 0, to: bytes.count, by: 16 * 1024).map {
            ArraySlice(bytes[$0..<min($0 + 16 * 1024, bytes.count)])
        }
        let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        return HTTPBody(stream, length: .unknown, iterationBehavior: .single)
    }

    /// The temporary files HTTPCoreOpenAPI spools bodies to, left in the temporary folder.
    static func spoolFiles() -> [String] {
        let folder = FileManager.default.temporaryDirectory.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("httpcore-openapi-") }
    }
}

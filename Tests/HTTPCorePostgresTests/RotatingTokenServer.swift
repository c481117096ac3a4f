import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A scripted API whose token endpoint rotates refresh tokens, as Launchpad does: each refresh
/// token works once, so two workers refreshing with the same one make the second fail with
/// `invalid_grant`. Other paths answer 200 to the current access token and 401 otherwise.
final class RotatingTokenServer: Sendable {
    private struct State: Sendable {
        var generation = 1
        var refreshes = 0
    }

    private let state = Locked(State())
    /// Runs before each refresh is answered (to hold it, or to act meanwhile).
    let beforeRefresh: @Sendable () async -> Void

    init(beforeRefresh: @escaping @Sendable () async -> Void = {}) {
        self.beforeRefresh = beforeRefresh
    }

    /// The credentials of generation 1, expired.
    static let expired = TokenCredentials(
        accessToken: "access-1",
        refreshToken: "refresh-1",
        expiresAt: Date(timeIntervalSince1970: 0)
    )

    /// Refresh requests received.
    var refreshes: Int { state.withLock { $0.refreshes } }

    /// The access token the API accepts now.
    var accessToken: String { state.withLock { "access-\($0.generation)" } }

    func transport() -> ScriptedTransport {
        ScriptedTransport { [self] request in
            guard request.url.path.hasSuffix("/oauth/token") else {
                let accepted = request.header("Authorization") == "Bearer \(accessToken)"
                return Self.answer(request, status: accepted ? 200 : 401, ["ok": .bool(accepted)])
            }
            state.withLock { $0.refreshes += 1 }
            await beforeRefresh()
            let issued = state.withLock { state -> Int? in
                guard request.bodyText?.contains("refresh_token=refresh-\(state.generation)") == true else {
                    return nil
                }
                state.generation += 1
                return state.generation
            }
            guard let issued else { return Self.answer(request, status: 400, ["error": "invalid_grant"]) }
            return Self.answer(
                request,
                status: 200,
                [
                    "access_token": .string("access-\(issued)"), "refresh_token": .string("refresh-\(issued)"),
                    "expires_in": 3600,
                ]
            )
        }
    }

    /// A client on `transport` authorizing with `auth`, without retries.
    static func client(_ auth: RefreshingTokenAuth, _ transport: ScriptedTransport) throws -> Client {
        try Client(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example.com")),
                retry: .none,
                auth: auth
            ),
            transport: transport
        )
    }

    private static func answer(
        _ request: ScriptedTransport.RecordedRequest,
        status: Int,
        _ json: JSONValue
    ) -> TransportResponse {
        TransportResponse(
            response: HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]),
            body: json.encoded(),
            url: request.url
        )
    }
}

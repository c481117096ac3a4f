import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension AuthRefreshTests {
    @Test("Proactive refresh happens at expiry minus the 30 s margin, not before")
    func proactiveRefreshAtMargin() async throws {
        let clock = TestClock()
        let api = TokenAPI()
        let credentials = TokenCredentials(
            accessToken: "access-1",
            refreshToken: "refresh-1",
            expiresAt: clock.now().addingTimeInterval(100)
        )
        let (client, auth, transport) = try setUp(api, credentials: credentials, clock: clock)

        _ = try await client.send(Endpoint<JSONValue>(.get, "a"))
        clock.advance(by: .seconds(69))
        _ = try await client.send(Endpoint<JSONValue>(.get, "b"))
        #expect(api.refreshes.value == 0)

        clock.advance(by: .seconds(1))
        _ = try await client.send(Endpoint<JSONValue>(.get, "c"))
        #expect(api.refreshes.value == 1)
        let refresh = try #require(transport.requests.first { $0.url.path.hasSuffix("/oauth/token") })
        #expect(refresh.time == .seconds(70))
        #expect(
            apiRequests(transport).map { $0.header("Authorization") } == [
                "Bearer access-1", "Bearer access-1", "Bearer access-2",
            ]
        )
        // expires_in 3600 counts from when the refresh was sent.
        #expect(await auth.credentials?.expiresAt == clock.now().addingTimeInterval(3600))
    }

    @Test("A proactive refresh that fails transiently still sends the unexpired old token")
    func proactiveTransientFailureUsesOldToken() async throws {
        let clock = TestClock()
        let api = TokenAPI()
        api.refreshOverride.withLock {
            $0 = { _ in throw TransportError(.cannotConnect, requestMayHaveBeenSent: false, message: "down") }
        }
        let credentials = TokenCredentials(
            accessToken: "access-1",
            refreshToken: "refresh-1",
            expiresAt: clock.now().addingTimeInterval(20)
        )
        let (client, auth, transport) = try setUp(api, credentials: credentials, clock: clock)

        let value = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(value["ok"] == true)
        #expect(api.refreshes.value == 1)
        #expect(apiRequests(transport).map { $0.header("Authorization") } == ["Bearer access-1"])
        #expect(await auth.isSignInRequired == false)

        // Once the old token has expired too, the network error surfaces (retried as usual).
        clock.advance(by: .seconds(25))
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .network)
        #expect(apiRequests(transport).count == 1)
        #expect(await auth.credentials?.refreshToken == "refresh-1")
    }
}

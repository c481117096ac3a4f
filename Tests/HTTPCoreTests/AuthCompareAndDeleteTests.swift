import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// A refused refresh removes the stored credentials only while they are still the refused ones.
@Suite("Auth: compare-and-delete of refused credentials")
struct AuthCompareAndDeleteTests {
    private let refused = TokenCredentials(accessToken: "access-1", refreshToken: "refresh-1")
    private let other = TokenCredentials(accessToken: "access-9", refreshToken: "refresh-9")

    @Test("The default removes matching tokens only, whatever the expiry, and says whether it did")
    func defaultImplementation() async throws {
        let store = InMemoryCredentialStore(other)
        #expect(try await store.remove(ifStillMatching: refused) == false)
        #expect(await store.load() == other)

        var renewedExpiry = other
        renewedExpiry.expiresAt = Date(timeIntervalSince1970: 5_000)
        #expect(try await store.remove(ifStillMatching: renewedExpiry) == true)
        #expect(await store.load() == nil)
        #expect(try await store.remove(ifStillMatching: other) == false)
    }

    @Test("FileCredentialStore keeps a file holding other tokens")
    func fileStore() async throws {
        try await withTemporaryFolder { directory in
            let store = FileCredentialStore(url: directory.appending(path: "credentials.json"))
            try await store.save(other)
            #expect(try await store.remove(ifStillMatching: refused) == false)
            #expect(await store.load() == other)
            #expect(try await store.remove(ifStillMatching: other) == true)
            #expect(await store.load() == nil)
        }
    }

    @Test("A sign-in saved while a stale refresh is refused survives it")
    func staleRefreshKeepsNewSignIn() async throws {
        let store = InMemoryCredentialStore(refused)
        let fresh = other
        let api = TokenAPI(beforeRefresh: {
            // Someone signs in again while this worker's refresh is on its way.
            await store.save(fresh)
        })
        api.revokeAccessToken()
        api.refreshOverride.withLock { $0 = { reply($0, status: 400, json: ["error": "invalid_grant"]) } }
        let (client, auth) = try setUp(api, store: store)

        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "items")) }
        #expect(error?.code == .authRequired)
        #expect(api.refreshes.value == 1)
        #expect(await store.load() == fresh)
        #expect(await auth.isSignInRequired)
    }

    @Test("A refused refresh of the stored tokens removes them")
    func refusedStoredTokensRemoved() async throws {
        let store = InMemoryCredentialStore(refused)
        let api = TokenAPI()
        api.revokeAccessToken()
        api.refreshOverride.withLock { $0 = { reply($0, status: 400, json: ["error": "invalid_grant"]) } }
        let (client, _) = try setUp(api, store: store)

        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "items")) }
        #expect(error?.code == .authRequired)
        #expect(await store.load() == nil)
    }

    private func setUp(_ api: TokenAPI, store: any CredentialStore) throws -> (Client, RefreshingTokenAuth) {
        let auth = RefreshingTokenAuth(
            credentials: refused,
            refresh: RefreshEndpoint(path: "oauth/token"),
            store: store
        )
        let transport = ScriptedTransport(clock: TestClock()) { try await api.handle($0) }
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.timeSource = TestClock()
        }
        return (client, auth)
    }
}

import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

/// Two strategies on two `FileCredentialStore`s over one file: two independent open file
/// descriptions of the lock file, as two processes would have (`flock` belongs to the open file,
/// not the process).
@Suite("Auth: refreshes take turns across stores of one file")
struct AuthRefreshLockTests {
    private func withFile(_ body: (URL) async throws -> Void) async throws {
        try await withTemporaryFolder { try await body($0.appending(path: "credentials.json")) }
    }

    /// A client whose token endpoint rotates `refresh-N` and holds the first refresh until
    /// `gate` opens.
    private func client(
        store: FileCredentialStore,
        transport: ScriptedTransport
    ) throws -> (Client, RefreshingTokenAuth) {
        let auth = RefreshingTokenAuth(refresh: RefreshEndpoint(path: "oauth/token"), store: store)
        let client = try Client(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example.com")),
                retry: .none,
                auth: auth
            ),
            transport: transport
        )
        return (client, auth)
    }

    @Test("Two stores find the same expired token: one refreshes, the other waits and uses the fresh token")
    func oneRefreshAcrossStores() async throws {
        try await withFile { file in
            let expired = TokenCredentials(
                accessToken: "access-1",
                refreshToken: "refresh-1",
                expiresAt: Date(timeIntervalSince1970: 0)
            )
            try await FileCredentialStore(url: file).save(expired)
            let refreshes = Counter()
            let gate = Gate()
            let transport = ScriptedTransport { request in
                if request.url.path.hasSuffix("/oauth/token") {
                    let number = refreshes.increment()
                    await gate.wait()
                    guard number == 1, request.bodyText?.contains("refresh_token=refresh-1") == true else {
                        return reply(request, status: 400, json: ["error": "invalid_grant"])
                    }
                    return reply(
                        request,
                        json: ["access_token": "access-2", "refresh_token": "refresh-2", "expires_in": 3600]
                    )
                }
                let good = request.header("Authorization") == "Bearer access-2"
                return reply(request, status: good ? 200 : 401, json: ["ok": .bool(good)])
            }
            let lockClock = TestClock(mode: .manual)
            let (first, firstAuth) = try client(
                store: FileCredentialStore(url: file, timeSource: lockClock),
                transport: transport
            )
            let (second, secondAuth) = try client(
                store: FileCredentialStore(url: file, timeSource: lockClock),
                transport: transport
            )

            let finished = Counter()
            let one = Task {
                defer { finished.increment() }
                return try await first.send(Endpoint<JSONValue>(.get, "a"))
            }
            let two = Task {
                defer { finished.increment() }
                return try await second.send(Endpoint<JSONValue>(.get, "b"))
            }
            // One strategy is refreshing (held at the gate); the other is waiting for the lock.
            // Without the lock both would reach the token endpoint; stop waiting then too.
            await waitUntil { (refreshes.value == 1 && lockClock.sleeperCount == 1) || refreshes.value >= 2 }
            #expect(refreshes.value == 1)
            gate.open()
            // The waiter polls for the lock on the lock clock: let it look again until both are done.
            let bothDone = await waitUntil {
                if lockClock.sleeperCount > 0 { lockClock.advance(by: .milliseconds(100)) }
                return finished.value == 2
            }
            #expect(bothDone)
            #expect(try await one.value["ok"] == true)
            #expect(try await two.value["ok"] == true)
            #expect(refreshes.value == 1)
            #expect(await firstAuth.credentials?.accessToken == "access-2")
            #expect(await secondAuth.credentials?.accessToken == "access-2")
            #expect(await FileCredentialStore(url: file).load()?.refreshToken == "refresh-2")
            #expect(FileManager.default.fileExists(atPath: file.path + ".lock"))
        }
    }

    @Test("A lock held too long ends the wait with a network error and keeps the credentials")
    func lockTimeout() async throws {
        try await withFile { file in
            let clock = TestClock()
            let holder = FileCredentialStore(url: file)
            let waiter = FileCredentialStore(url: file, lockTimeout: .seconds(2), timeSource: clock)
            let held = Gate()
            let release = Gate()
            let holding = Task {
                try await holder.withRefreshLock {
                    held.open()
                    await release.wait()
                }
            }
            await held.wait()
            let error = await caughtAPIError { try await waiter.withRefreshLock {} }
            #expect(error?.code == .network)
            #expect(error?.message.contains("Another process") == true)
            #expect(clock.monotonicNow() >= .seconds(2))
            release.open()
            try await holding.value
            // Released: the next one gets it at once.
            try await waiter.withRefreshLock {}
        }
    }

    @Test("A store whose lock file cannot be created refreshes without it")
    func unlockable() async throws {
        try await withFile { file in
            let directory = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data().write(to: directory.appending(path: "blocker"))
            let store = FileCredentialStore(url: directory.appending(path: "blocker/credentials.json"))
            let value = try await store.withRefreshLock { 42 }
            #expect(value == 42)
        }
    }

    /// Credentials whose access token is `name` and refresh token `name-r`, expiring `seconds`
    /// after 1970.
    private static func tokens(_ name: String, expiringAt seconds: TimeInterval) -> TokenCredentials {
        TokenCredentials(
            accessToken: name,
            refreshToken: "\(name)-r",
            expiresAt: Date(timeIntervalSince1970: seconds)
        )
    }

    /// Sends one call with `credentials` in use and `file` as the store, against a token endpoint
    /// that rotates to `fresh` only for `refreshToken` (any other is spent) and an API that takes
    /// only `fresh`; returns what was sent.
    private func sendOnce(
        holding credentials: TokenCredentials,
        store file: URL,
        refreshableWith refreshToken: String
    ) async throws -> ScriptedTransport {
        let transport = ScriptedTransport { request in
            if request.url.path.hasSuffix("/oauth/token") {
                guard request.bodyText?.contains("refresh_token=\(refreshToken)") == true else {
                    return reply(request, status: 400, json: ["error": "invalid_grant"])
                }
                return reply(request, json: ["access_token": "fresh", "refresh_token": "fresh-r", "expires_in": 3600])
            }
            let good = request.header("Authorization") == "Bearer fresh"
            return reply(request, status: good ? 200 : 401, json: [:])
        }
        let auth = RefreshingTokenAuth(
            credentials: credentials,
            refresh: RefreshEndpoint(path: "oauth/token"),
            store: FileCredentialStore(url: file)
        )
        let client = try Client(
            configuration: ClientConfiguration(
                baseURL: try #require(URL(string: "https://api.example.com")),
                retry: .none,
                auth: auth
            ),
            transport: transport
        )
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        return transport
    }

    @Test("A store file older than the credentials in use is not adopted as someone else's refresh")
    func staleFileIgnored() async throws {
        try await withFile { file in
            try await FileCredentialStore(url: file).save(Self.tokens("old", expiringAt: 1_000))
            let transport = try await sendOnce(
                holding: Self.tokens("current", expiringAt: 2_000),
                store: file,
                refreshableWith: "current-r"
            )
            let refresh = try #require(transport.requests.first { $0.url.path.hasSuffix("/oauth/token") })
            #expect(refresh.bodyText?.contains("refresh_token=current-r") == true)
            #expect(await FileCredentialStore(url: file).load()?.accessToken == "fresh")
        }
    }

    @Test("Credentials renewed elsewhere that have expired since are refreshed from, not sent")
    func expiredRenewalRefreshed() async throws {
        try await withFile { file in
            // Another worker rotated the tokens, then everyone was idle past their expiry.
            try await FileCredentialStore(url: file).save(Self.tokens("rotated", expiringAt: 2_000))
            let transport = try await sendOnce(
                holding: Self.tokens("spent", expiringAt: 1_000),
                store: file,
                refreshableWith: "rotated-r"
            )
            // One refresh from the stored refresh token, and the call sent once, with its result.
            #expect(transport.requests.map(\.url.path) == ["/oauth/token", "/x"])
            #expect(await FileCredentialStore(url: file).load()?.accessToken == "fresh")
        }
    }
}

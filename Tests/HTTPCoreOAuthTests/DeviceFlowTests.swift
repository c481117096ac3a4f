import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

/// Updates a device flow reported, safe to collect from the flow's task.
final class UpdateLog: Sendable {
    private let entries = Locked<[DeviceFlowUpdate]>([])
    var updates: [DeviceFlowUpdate] { entries.withLock { $0 } }
    func record(_ update: DeviceFlowUpdate) { entries.withLock { $0.append(update) } }

    /// A short name per update, for comparing sequences.
    var names: [String] {
        updates.map { update in
            switch update {
            case .codeIssued: return "code"
            case .waiting(let next): return "waiting \(next)"
            case .slowedDown(let interval): return "slow \(interval)"
            case .rateLimited(let wait): return "limited \(wait)"
            case .signedIn: return "signed in"
            }
        }
    }
}

@Suite("Device grant (RFC 8628)")
struct DeviceFlowTests {
    private static func codes(
        expiresIn: Int = 600,
        interval: Int? = 5,
        complete: JSONValue = "https://auth.example.com/device?user_code=WDJB-MJHT"
    ) -> ScriptedTransport.Step {
        var body: [String: JSONValue] = [
            "device_code": "device-secret-1", "user_code": "WDJB-MJHT",
            "verification_uri": "https://auth.example.com/device",
            "verification_uri_complete": complete,
            "expires_in": .integer(expiresIn),
        ]
        if let interval { body["interval"] = .integer(interval) }
        return .json(.object(body))
    }

    @Test("Pending, pending, approved: polls every interval and reports each wait")
    func pendingThenApproved() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [Self.codes(), oauthError("authorization_pending"), oauthError("authorization_pending"), tokenAnswer()],
            clock: clock
        )
        let log = UpdateLog()
        let credentials = try await makeOAuth(transport, clock: clock).deviceSignIn(scope: "read") { log.record($0) }
        #expect(credentials.accessToken == "access-1")
        #expect(log.names == ["code", "waiting 5.0 seconds", "waiting 5.0 seconds", "signed in"])
        #expect(clock.sleeps == [.seconds(5), .seconds(5), .seconds(5)])
        let device = transport.requests[0]
        #expect(device.url.absoluteString == "https://auth.example.com/device")
        #expect(device.fieldNames == ["client_id", "scope"])
        for poll in transport.requests.dropFirst() {
            #expect(poll.fieldNames == ["grant_type", "device_code", "client_id"])
            #expect(poll.field("grant_type") == "urn:ietf:params:oauth:grant-type:device_code")
            #expect(poll.field("device_code") == "device-secret-1")
        }
        #expect(transport.requests.dropFirst().map(\.time) == [.seconds(5), .seconds(10), .seconds(15)])
    }

    @Test("A verification_uri_complete sent as null is absent: the user types the code")
    func nullCompleteLink() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([Self.codes(complete: .null), tokenAnswer()], clock: clock)
        let links = Locked<[URL?]>([])
        _ = try await makeOAuth(transport, clock: clock).deviceSignIn { update in
            if case .codeIssued(let authorization) = update {
                links.withLock { $0.append(authorization.verificationURIComplete) }
            }
        }
        #expect(links.withLock { $0 } == [nil])
    }

    @Test("slow_down adds 5 s to every later poll; the interval defaults to 5 s")
    func slowDown() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [
                Self.codes(interval: nil), oauthError("slow_down"), oauthError("authorization_pending"),
                oauthError("slow_down"), oauthError("authorization_pending"), tokenAnswer(),
            ],
            clock: clock
        )
        let log = UpdateLog()
        _ = try await makeOAuth(transport, clock: clock).deviceSignIn { log.record($0) }
        #expect(clock.sleeps == [.seconds(5), .seconds(10), .seconds(10), .seconds(15), .seconds(15)])
        #expect(log.names.contains("slow 10.0 seconds") && log.names.contains("slow 15.0 seconds"))
    }

    @Test("429 waits its Retry-After (at least the interval) and goes on polling")
    func rateLimited() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [
                Self.codes(), .status(429, headers: [.retryAfter: "20"]), .status(429),
                oauthError("authorization_pending"),
                tokenAnswer(),
            ],
            clock: clock
        )
        let log = UpdateLog()
        _ = try await makeOAuth(transport, clock: clock).deviceSignIn { log.record($0) }
        #expect(clock.sleeps == [.seconds(5), .seconds(20), .seconds(5), .seconds(5)])
        #expect(log.names.contains("limited 20.0 seconds"))
    }

    @Test(
        "access_denied is forbidden, expired_token and invalid_grant auth_required, anything else api_error",
        arguments: [
            ("access_denied", 400, APIError.Code.forbidden),
            ("expired_token", 400, .authRequired),
            ("invalid_grant", 400, .authRequired),
            ("invalid_client", 401, .usage),
            ("server_error", 500, .apiError),
        ]
    )
    func endings(code: String, status: Int, expected: APIError.Code) async {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [Self.codes(), oauthError(code, status: status), tokenAnswer()],
            clock: clock
        )
        let error = await caughtAPIError { _ = try await makeOAuth(transport, clock: clock).deviceSignIn { _ in } }
        #expect(error?.code == expected)
        #expect(error?.oauthErrorCode?.rawValue == code)
        #expect(transport.requests.count == 2)
    }

    @Test("A redirect, a malformed token or an unexpected status ends the flow with api_error")
    func protocolViolations() async {
        for step: ScriptedTransport.Step in [
            .status(302, headers: [.location: "https://elsewhere.example/"]), .json(["access_token": ""]),
            .status(404),
        ] {
            let clock = TestClock()
            let transport = ScriptedTransport([Self.codes(), step], clock: clock)
            let error = await caughtAPIError { _ = try await makeOAuth(transport, clock: clock).deviceSignIn { _ in } }
            #expect(error?.code == .apiError)
        }
    }

    @Test("The flow stops at expires_in on the monotonic clock without polling after it")
    func deadline() async {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [Self.codes(expiresIn: 12), oauthError("authorization_pending"), oauthError("authorization_pending")],
            clock: clock
        )
        let error = await caughtAPIError { _ = try await makeOAuth(transport, clock: clock).deviceSignIn { _ in } }
        #expect(error?.code == .authRequired)
        #expect(error?.oauthErrorCode == .expiredToken)
        // Polls at 5 s and 10 s; one at 15 s would be after the codes expire.
        #expect(transport.requests.count == 3)
        #expect(clock.monotonicNow() == .seconds(10))
    }

    @Test("Cancelling during a wait ends the flow at once, without another poll")
    func cancellation() async throws {
        let clock = TestClock(mode: .manual)
        let transport = ScriptedTransport(
            [Self.codes(), oauthError("authorization_pending"), tokenAnswer()],
            clock: clock
        )
        let oauth = makeOAuth(transport, clock: clock)
        let flow = Task { try await oauth.deviceSignIn { _ in } }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        await clock.waitForSleepers(1)
        flow.cancel()
        let result = await flow.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(transport.requests.count == 2)
    }

    @Test("The device endpoint's 503 says the grant is not enabled; a server without one is usage")
    func notOffered() async {
        let unavailable = makeOAuth(ScriptedTransport([.status(503)]))
        let error = await caughtAPIError { _ = try await unavailable.requestDeviceAuthorization() }
        #expect(error?.code == .apiError)
        #expect(error?.httpStatus == 503)
        #expect(error?.message.contains("not available") == true)
        var server = standardServer
        server.deviceAuthorizationEndpoint = nil
        #expect(server.supportsDeviceGrant == false)
        let none = makeOAuth(ScriptedTransport(), server: server)
        #expect(await caughtAPIError { _ = try await none.requestDeviceAuthorization() }?.code == .usage)
    }

    @Test(
        "A malformed device authorization is api_error",
        arguments: [
            #"{"user_code": "A", "verification_uri": "https://x.example/d", "expires_in": 600}"#,
            #"{"device_code": "d", "user_code": "A", "verification_uri": "not a url", "expires_in": 600}"#,
            #"{"device_code": "d", "user_code": "A", "verification_uri": "https://x.example/d", "expires_in": 0}"#,
            #"{"device_code": "d", "user_code": "A", "verification_uri": "https://x.example/d", "expires_in": 600, "interval": 2.5}"#,
            #"{"device_code": "d", "user_code": "", "verification_uri": "https://x.example/d", "expires_in": 600}"#,
        ]
    )
    func malformedCodes(body: String) async {
        let oauth = makeOAuth(ScriptedTransport([.respond(status: 200, headers: [:], body: Data(body.utf8))]))
        #expect(await caughtAPIError { _ = try await oauth.requestDeviceAuthorization() }?.code == .apiError)
    }

    @Test("The update sequence ends with the credentials; leaving it early cancels the flow")
    func stream() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport(
            [Self.codes(), oauthError("authorization_pending"), tokenAnswer()],
            clock: clock
        )
        var names: [String] = []
        var signedIn: TokenCredentials?
        for try await update in makeOAuth(transport, clock: clock).deviceSignInUpdates() {
            switch update {
            case .codeIssued(let codes): names.append("code \(codes.userCode)")
            case .signedIn(let credentials): signedIn = credentials
            default: names.append("other")
            }
        }
        #expect(names == ["code WDJB-MJHT", "other"])
        #expect(signedIn?.accessToken == "access-1")

        let manual = TestClock(mode: .manual)
        let waiting = ScriptedTransport([Self.codes(), tokenAnswer()], clock: manual)
        for try await update in makeOAuth(waiting, clock: manual).deviceSignInUpdates() {
            if case .codeIssued = update { break }
        }
        // The flow was waiting to poll; leaving the loop cancels it, which ends that wait.
        #expect(await waitUntil { manual.sleeperCount == 0 })
        #expect(waiting.requests.count == 1)
    }
}

import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Discovery: selection, fallback and fetch outcomes")
struct DiscoveryTests {
    typealias Fixture = DiscoveryFixture

    private func discover(
        _ steps: [ScriptedTransport.Step],
        selection: IssuerSelection = Fixture.selection
    ) async throws -> (DiscoveredAuthorizationServer, ScriptedTransport) {
        let transport = ScriptedTransport(steps)
        let found = try await Fixture.discovery(transport).discoverAuthorizationServer(
            for: Fixture.resource,
            selection: selection
        )
        return (found, transport)
    }

    private func failure(
        _ steps: [ScriptedTransport.Step],
        selection: IssuerSelection = Fixture.selection
    ) async -> (DiscoveryError?, ScriptedTransport) {
        let transport = ScriptedTransport(steps)
        return (await Fixture.failure(transport, selection: selection), transport)
    }

    @Test("The one advertised issuer that is not legacy is chosen, and its metadata becomes the server")
    func selection() async throws {
        let (found, transport) = try await discover([
            Fixture.resourceDocument([Fixture.legacyIssuer, Fixture.newIssuer]), Fixture.serverDocument(),
        ])
        #expect(found.source == .discovered(issuer: Fixture.newIssuer))
        #expect(!found.isLegacyLaunchpad)
        #expect(found.server.tokenEndpoint == url("https://id.example.com/token"))
        #expect(found.server.issuer == Fixture.newIssuer)
        #expect(found.server.tokenRequestStyle == .standard)
        #expect(found.server.supportsDeviceGrant)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.example.com/.well-known/oauth-protected-resource",
                "https://id.example.com/.well-known/oauth-authorization-server",
            ]
        )
        #expect(transport.requests.allSatisfy { $0.request.method == .get })
        #expect(transport.requests.allSatisfy { $0.options.maxBodySize == 64 * 1024 })
        #expect(transport.requests.allSatisfy { $0.header("User-Agent") == "Tests (t@example.com)" })
    }

    @Test("An expected issuer is chosen when advertised, even among several; one not advertised is an error")
    func expectedIssuer() async throws {
        var selection = Fixture.selection
        selection.expectedIssuer = Fixture.newIssuer
        let (found, _) = try await discover(
            [Fixture.resourceDocument(["https://other.example.com", Fixture.newIssuer]), Fixture.serverDocument()],
            selection: selection
        )
        #expect(found.source == .discovered(issuer: Fixture.newIssuer))
        let (missing, transport) = await failure(
            [Fixture.resourceDocument(["https://other.example.com", Fixture.newIssuer + "/"])],
            selection: selection
        )
        #expect(missing == DiscoveryError(.expectedIssuerUnavailable, document: .protectedResource))
        #expect(transport.requests.count == 1)
        // With an expected issuer, a failed hop 1 is final.
        let (unfetched, _) = await failure([.status(404)], selection: selection)
        #expect(unfetched == DiscoveryError(.fetchFailed(status: 404), document: .protectedResource))
    }

    @Test(
        "While nothing is chosen, hop 1's failure falls back, with the failure as the reason",
        arguments: [
            (ScriptedTransport.Step.status(404), DiscoveryError.Reason.fetchFailed(status: 404)),
            (.status(500), .fetchFailed(status: 500)),
            (.connectionRefused, .fetchFailed(status: nil)),
            (.status(302, headers: [.location: "https://evil.example.com"]), .redirectRefused),
            (.status(200, body: "<html>"), .invalidMetadata(member: nil)),
            (.json(["authorization_servers": []]), .invalidMetadata(member: "resource")),
            (Fixture.resourceDocument([Fixture.newIssuer], resource: "https://evil.example.com"), .resourceMismatch),
        ]
    )
    func fallback(step: ScriptedTransport.Step, reason: DiscoveryError.Reason) async throws {
        let (found, transport) = try await discover([step])
        #expect(
            found.source == .fallback(.resourceDiscoveryFailed(DiscoveryError(reason, document: .protectedResource)))
        )
        #expect(found.server == Fixture.fallback)
        #expect(found.isLegacyLaunchpad)
        #expect(transport.requests.count == 1)
    }

    @Test("Only legacy issuers advertised is none advertised; an expected legacy issuer is the fallback too")
    func legacyOnly() async throws {
        let (found, _) = try await discover([Fixture.resourceDocument([Fixture.legacyIssuer])])
        #expect(found.source == .fallback(.noAuthorizationServerAdvertised))
        var selection = Fixture.selection
        selection.expectedIssuer = Fixture.legacyIssuer
        let (expected, _) = try await discover([Fixture.resourceDocument([Fixture.legacyIssuer])], selection: selection)
        #expect(expected.source == .fallback(.expectedLegacyIssuer))
        #expect(expected.isLegacyLaunchpad)
    }

    @Test(
        "Once an issuer is chosen every failure of its fetch is final, typed",
        arguments: [
            (ScriptedTransport.Step.status(404), DiscoveryError.Reason.fetchFailed(status: 404)),
            (.status(503), .fetchFailed(status: 503)),
            (.connectionRefused, .fetchFailed(status: nil)),
            (.status(301, headers: [.location: "https://id.example.com/elsewhere"]), .redirectRefused),
            (.status(200, body: "[]"), .invalidMetadata(member: nil)),
            (
                .fail(TransportError(.bodyLimitExceeded(limit: 65536), requestMayHaveBeenSent: true, message: "Big.")),
                .tooLarge
            ),
            (.status(200, body: String(repeating: " ", count: 70_000) + "{}"), .tooLarge),
        ]
    )
    func finalFailures(step: ScriptedTransport.Step, reason: DiscoveryError.Reason) async {
        let (error, transport) = await failure([Fixture.resourceDocument([Fixture.newIssuer]), step])
        #expect(error == DiscoveryError(reason, document: .authorizationServer))
        #expect(transport.remainingSteps == 0)
        #expect(transport.requests.count == 2)
    }

    @Test("Non-2xx and oversized documents are discovery's API errors, not network or limit_exceeded")
    func errorCodes() async {
        for (step, code, status) in [
            (ScriptedTransport.Step.status(500), APIError.Code.apiError, 500 as Int?),
            (.status(404), .apiError, 404),
            (.status(301, headers: [.location: "https://api.example.com/x"]), .apiError, nil),
            (
                .fail(TransportError(.bodyLimitExceeded(limit: 65536), requestMayHaveBeenSent: true, message: "Big.")),
                .apiError, nil
            ),
            (.connectionRefused, .network, nil),
        ] {
            let (error, _) = await failure([step], selection: IssuerSelection())
            #expect(error?.apiError.code == code)
            #expect(error?.apiError.httpStatus == status)
        }
    }

    @Test("Several new issuers are never guessed between; no issuer without a fallback is an error")
    func ambiguityAndNoFallback() async {
        let (ambiguous, _) = await failure([
            Fixture.resourceDocument(["https://a.example.com", "https://b.example.com"])
        ])
        #expect(ambiguous == DiscoveryError(.ambiguousIssuers, document: .protectedResource))
        #expect(ambiguous?.exitCode == 7)
        let (none, _) = await failure([Fixture.resourceDocument([])], selection: IssuerSelection())
        #expect(none?.reason == .noAuthorizationServer)
    }

    @Test("A redirect is never followed: its Location is not asked for")
    func redirect() async {
        let transport = ScriptedTransport([.status(301, headers: [.location: "https://api.example.com/elsewhere"])])
        let error = await discoveryError {
            try await Fixture.discovery(transport).protectedResourceMetadata(for: Fixture.resource)
        }
        #expect(error?.reason == .redirectRefused)
        #expect(transport.requests.count == 1)
    }

    @Test("The body cap goes to the transport")
    func capSent() async {
        let transport = ScriptedTransport([.status(200, body: String(repeating: " ", count: 2000) + "{}")])
        var small = Fixture.discovery(transport)
        small.maxDocumentSize = 1024
        let error = await discoveryError { try await small.protectedResourceMetadata(for: Fixture.resource) }
        #expect(error?.reason == .tooLarge)
        #expect(transport.requests.first?.options.maxBodySize == 1024)
    }

    @Test("A body that trickles in past the time limit is abandoned, however steadily it arrives")
    func slowBody() async {
        let clock = TestClock(mode: .manual)
        let transport = ScriptedTransport(clock: clock) { request in
            // A server that keeps the fetch alive forever; only the time limit can end it.
            try await clock.sleep(for: .seconds(3600))
            return TransportResponse(response: HTTPResponse(status: .ok), body: Data("{}".utf8), url: request.url)
        }
        var guarded = Fixture.discovery(transport, clock: clock)
        guarded.timeLimit = .seconds(10)
        let fetch = Task { try await guarded.protectedResourceMetadata(for: Fixture.resource) }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(10))
        let result = await fetch.result
        let error = await discoveryError { try result.get() }
        #expect(error?.reason == .fetchFailed(status: nil))
        #expect(error?.code == .network)
        #expect(error?.message.contains("took longer than") == true)
        #expect(clock.sleeperCount == 0)
    }

    @Test("Every reason has a stable short description and an exit code")
    func descriptions() {
        let cases: [(DiscoveryError, String, Int32)] = [
            (DiscoveryError(.invalidOrigin(.port)), "invalid origin (port)", 64),
            (DiscoveryError(.invalidIssuerOrigin(.path)), "invalid issuer origin (path)", 7),
            (
                DiscoveryError(.refusedAddress(.linkLocal), document: .authorizationServer),
                "refused address (link-local)", 7
            ),
            (
                DiscoveryError(.refusedAddress(.loopback), document: .protectedResource), "refused address (loopback)",
                64
            ),
            (DiscoveryError(.resourceMismatch), "resource mismatch", 7),
            (DiscoveryError(.issuerMismatch), "issuer mismatch", 7),
            (DiscoveryError(.noAuthorizationServer), "no authorization server", 7),
            (DiscoveryError(.ambiguousIssuers), "ambiguous issuers", 7),
            (DiscoveryError(.expectedIssuerUnavailable), "expected issuer unavailable", 7),
            (DiscoveryError(.invalidMetadata(member: "token_endpoint")), "metadata invalid (token_endpoint)", 7),
            (DiscoveryError(.fetchFailed(status: 503)), "fetch failed (HTTP 503)", 7),
            (DiscoveryError(.fetchFailed(status: nil)), "fetch failed", 6),
            (DiscoveryError(.tooLarge), "too large", 7),
            (DiscoveryError(.redirectRefused), "redirect refused", 7),
            (
                DiscoveryError(.capabilityUnavailable(.deviceAuthorization)),
                "capability unavailable (device authorization)", 64
            ),
        ]
        for (error, description, exitCode) in cases {
            #expect(error.description == description)
            #expect(error.exitCode == exitCode)
            #expect(error.apiError.exitCode == exitCode)
            #expect(!error.message.isEmpty && !error.hint.isEmpty)
        }
    }
}

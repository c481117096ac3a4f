import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Discovery: metadata, selection, fallback and fetch guards")
struct DiscoveryTests {
    static let resource = url("https://api.example.com")
    static let newIssuer = "https://id.example.com"
    static let legacyIssuer = "https://legacy.example.com"
    static let fallback = AuthorizationServer(
        authorizationEndpoint: url("https://legacy.example.com/authorize"),
        tokenEndpoint: url("https://legacy.example.com/token"),
        tokenRequestStyle: .legacyType
    )
    static let selection = IssuerSelection(legacyIssuers: [legacyIssuer], fallback: fallback)

    static func resourceDocument(
        _ servers: [String]?,
        resource: String = "https://api.example.com"
    ) -> ScriptedTransport.Step {
        var body: [String: JSONValue] = ["resource": .string(resource)]
        if let servers { body["authorization_servers"] = .array(servers.map(JSONValue.string)) }
        return .json(.object(body))
    }

    static func serverDocument(issuer: String = newIssuer, extra: [String: JSONValue] = [:]) -> ScriptedTransport.Step {
        var body: [String: JSONValue] = [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"),
            "device_authorization_endpoint": .string(issuer + "/device"),
            "grant_types_supported": ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
        ]
        for (key, value) in extra { body[key] = value }
        return .json(.object(body))
    }

    private func discovery(
        _ transport: ScriptedTransport,
        clock: TestClock = TestClock(mode: .manual)
    ) -> OAuthDiscovery {
        OAuthDiscovery(
            network: OAuthNetwork(transport: transport, timeSource: clock, userAgent: "Tests (t@example.com)")
        )
    }

    private func discover(
        _ steps: [ScriptedTransport.Step],
        selection: IssuerSelection = DiscoveryTests.selection
    ) async throws -> (DiscoveredAuthorizationServer, ScriptedTransport) {
        let transport = ScriptedTransport(steps)
        let found = try await discovery(transport).discoverAuthorizationServer(for: Self.resource, selection: selection)
        return (found, transport)
    }

    @Test("Metadata URLs: the well-known path goes between the origin and any path")
    func wellKnownURLs() throws {
        #expect(
            try OAuthDiscovery.protectedResourceMetadataURL(for: "https://api.example.com").absoluteString
                == "https://api.example.com/.well-known/oauth-protected-resource"
        )
        #expect(
            try OAuthDiscovery.protectedResourceMetadataURL(for: "https://api.example.com/v2").absoluteString
                == "https://api.example.com/.well-known/oauth-protected-resource/v2"
        )
        #expect(
            try OAuthDiscovery.authorizationServerMetadataURL(for: "https://id.example.com/tenant").absoluteString
                == "https://id.example.com/.well-known/oauth-authorization-server/tenant"
        )
        #expect(
            try OAuthDiscovery.resourceIdentifier(for: url("https://api.example.com/")) == "https://api.example.com"
        )
    }

    @Test("The one advertised issuer that is not legacy is chosen, and its metadata becomes the server")
    func selection() async throws {
        let (found, transport) = try await discover([
            Self.resourceDocument([Self.legacyIssuer, Self.newIssuer]), Self.serverDocument(),
        ])
        #expect(found.source == .discovered(issuer: Self.newIssuer))
        #expect(found.server.tokenEndpoint == url("https://id.example.com/token"))
        #expect(found.server.issuer == Self.newIssuer)
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

    @Test("An expected issuer is chosen when advertised, even among several")
    func expectedIssuer() async throws {
        var selection = Self.selection
        selection.expectedIssuer = Self.newIssuer
        let (found, _) = try await discover(
            [Self.resourceDocument(["https://other.example.com", Self.newIssuer]), Self.serverDocument()],
            selection: selection
        )
        #expect(found.source == .discovered(issuer: Self.newIssuer))
    }

    @Test(
        "While nothing is chosen, the fallback is used: no document, a failed fetch, another resource, none advertised",
        arguments: [
            [ScriptedTransport.Step.status(404)],
            [.connectionRefused],
            [.status(500)],
            [DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer], resource: "https://evil.example.com")],
            [DiscoveryTests.resourceDocument(nil)],
            [DiscoveryTests.resourceDocument([])],
            [DiscoveryTests.resourceDocument([DiscoveryTests.legacyIssuer])],
            [.json(["resource": "https://api.example.com", "authorization_servers": "https://id.example.com"])],
            [.status(200, body: "<html>")],
        ]
    )
    func fallback(steps: [ScriptedTransport.Step]) async throws {
        let (found, transport) = try await discover(steps)
        guard case .fallback = found.source else {
            Issue.record("expected the fallback, got \(found.source)")
            return
        }
        #expect(found.server == Self.fallback)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "Once an issuer is chosen every failure is final; so are ambiguity and a missing expected issuer",
        arguments: [
            [DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]), .status(404)],
            [DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]), .connectionRefused],
            [
                DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]),
                DiscoveryTests.serverDocument(issuer: "https://id.example.com/"),
            ],
            [
                DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]),
                DiscoveryTests.serverDocument(extra: ["token_endpoint": nil]),
            ],
            [
                DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]),
                DiscoveryTests.serverDocument(extra: ["device_authorization_endpoint": ""]),
            ],
            [
                DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]),
                DiscoveryTests.serverDocument(extra: ["token_endpoint": "http://id.example.com/token"]),
            ],
            [
                DiscoveryTests.resourceDocument([DiscoveryTests.newIssuer]),
                DiscoveryTests.serverDocument(extra: ["token_endpoint": "https://10.0.0.8/token"]),
            ],
            [DiscoveryTests.resourceDocument(["https://a.example.com", "https://b.example.com"])],
            [DiscoveryTests.resourceDocument(["http://id.example.com"])],
        ]
    )
    func finalFailures(steps: [ScriptedTransport.Step]) async {
        let transport = ScriptedTransport(steps)
        let error = await caughtAPIError {
            _ = try await discovery(transport).discoverAuthorizationServer(
                for: Self.resource,
                selection: Self.selection
            )
        }
        #expect(error != nil)
        #expect(error?.code != .usage)
        #expect(transport.remainingSteps == 0)
    }

    @Test("An expected issuer that is not advertised fails, and so does a missing document when one is expected")
    func expectedButMissing() async {
        var selection = Self.selection
        selection.expectedIssuer = "https://id.example.com"
        let notAdvertised = ScriptedTransport([Self.resourceDocument(["https://other.example.com"])])
        #expect(
            await caughtAPIError {
                _ = try await discovery(notAdvertised).discoverAuthorizationServer(
                    for: Self.resource,
                    selection: selection
                )
            }
                != nil
        )
        let missing = ScriptedTransport([.status(404)])
        let error = await caughtAPIError {
            _ = try await discovery(missing).discoverAuthorizationServer(for: Self.resource, selection: selection)
        }
        #expect(error?.code == .notFound)
    }

    @Test("Without a fallback, finding nothing is an error")
    func noFallback() async {
        let transport = ScriptedTransport([Self.resourceDocument([])])
        let error = await caughtAPIError {
            _ = try await discovery(transport).discoverAuthorizationServer(
                for: Self.resource,
                selection: IssuerSelection()
            )
        }
        #expect(error?.code == .apiError)
    }

    @Test(
        "Non-https and local resources are refused before anything is sent",
        arguments: [
            "http://api.example.com", "https://localhost", "https://127.0.0.1", "https://10.1.2.3",
            "https://192.168.0.1",
            "https://169.254.169.254", "https://[::1]", "https://[fe80::1]", "https://[fd00::1]",
            "https://[::ffff:10.0.0.1]",
            "https://2130706433", "https://0x7f.1", "https://printer.local", "ftp://api.example.com",
        ]
    )
    func refusedResources(address: String) async {
        let transport = ScriptedTransport([Self.resourceDocument([])])
        let error = await caughtAPIError {
            _ = try await discovery(transport).protectedResourceMetadata(for: url(address))
        }
        #expect(error?.code == .usage)
        #expect(transport.requests.isEmpty)
    }

    @Test("Loopback http is accepted only when local addresses are allowed")
    func loopbackForTests() async throws {
        let transport = ScriptedTransport([Self.resourceDocument(nil, resource: "http://127.0.0.1:8080")])
        var allowing = discovery(transport)
        allowing.allowsLocalAddresses = true
        let metadata = try await allowing.protectedResourceMetadata(for: url("http://127.0.0.1:8080"))
        #expect(metadata.resource == "http://127.0.0.1:8080")
        #expect(metadata.authorizationServers == nil)
    }

    @Test("A redirect is never followed: a 3xx is an error, and its Location is not asked for")
    func redirect() async {
        let transport = ScriptedTransport([.status(301, headers: [.location: "https://api.example.com/elsewhere"])])
        let error = await caughtAPIError {
            _ = try await discovery(transport).protectedResourceMetadata(for: Self.resource)
        }
        #expect(error?.code == .apiError)
        #expect(error?.message.contains("redirect") == true)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.example.com/.well-known/oauth-protected-resource"
            ]
        )
    }

    @Test("An oversized body is refused: the cap goes to the transport, and a body over it is limit_exceeded")
    func oversized() async {
        let overflowing = ScriptedTransport([
            .fail(TransportError(.bodyLimitExceeded(limit: 1024), requestMayHaveBeenSent: true, message: "Too big."))
        ])
        var small = discovery(overflowing)
        small.maxDocumentSize = 1024
        #expect(
            await caughtAPIError { _ = try await small.protectedResourceMetadata(for: Self.resource) }?.code
                == .limitExceeded
        )
        #expect(overflowing.requests.first?.options.maxBodySize == 1024)
        // A transport that ignored the cap is caught too.
        let ignoring = ScriptedTransport([.status(200, body: String(repeating: " ", count: 2000) + "{}")])
        var capped = discovery(ignoring)
        capped.maxDocumentSize = 1024
        #expect(
            await caughtAPIError { _ = try await capped.protectedResourceMetadata(for: Self.resource) }?.code
                == .limitExceeded
        )
    }

    @Test("A body that trickles in past the time limit is abandoned, however steadily it arrives")
    func slowBody() async {
        let clock = TestClock(mode: .manual)
        let transport = ScriptedTransport(clock: clock) { request in
            // A server that keeps the fetch alive forever; only the time limit can end it.
            try await clock.sleep(for: .seconds(3600))
            return TransportResponse(response: HTTPResponse(status: .ok), body: Data("{}".utf8), url: request.url)
        }
        var guarded = discovery(transport, clock: clock)
        guarded.timeLimit = .seconds(10)
        let fetch = Task { try await guarded.protectedResourceMetadata(for: Self.resource) }
        let error = await apiError(of: fetch, afterAdvancing: clock, by: .seconds(10), sleepers: 2)
        #expect(error?.code == .network)
        #expect(error?.message.contains("took longer than") == true)
        #expect(clock.sleeperCount == 0)
    }
}

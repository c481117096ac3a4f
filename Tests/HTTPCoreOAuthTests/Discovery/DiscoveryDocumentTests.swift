import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

@Suite("Discovery: documents are bound code point for code point and read by the letter")
struct DiscoveryDocumentTests {
    typealias Fixture = DiscoveryFixture

    @Test(
        "The resource document must name the caller's string exactly: a trailing slash given is one expected",
        arguments: [
            ("https://api.example.com", "https://api.example.com", true),
            ("https://api.example.com/", "https://api.example.com/", true),
            ("https://api.example.com", "https://api.example.com/", false),
            ("https://api.example.com/", "https://api.example.com", false),
            ("https://api.example.com", "https://API.example.com", false),
            ("https://api.example.com", "https://api.example.com:443", false),
            ("https://api.example.com", " https://api.example.com", false),
        ]
    )
    func resourceBinding(asked: String, named: String, binds: Bool) async throws {
        let transport = ScriptedTransport([Fixture.resourceDocument(nil, resource: named)])
        let discovery = Fixture.discovery(transport)
        if binds {
            let metadata = try await discovery.protectedResourceMetadata(for: asked)
            #expect(metadata.resource == asked)
        } else {
            let error = await discoveryError { try await discovery.protectedResourceMetadata(for: asked) }
            #expect(error == DiscoveryError(.resourceMismatch, document: .protectedResource))
        }
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.example.com/.well-known/oauth-protected-resource"
            ]
        )
    }

    @Test(
        "The issuer document must name the advertised issuer exactly; a mismatch is final",
        arguments: [
            ("https://id.example.com", "https://id.example.com", true),
            ("https://id.example.com/", "https://id.example.com/", true),
            ("https://id.example.com", "https://id.example.com/", false),
            ("https://id.example.com/", "https://id.example.com", false),
            ("https://id.example.com", "https://ID.example.com", false),
        ]
    )
    func issuerBinding(advertised: String, named: String, binds: Bool) async throws {
        let transport = ScriptedTransport([
            Fixture.resourceDocument([advertised]), Fixture.serverDocument(issuer: named),
        ])
        let discovery = Fixture.discovery(transport)
        if binds {
            let found = try await discovery.discoverAuthorizationServer(
                for: Fixture.resource,
                selection: Fixture.selection
            )
            #expect(found.source == .discovered(issuer: advertised))
            #expect(found.server.issuer == advertised)
        } else {
            let error = await discoveryError {
                try await discovery.discoverAuthorizationServer(for: Fixture.resource, selection: Fixture.selection)
            }
            #expect(error == DiscoveryError(.issuerMismatch, document: .authorizationServer))
            #expect(error?.exitCode == 7)
        }
        #expect(
            transport.requests.last?.url.absoluteString
                == "https://id.example.com/.well-known/oauth-authorization-server"
        )
    }

    @Test("`authorization_servers` absent and [] stay distinct, and both mean none advertised")
    func absentAndEmpty() async throws {
        for servers in [nil, []] as [[String]?] {
            let transport = ScriptedTransport([Fixture.resourceDocument(servers)])
            let found = try await Fixture.discovery(transport).discoverAuthorizationServer(
                for: Fixture.resource,
                selection: Fixture.selection
            )
            #expect(found.source == .fallback(.noAuthorizationServerAdvertised))
            #expect(found.resourceMetadata?.authorizationServers == servers)
            #expect(found.isLegacyLaunchpad)
        }
    }

    @Test(
        "`authorization_servers` null, not a list, or holding a non-string makes the resource document invalid",
        arguments: [
            JSONValue.null, "https://id.example.com", 7, ["issuer": "https://id.example.com"], [1], [nil],
            ["https://id.example.com", false], [["https://id.example.com"]],
        ] as [JSONValue]
    )
    func invalidServers(value: JSONValue) async throws {
        let invalid = DiscoveryError(.invalidMetadata(member: "authorization_servers"), document: .protectedResource)
        let soft = ScriptedTransport([Fixture.resourceDocument(rawServers: value)])
        let found = try await Fixture.discovery(soft).discoverAuthorizationServer(
            for: Fixture.resource,
            selection: Fixture.selection
        )
        #expect(found.source == .fallback(.resourceDiscoveryFailed(invalid)))
        #expect(found.resourceMetadata == nil)
        #expect(soft.requests.count == 1)
        let hard = ScriptedTransport([Fixture.resourceDocument(rawServers: value)])
        let error = await discoveryError {
            try await Fixture.discovery(hard).discoverAuthorizationServer(
                for: Fixture.resource,
                selection: IssuerSelection()
            )
        }
        #expect(error == invalid)
    }

    @Test("Identical advertised issuers count once; different spellings are different issuers")
    func duplicates() async throws {
        let (issuer, legacy) = (Fixture.newIssuer, Fixture.legacyIssuer)
        let transport = ScriptedTransport([
            Fixture.resourceDocument([issuer, legacy, issuer, legacy]), Fixture.serverDocument(),
        ])
        let found = try await Fixture.discovery(transport).discoverAuthorizationServer(
            for: Fixture.resource,
            selection: Fixture.selection
        )
        #expect(found.source == .discovered(issuer: issuer))
        #expect(found.resourceMetadata?.advertisedIssuers == [issuer, legacy])
        #expect(found.resourceMetadata?.authorizationServers?.count == 4)
        let twoSpellings = ScriptedTransport([Fixture.resourceDocument([issuer, issuer + "/"])])
        let error = await discoveryError {
            try await Fixture.discovery(twoSpellings).discoverAuthorizationServer(
                for: Fixture.resource,
                selection: Fixture.selection
            )
        }
        #expect(error?.reason == .ambiguousIssuers)
    }

    @Test(
        "Issuer metadata: token_endpoint required, every *_endpoint present a non-empty string, each named",
        arguments: [
            ("token_endpoint", nil),
            ("token_endpoint", ""),
            ("token_endpoint", 5),
            ("token_endpoint", JSONValue.null),
            ("token_endpoint", "http://id.example.com/token"),
            ("token_endpoint", "https://10.0.0.8/token"),
            ("token_endpoint", "https://169.254.169.254/token"),
            ("authorization_endpoint", ""),
            ("authorization_endpoint", JSONValue.null),
            ("device_authorization_endpoint", ""),
            ("revocation_endpoint", ["https://id.example.com/revoke"]),
            ("registration_endpoint", ""),
            ("introspection_endpoint", JSONValue.null),
            ("pushed_authorization_request_endpoint", 0),
            ("issuer", nil),
            ("issuer", 1),
            ("grant_types_supported", "authorization_code"),
            ("authorization_response_iss_parameter_supported", "true"),
        ] as [(String, JSONValue?)]
    )
    func invalidMember(member: String, value: JSONValue?) async {
        let transport = ScriptedTransport([
            Fixture.resourceDocument([Fixture.newIssuer]), Fixture.serverDocument(extra: [member: value]),
        ])
        let error = await Fixture.failure(transport)
        #expect(error == DiscoveryError(.invalidMetadata(member: member), document: .authorizationServer))
        #expect(error?.message.contains(member) == true)
        #expect(error?.exitCode == 7)
    }

    @Test("A device-only server omits authorization_endpoint; each grant asks for the endpoint it needs")
    func deviceOnly() async throws {
        let transport = ScriptedTransport([
            Fixture.resourceDocument([Fixture.newIssuer]),
            Fixture.serverDocument(extra: [
                "authorization_endpoint": nil, "registration_endpoint": "https://id.example.com/register",
            ]),
        ])
        let found = try await Fixture.discovery(transport).discoverAuthorizationServer(
            for: Fixture.resource,
            selection: Fixture.selection
        )
        #expect(found.server.authorizationEndpoint == nil)
        #expect(try found.server.endpoint(for: .deviceAuthorization) == url("https://id.example.com/device"))
        let oauth = makeOAuth(ScriptedTransport([]), server: found.server)
        let error = await discoveryError { try oauth.authorizationRequest() }
        #expect(error?.reason == .capabilityUnavailable(.authorizationCode))
        #expect(error?.exitCode == 64)

        let noDevice = makeOAuth(ScriptedTransport([]), server: Fixture.fallback)
        let deviceError = await discoveryError { try await noDevice.requestDeviceAuthorization() }
        #expect(deviceError?.reason == .capabilityUnavailable(.deviceAuthorization))
    }

    @Test(
        "A server whose metadata says it always sends iss gets sign-ins that require it",
        arguments: [(JSONValue?.none, false), (.bool(false), false), (.bool(true), true)]
    )
    func issuerInResponses(value: JSONValue?, required: Bool) async throws {
        let transport = ScriptedTransport([
            Fixture.resourceDocument([Fixture.newIssuer]),
            Fixture.serverDocument(extra: ["authorization_response_iss_parameter_supported": value]),
        ])
        let found = try await Fixture.discovery(transport).discoverAuthorizationServer(
            for: Fixture.resource,
            selection: Fixture.selection
        )
        #expect(found.server.sendsIssuerInResponses == required)
        let request = try makeOAuth(ScriptedTransport([]), server: found.server).authorizationRequest()
        #expect(request.requiresIssuer == required)
    }
}

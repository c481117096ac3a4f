import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

@Suite("Discovery: advertised issuers must be origins, and their addresses are judged before each fetch")
struct DiscoveryAddressTests {
    typealias Fixture = DiscoveryFixture

    @Test(
        "An advertised issuer that is not an origin is refused, and nothing is fetched from it",
        arguments: [
            ("https://bc5.example.com/oauth", DiscoveryError.OriginPart.path),
            ("https://id.example.com/a/..", .path),
            ("https://id.example.com?tenant=1", .query),
            ("https://id.example.com#", .fragment),
            ("https://@id.example.com", .userinfo),
            ("https://id.example.com:", .port),
            ("https://id.example.com:0", .port),
            ("http://id.example.com", .scheme),
            ("id.example.com", .scheme),
            ("", .scheme),
        ]
    )
    func invalidIssuerOrigin(issuer: String, part: DiscoveryError.OriginPart) async {
        let transport = ScriptedTransport([Fixture.resourceDocument([issuer]), Fixture.serverDocument()])
        let resolver = StubResolver()
        let error = await Fixture.failure(transport, resolver: resolver)
        #expect(error == DiscoveryError(.invalidIssuerOrigin(part), document: .protectedResource))
        #expect(error?.exitCode == 7)
        #expect(transport.requests.count == 1)
        #expect(resolver.lookups == ["api.example.com"])
    }

    @Test(
        "An issuer whose name resolves to a refused address is never contacted",
        arguments: [
            (["10.0.0.1"], DiscoveryError.AddressRange.privateNetwork),
            (["172.16.5.4"], .privateNetwork),
            (["192.168.1.1"], .privateNetwork),
            (["127.0.0.1"], .loopback),
            (["100.64.0.1"], .sharedAddressSpace),
            (["169.254.169.254"], .linkLocal),
            (["0.0.0.0"], .specialPurpose),
            (["224.0.0.1"], .specialPurpose),
            (["192.0.2.10"], .specialPurpose),
            (["255.255.255.255"], .specialPurpose),
            (["::1"], .loopback),
            (["::"], .specialPurpose),
            (["fc00::1"], .privateNetwork),
            (["fd12:3456::1"], .privateNetwork),
            (["fe80::1"], .linkLocal),
            (["::ffff:10.0.0.1"], .privateNetwork),
            (["64:ff9b::7f00:1"], .loopback),
            (["2002:a9fe:a9fe::1"], .linkLocal),
            (["2001:db8::1"], .specialPurpose),
            (["93.184.215.14", "10.0.0.1"], .privateNetwork),
        ]
    )
    func refusedResolved(addresses: [String], range: DiscoveryError.AddressRange) async {
        let transport = ScriptedTransport([Fixture.resourceDocument([Fixture.newIssuer]), Fixture.serverDocument()])
        let resolver = StubResolver(["id.example.com": addresses])
        let error = await Fixture.failure(transport, resolver: resolver)
        #expect(error == DiscoveryError(.refusedAddress(range), document: .authorizationServer))
        #expect(error?.exitCode == 7)
        #expect(resolver.lookups == ["api.example.com", "id.example.com"])
        #expect(transport.requests.map(\.url.host) == ["api.example.com"])
    }

    @Test("An endpoint the metadata puts on another host is judged by address too, once per host")
    func refusedEndpointHost() async {
        let transport = ScriptedTransport([
            Fixture.resourceDocument([Fixture.newIssuer]),
            Fixture.serverDocument(extra: [
                "token_endpoint": "https://tok.example.net/token",
                "revocation_endpoint": "https://tok.example.net/revoke",
                "device_authorization_endpoint": "https://metadata.example.org/device",
            ]),
        ])
        let resolver = StubResolver(["metadata.example.org": ["169.254.169.254"]])
        let error = await Fixture.failure(transport, resolver: resolver)
        #expect(error == DiscoveryError(.refusedAddress(.linkLocal), document: .authorizationServer))
        #expect(resolver.lookups == ["api.example.com", "id.example.com", "tok.example.net", "metadata.example.org"])
        #expect(transport.requests.count == 2, "nothing was sent to the endpoints")
    }

    @Test(
        "An issuer spelled as a refused address is refused without a lookup, in any numeric spelling",
        arguments: [
            ("https://2130706433", DiscoveryError.AddressRange.loopback),
            ("https://0x7f.1", .loopback),
            ("https://127.1", .loopback),
            ("https://017700000001", .loopback),
            ("https://[::1]", .loopback),
            ("https://localhost", .loopback),
            ("https://api.localhost", .loopback),
            ("https://10.1.2.3", .privateNetwork),
            ("https://[::ffff:a00:1]", .privateNetwork),
            ("https://printer.local", .privateNetwork),
            ("https://169.254.169.254", .linkLocal),
            ("https://[fe80::1]", .linkLocal),
            ("http://127.0.0.1:9000", .loopback),
        ]
    )
    func refusedSpelling(issuer: String, range: DiscoveryError.AddressRange) async {
        let transport = ScriptedTransport([Fixture.resourceDocument([issuer]), Fixture.serverDocument(issuer: issuer)])
        let resolver = StubResolver()
        let error = await Fixture.failure(transport, resolver: resolver)
        #expect(error?.reason == .refusedAddress(range))
        #expect(resolver.lookups == ["api.example.com"])
        #expect(transport.requests.count == 1)
    }

    @Test("The caller's own resource is judged too: refused by address is a usage error, and not a fallback")
    func refusedResource() async {
        for (resource, resolver) in [
            ("https://api.example.com", StubResolver(["api.example.com": ["10.0.0.1"]])),
            ("https://127.0.0.1", StubResolver()),
        ] {
            let transport = ScriptedTransport([Fixture.resourceDocument([], resource: resource)])
            let error = await discoveryError {
                try await Fixture.discovery(transport, resolver: resolver).discoverAuthorizationServer(
                    for: resource,
                    selection: Fixture.selection
                )
            }
            #expect(error?.document == .protectedResource)
            #expect(error?.exitCode == 64)
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("The two overrides: loopback for development, private networks for internal deployments")
    func overrides() async throws {
        func discover(
            _ addresses: [String],
            loopback: Bool,
            privateNetworks: Bool
        ) async throws -> DiscoveredAuthorizationServer {
            let transport = ScriptedTransport([Fixture.resourceDocument([Fixture.newIssuer]), Fixture.serverDocument()])
            var discovery = Fixture.discovery(transport, resolver: StubResolver(["id.example.com": addresses]))
            discovery.allowsLoopback = loopback
            discovery.allowsPrivateNetworks = privateNetworks
            return try await discovery.discoverAuthorizationServer(for: Fixture.resource, selection: Fixture.selection)
        }
        #expect(
            try await discover(["127.0.0.1"], loopback: true, privateNetworks: false).source
                == .discovered(issuer: Fixture.newIssuer)
        )
        #expect(
            try await discover(["10.0.0.1"], loopback: false, privateNetworks: true).source
                == .discovered(issuer: Fixture.newIssuer)
        )
        #expect(
            try await discover(["100.64.0.1"], loopback: false, privateNetworks: true).server.issuer
                == Fixture.newIssuer
        )
        let privateWithLoopback = await discoveryError {
            try await discover(["10.0.0.1"], loopback: true, privateNetworks: false)
        }
        #expect(privateWithLoopback?.reason == .refusedAddress(.privateNetwork))
        let loopbackWithPrivate = await discoveryError {
            try await discover(["::1"], loopback: false, privateNetworks: true)
        }
        #expect(loopbackWithPrivate?.reason == .refusedAddress(.loopback))
        for never in ["169.254.169.254", "fe80::1", "0.0.0.0"] {
            let error = await discoveryError { try await discover([never], loopback: true, privateNetworks: true) }
            #expect(error?.reason == .refusedAddress(never == "0.0.0.0" ? .specialPurpose : .linkLocal))
        }
    }

    @Test("Plain http to a loopback issuer is accepted only with loopback allowed, as for the sandbox")
    func loopbackHTTP() async throws {
        let issuer = "http://127.0.0.1:9000"
        let transport = ScriptedTransport([Fixture.resourceDocument([issuer]), Fixture.serverDocument(issuer: issuer)])
        var discovery = Fixture.discovery(transport)
        discovery.allowsLoopback = true
        let found = try await discovery.discoverAuthorizationServer(for: Fixture.resource, selection: Fixture.selection)
        #expect(found.server.tokenEndpoint == url("http://127.0.0.1:9000/token"))
    }

    @Test("A name that does not resolve is a failed fetch of a network kind, final once chosen")
    func unresolvable() async {
        let transport = ScriptedTransport([Fixture.resourceDocument([Fixture.newIssuer])])
        let error = await discoveryError {
            try await Fixture.discovery(transport, resolver: FailingResolver()).authorizationServerMetadata(
                issuer: Fixture.newIssuer
            )
        }
        #expect(error == DiscoveryError(.fetchFailed(status: nil), document: .authorizationServer))
        #expect(error?.exitCode == 6)
        #expect(transport.requests.isEmpty)
    }

    @Test("The system resolver answers for this machine's name from the hosts file")
    func systemResolver() async throws {
        let addresses = try await SystemHostResolver().addresses(of: "localhost")
        #expect(addresses.contains { $0 == IPAddress("127.0.0.1") || $0 == IPAddress("::1") })
    }
}

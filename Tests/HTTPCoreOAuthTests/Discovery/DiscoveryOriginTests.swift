import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

@Suite("Discovery: caller origins are checked by the letter before anything is sent")
struct DiscoveryOriginTests {
    typealias Fixture = DiscoveryFixture

    @Test(
        "An origin is accepted as given, and its documents are at ORIGIN/.well-known/…, without its /",
        arguments: [
            ("https://api.example.com", "https://api.example.com"),
            ("https://api.example.com/", "https://api.example.com"),
            ("https://api.example.com:8443", "https://api.example.com:8443"),
            ("https://API.example.com", "https://API.example.com"),
            ("http://localhost:3000", "http://localhost:3000"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
            ("http://[::1]:3000", "http://[::1]:3000"),
            ("https://[2001:4860::1]", "https://[2001:4860::1]"),
        ]
    )
    func accepted(origin: String, root: String) throws {
        #expect(
            try OAuthDiscovery.protectedResourceMetadataURL(for: origin).absoluteString
                == root + "/.well-known/oauth-protected-resource"
        )
        #expect(
            try OAuthDiscovery.authorizationServerMetadataURL(for: origin).absoluteString
                == root + "/.well-known/oauth-authorization-server"
        )
    }

    static let refused: [(String, DiscoveryError.OriginPart)] = [
        ("http://api.example.com", .scheme),
        ("ftp://api.example.com", .scheme),
        ("api.example.com", .scheme),
        ("http://10.0.0.1", .scheme),
        ("http://127.0.0.1.nip.io", .scheme),
        ("https:api.example.com", .host),
        ("https://", .host),
        ("https://:443", .host),
        ("https://api.exa mple.com", .host),
        ("https://api.example.com%2Fevil", .host),
        ("https://[::1", .host),
        ("https://[not:an:address]", .host),
        ("https://api.example.com:", .port),
        ("https://api.example.com:0", .port),
        ("https://api.example.com:+1", .port),
        ("https://api.example.com:-1", .port),
        ("https://api.example.com:notaport", .port),
        ("https://api.example.com:65536", .port),
        ("https://api.example.com:0x1bb", .port),
        ("https://user@api.example.com", .userinfo),
        ("https://@api.example.com", .userinfo),
        ("https://user:pass@api.example.com", .userinfo),
        ("https://api.example.com/tenant/1", .path),
        ("https://api.example.com/a/..", .path),
        ("https://api.example.com/.", .path),
        ("https://api.example.com//", .path),
        ("https://api.example.com?", .query),
        ("https://api.example.com/?x=1", .query),
        ("https://api.example.com#", .fragment),
        ("https://api.example.com/#top", .fragment),
    ]

    @Test("A refused resource is a usage error naming the part; nothing is resolved or sent", arguments: refused)
    func refusedResource(origin: String, part: DiscoveryError.OriginPart) async {
        let transport = ScriptedTransport([Fixture.resourceDocument([])])
        let resolver = StubResolver()
        let error = await discoveryError {
            try await Fixture.discovery(transport, resolver: resolver).discoverAuthorizationServer(
                for: origin,
                selection: Fixture.selection
            )
        }
        #expect(error?.reason == .invalidOrigin(part))
        #expect(error?.code == .usage)
        #expect(error?.exitCode == APIError.Code.usage.exitCode)
        #expect(error?.description == "invalid origin (\(part.rawValue))")
        #expect(transport.requests.isEmpty)
        #expect(resolver.lookups.isEmpty)
    }

    @Test(
        "An issuer passed for direct discovery, or as the expected one, is held to the same rules",
        arguments: refused
    )
    func refusedIssuer(origin: String, part: DiscoveryError.OriginPart) async {
        let transport = ScriptedTransport([Fixture.serverDocument()])
        let direct = await discoveryError {
            try await Fixture.discovery(transport).authorizationServerMetadata(issuer: origin)
        }
        #expect(direct?.reason == .invalidOrigin(part))
        var selection = Fixture.selection
        selection.expectedIssuer = origin
        let expected = await discoveryError {
            try await Fixture.discovery(transport).discoverAuthorizationServer(
                for: Fixture.resource,
                selection: selection
            )
        }
        #expect(expected?.reason == .invalidOrigin(part))
        #expect(transport.requests.isEmpty)
    }

    @Test("The CLI's report of a usage error: its typed message and hint, exit 64")
    func reportsAsUsage() throws {
        let error = DiscoveryError(.invalidOrigin(.fragment))
        let reported = error.apiError
        #expect(reported.code == .usage)
        #expect(reported.exitCode == 64)
        #expect(reported.message == error.message)
        #expect(reported.message.contains("fragment"))
        #expect(reported.hint == error.hint)
        #expect((reported.cause as? DiscoveryError) == error)
    }
}

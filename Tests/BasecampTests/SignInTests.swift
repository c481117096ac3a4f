import Basecamp
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Signing in to Basecamp: presets, User-Agent, authorization.json")
struct SignInTests {
    @Test(
        "A User-Agent must name an app and a contact",
        arguments: [
            ("MyApp (me@example.com)", true), ("Acme Reports/2.1 (https://acme.example/support)", true),
            ("tool (+https://github.com/o/r)", true), ("MyApp", false), ("MyApp (swift-api-sdks)", false),
            ("me@example.com", false), ("", false), ("App (a@b)", false), ("App\r\nX-Evil: 1 (a@b.co)", false),
            (String(repeating: "a", count: 510) + " a@b.co", false),
        ]
    )
    func userAgent(value: String, valid: Bool) async throws {
        if valid {
            #expect(try BasecampUserAgent(value).value == value)
        } else {
            let error = await expectAPIError(.usage) { _ = try BasecampUserAgent(value) }
            #expect(error?.hint?.contains("MyApp (me@example.com)") == true)
        }
    }

    @Test("BasecampClient refuses a User-Agent without a contact")
    func clientRefusesAgent() async {
        let error = await expectAPIError {
            _ = try BasecampClient(accessToken: "t", userAgent: "MyApp", transport: ScriptedTransport([]))
        }
        #expect(error?.code == .usage)
    }

    @Test("BASECAMP_USER_AGENT is read and checked; a tool without one names the signed-in user's email")
    func environmentAndTools() async throws {
        #expect(try BasecampUserAgent.fromEnvironment([:]) == nil)
        #expect(
            try BasecampUserAgent.fromEnvironment(["BASECAMP_USER_AGENT": "Me (me@example.com)"])?.value
                == "Me (me@example.com)"
        )
        let error = await expectAPIError {
            _ = try BasecampUserAgent.fromEnvironment(["BASECAMP_USER_AGENT": "nobody"])
        }
        #expect(error?.message.hasPrefix("BASECAMP_USER_AGENT:") == true)
        let tool = try BasecampUserAgent.forTool("basecamp/0.1.0 (swift-api-sdks)", contact: "me@example.com")
        #expect(tool.value == "basecamp/0.1.0 (swift-api-sdks; me@example.com)")
        #expect(
            try BasecampUserAgent.forTool("basecamp/0.1.0", contact: "me@example.com").value
                == "basecamp/0.1.0 (me@example.com)"
        )
        #expect(
            try BasecampUserAgent.forTool(
                "basecamp/0.1.0",
                contact: "me@example.com",
                override: "Ops (ops@acme.example)"
            )
            .value == "Ops (ops@acme.example)"
        )
        let noContact = await expectAPIError(.usage) {
            _ = try BasecampUserAgent.forTool("basecamp/0.1.0 (swift-api-sdks)", contact: nil)
        }
        #expect(noContact?.message.contains("names no contact") == true)
        #expect(!tool.value.contains("OWNER"))
        #expect(try BasecampUserAgent(app: "Acme", contact: "ops@acme.example").value == "Acme (ops@acme.example)")
    }

    @Test("The Launchpad preset: its endpoints and the drafts' spelling")
    func launchpadPreset() throws {
        let server = BasecampOAuth.launchpad()
        #expect(server.authorizationEndpoint?.absoluteString == "https://launchpad.37signals.com/authorization/new")
        #expect(server.tokenEndpoint.absoluteString == "https://launchpad.37signals.com/authorization/token")
        #expect(server.tokenRequestStyle == .legacyType)
        #expect(server.deviceAuthorizationEndpoint == nil)
        let local = BasecampOAuth.launchpad(at: try #require(URL(string: "http://127.0.0.1:9/launchpad/")))
        #expect(local.tokenEndpoint.absoluteString == "http://127.0.0.1:9/launchpad/authorization/token")
        #expect(
            try BasecampOAuth.resource(for: try #require(URL(string: "https://3.basecampapi.com/999/")))
                == "https://3.basecampapi.com"
        )
        #expect(
            try BasecampOAuth.resource(for: try #require(URL(string: "http://127.0.0.1:9/basecamp?x#y")))
                == "http://127.0.0.1:9"
        )
    }

    private func discover(
        _ steps: [ScriptedTransport.Step],
        expected: String? = nil
    ) async throws -> DiscoveredAuthorizationServer {
        let transport = ScriptedTransport(steps)
        return try await BasecampOAuth.discoverAuthorizationServer(
            expectedIssuer: expected,
            network: OAuthNetwork(
                transport: transport,
                timeSource: TestClock(mode: .manual),
                userAgent: "T (t@example.com)",
                resolver: PublicResolver()
            )
        )
    }

    /// Every name is a public address: these tests never look names up.
    private struct PublicResolver: HostResolver {
        func addresses(of host: String) async throws -> [IPAddress] { [IPAddress("93.184.215.14")].compactMap { $0 } }
    }

    private static func advertised(_ servers: [String]) -> ScriptedTransport.Step {
        .json(["resource": "https://3.basecampapi.com", "authorization_servers": .array(servers.map(JSONValue.string))])
    }

    private static let newServer: ScriptedTransport.Step = .json([
        "issuer": "https://id.37signals.example", "token_endpoint": "https://id.37signals.example/token",
        "authorization_endpoint": "https://id.37signals.example/authorize",
    ])

    @Test("Basecamp's issuer rule: the one non-Launchpad issuer, else Launchpad, never a guess")
    func issuerRule() async throws {
        let chosen = try await discover([
            Self.advertised([BasecampOAuth.launchpadIssuer, "https://id.37signals.example"]), Self.newServer,
        ])
        #expect(chosen.source == .discovered(issuer: "https://id.37signals.example"))
        #expect(chosen.server.tokenRequestStyle == .standard)

        for steps in [[Self.advertised([BasecampOAuth.launchpadIssuer])], [Self.advertised([])], [.status(404)]] {
            let found = try await discover(steps)
            #expect(found.server == BasecampOAuth.launchpad())
        }
        let ambiguous = await #expect(throws: DiscoveryError.self) {
            _ = try await discover([Self.advertised(["https://a.example", "https://b.example"])])
        }
        #expect(ambiguous?.reason == .ambiguousIssuers)
        let expectedMissing = await #expect(throws: DiscoveryError.self) {
            _ = try await discover([Self.advertised(["https://a.example"])], expected: "https://id.37signals.example")
        }
        #expect(expectedMissing?.reason == .expectedIssuerUnavailable)
    }

    @Test("The issuer preset comes from HTTPCoreOAuth alone; the SDK's names forward to it")
    func presetForwarding() async throws {
        #expect(BasecampOAuth.launchpad() == AuthorizationServer.launchpad())
        #expect(BasecampOAuth.launchpadIssuer == AuthorizationServer.launchpadIssuer)
        let selection = BasecampOAuth.issuerSelection(expectedIssuer: "https://id.37signals.example")
        let preset = IssuerSelection.basecamp(expectedIssuer: "https://id.37signals.example")
        #expect(selection.expectedIssuer == preset.expectedIssuer)
        #expect(selection.legacyIssuers == preset.legacyIssuers)
        #expect(selection.fallback == preset.fallback)
        #expect(preset.legacyIssuers.contains("https://launchpad.37signals.com"))
        // Launchpad advertised, and only it: Launchpad, said so.
        let found = try await discover([Self.advertised([BasecampOAuth.launchpadIssuer])])
        #expect(found.isLegacyLaunchpad)
        #expect(found.source == .fallback(.noAuthorizationServerAdvertised))
    }

    @Test("authorization.json: identity, every account, the Basecamp ones, and where their API lives")
    func authorizationDocument() async throws {
        let transport = ScriptedTransport([
            .json([
                "expires_at": "2024-07-01T12:00:00.000Z",
                "identity": [
                    "id": 9_999_999, "first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com",
                ],
                "accounts": [
                    [
                        "product": "bc3", "id": 999_999_999, "name": "Acme",
                        "href": "https://3.basecampapi.com/999999999", "app_href": "https://3.basecamp.com/999999999",
                    ],
                    [
                        "product": "hey", "id": 1, "name": "HEY", "href": "https://app.hey.com",
                        "app_href": "https://app.hey.com",
                    ],
                ],
            ])
        ])
        let basecamp = try makeBasecamp(transport)
        let authorization = try await basecamp.authorization()
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://launchpad.37signals.com/authorization.json")
        #expect(request.header("Authorization") == "Bearer \(testToken)")
        #expect(request.header("User-Agent") == "BasecampTests (tests@example.com)")
        #expect(authorization.identity.firstName == "Ada")
        #expect(authorization.accounts.count == 2)
        #expect(authorization.basecampAccounts.map(\.id) == [999_999_999])
        #expect(authorization.basecampAccounts.first?.apiBaseURL?.absoluteString == "https://3.basecampapi.com")
        #expect(authorization.expiresAt == Date(timeIntervalSince1970: 1_719_835_200))
    }
}

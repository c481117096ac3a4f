import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

/// A resolver that answers from a table, public by default, and records every name asked.
final class StubResolver: HostResolver {
    private let table: [String: [IPAddress]]
    private let asked = Locked<[String]>([])

    /// A public address, for names the table does not list.
    static let publicAddress = IPAddress("93.184.215.14")

    init(_ table: [String: [String]] = [:]) {
        self.table = table.mapValues { $0.compactMap(IPAddress.init) }
    }

    /// The names asked, in order.
    var lookups: [String] { asked.withLock { $0 } }

    func addresses(of host: String) async throws -> [IPAddress] {
        asked.withLock { $0.append(host) }
        if let addresses = table[host] { return addresses }
        return [Self.publicAddress].compactMap { $0 }
    }
}

/// A resolver for which no name resolves.
struct FailingResolver: HostResolver {
    func addresses(of host: String) async throws -> [IPAddress] {
        throw APIError.network(APIError.Details(message: "No such host."))
    }
}

/// Runs `body` and returns the ``DiscoveryError`` it throws, recording an issue otherwise.
func discoveryError<Value>(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Value
) async -> DiscoveryError? {
    do {
        _ = try await body()
        Issue.record("expected a DiscoveryError, got a value", sourceLocation: sourceLocation)
    } catch let error as DiscoveryError {
        return error
    } catch {
        Issue.record("expected a DiscoveryError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Documents and a discovery client on a scripted transport, a manual clock and a stub resolver.
enum DiscoveryFixture {
    static let resource = "https://api.example.com"
    static let newIssuer = "https://id.example.com"
    static let legacyIssuer = "https://legacy.example.com"
    static let fallback = AuthorizationServer(
        authorizationEndpoint: url("https://legacy.example.com/authorize"),
        tokenEndpoint: url("https://legacy.example.com/token"),
        tokenRequestStyle: .legacyType
    )
    static let selection = IssuerSelection(legacyIssuers: [legacyIssuer], fallback: fallback)

    static func resourceDocument(_ servers: [String]?, resource: String = resource) -> ScriptedTransport.Step {
        var body: [String: JSONValue] = ["resource": .string(resource)]
        if let servers { body["authorization_servers"] = .array(servers.map(JSONValue.string)) }
        return .json(.object(body))
    }

    static func resourceDocument(rawServers: JSONValue) -> ScriptedTransport.Step {
        .json(["resource": .string(resource), "authorization_servers": rawServers])
    }

    static func serverDocument(issuer: String = newIssuer, extra: [String: JSONValue?] = [:]) -> ScriptedTransport.Step
    {
        let root = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        var body: [String: JSONValue] = [
            "issuer": .string(issuer),
            "authorization_endpoint": .string(root + "/authorize"),
            "token_endpoint": .string(root + "/token"),
            "device_authorization_endpoint": .string(root + "/device"),
            "grant_types_supported": ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
        ]
        for (key, value) in extra { body[key] = value }
        return .json(.object(body))
    }

    static func discovery(
        _ transport: ScriptedTransport,
        resolver: any HostResolver = StubResolver(),
        clock: TestClock = TestClock(mode: .manual)
    ) -> OAuthDiscovery {
        OAuthDiscovery(
            network: OAuthNetwork(
                transport: transport,
                timeSource: clock,
                userAgent: "Tests (t@example.com)",
                resolver: resolver
            )
        )
    }

    /// The error resource-first discovery of ``resource`` ends with.
    static func failure(
        _ transport: ScriptedTransport,
        resolver: any HostResolver = StubResolver(),
        selection: IssuerSelection = selection,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> DiscoveryError? {
        await discoveryError(sourceLocation: sourceLocation) {
            try await discovery(transport, resolver: resolver).discoverAuthorizationServer(
                for: resource,
                selection: selection
            )
        }
    }
}

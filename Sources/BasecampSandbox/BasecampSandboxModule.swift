public import APISandbox
public import Foundation
import HTTPTypes
public import Hummingbird

/// The Basecamp 3 API, played by the loopback ``APISandbox/Sandbox``.
///
/// Mount it and point the SDK (or `basecamp --base-url`) at `{sandbox}/basecamp`:
///
/// ```swift
/// let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [BasecampSandboxModule()]))
/// let config = BasecampConfig(baseURL: sandbox.baseURL.appending(path: "basecamp"))
/// let basecamp = try BasecampClient(accessToken: "any", userAgent: "Demo (me@example.com)", config: config)
/// let projects = try await basecamp.forAccount(BasecampSandboxSeed.accountID).projects.list()
/// ```
///
/// Every one of the Spec's 250 operations answers. Projects, people, to-do sets, to-do lists,
/// to-dos, message boards, messages and comments are stateful (see ``BasecampSandboxSeed`` for
/// the account it starts with); the rest answer with the Spec's example for their response and
/// their success status. Any non-empty bearer token is accepted; none is `401`.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct BasecampSandboxModule: SandboxModule {
    /// Where the API is mounted unless told otherwise.
    public static let defaultBasePath = "/basecamp"
    /// The seeded account's id as it appears in paths.
    public static let defaultAccountID = String(BasecampSandboxSeed.accountID)

    /// The path prefix of every route, e.g. `/basecamp`.
    public let basePath: String
    /// The file the account's data is read from at start and written to after each change, so
    /// separate processes share it; `nil` keeps everything in memory.
    public let stateFile: URL?
    /// Tokens answered with `401`, for testing what a client does with a revoked token.
    public let rejectedTokens: Set<String>

    /// Creates the module.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix; several copies can be mounted under different prefixes.
    ///   - stateFile: Where to keep the account's data between runs; created on the first change.
    ///     A missing or unreadable file starts from the seeded account.
    ///   - rejectedTokens: Bearer tokens to refuse with `401`; every other non-empty one is accepted.
    public init(basePath: String = defaultBasePath, stateFile: URL? = nil, rejectedTokens: Set<String> = []) {
        self.basePath = basePath
        self.stateFile = stateFile
        self.rejectedTokens = rejectedTokens
    }

    /// Adds `{basePath}/**` for every method; the Spec's path templates decide what exists.
    public func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        let server = BasecampServer(
            basePath: basePath,
            store: AccountStore(stateFile: stateFile),
            rejectedTokens: rejectedTokens
        )
        let group = router.group(RouterPath(basePath))
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
            group.on("**", method: method) { request, _ in
                try await server.handle(request)
            }
        }
    }
}

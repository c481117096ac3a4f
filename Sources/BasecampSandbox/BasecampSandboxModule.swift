public import APISandbox
public import Foundation
public import HTTPCore
public import Hummingbird

/// The Basecamp 3 API, played by the loopback ``APISandbox/Sandbox``: mount it and point the SDK
/// (or `basecamp --base-url`) at `{sandbox}/basecamp`.
///
/// Every one of the Spec's 250 operations answers. What a user can create is kept (see ``BasecampSandboxSeed`` for the
/// account it starts with); the rest (``cannedOperations``) answer the Spec's example, marked `X-Sandbox-Example:
/// true`. It also mounts a ``BasecampSandboxAuthorization``, so the sandbox can be signed in to for real. In your own
/// tests, mount it, let your code call it, then read what it did with ``recordings()``.
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
    public private(set) var stateFile: URL?
    /// The account read from ``stateFile``, shared by every sandbox the module is mounted on.
    private var savedStore: AccountStore?
    /// Tokens answered with `401`, for testing what a client does with a revoked token.
    public let rejectedTokens: Set<String>
    /// The authorization servers mounted with the API, whose tokens the API checks.
    public let authorization: BasecampSandboxAuthorization
    /// The server of the sandbox this module was last mounted on, for ``recordings()`` and the webhook
    /// deliveries; shared by copies of the module, as ``APISandbox/SandboxConfiguration`` keeps one.
    private let mounted = Locked<BasecampServer?>(nil)
    private var server: BasecampServer? { mounted.withLock { $0 } }

    /// What deliveries are signed with for a webhook created without the sandbox's own `secret` member.
    public static let defaultWebhookSecret = "sandbox-webhook-secret"
    /// The pauses before each retry of a failed webhook delivery (three retries).
    public static let defaultWebhookRetryDelays: [Duration] = [.milliseconds(500), .seconds(2), .seconds(10)]
    /// The pauses before each retry of a failed webhook delivery; one retry per element.
    public var webhookRetryDelays = defaultWebhookRetryDelays
    /// How long a webhook receiver has to answer one delivery.
    public var webhookTimeout: Duration = .seconds(10)
    /// Basecamp's rate limit, per account and address: ``APISandbox/SandboxRateLimit/basecamp`` unless
    /// changed; `rateLimiter.setLimit(nil)` switches it off (copies of the module share it).
    public let rateLimiter = SandboxRateLimiter(.basecamp)
    /// The largest file `POST /attachments.json` takes (streamed to disk); larger ones get `413`.
    public var maximumUploadBytes = BodyFiles.defaultMaximumBytes
    /// The clock every time the sandbox writes is read from (`created_at`, `updated_at`, events,
    /// deliveries), and that webhook retries wait on; the system's unless a test pins it.
    public var timeSource: any TimeSource = SystemTimeSource()

    /// Creates the module with the account in memory; each sandbox it is mounted on starts from the seed.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix; several copies can be mounted under different prefixes.
    ///   - rejectedTokens: Bearer tokens to refuse with `401`; every other non-empty one is accepted.
    ///   - authorization: The authorization servers to mount (Launchpad at `/launchpad`, the
    ///     resource-first server at the root); a default one unless given.
    public init(
        basePath: String = defaultBasePath,
        rejectedTokens: Set<String> = [],
        authorization: BasecampSandboxAuthorization = BasecampSandboxAuthorization()
    ) {
        self.basePath = basePath
        self.rejectedTokens = rejectedTokens
        self.authorization = authorization
    }

    /// Creates the module with the account kept in `stateFile`: read now, written after each change. A file that does
    /// not exist yet starts from the seed and is created on the first change.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix.
    ///   - stateFile: Where to keep the account's data between runs.
    ///   - rejectedTokens: Bearer tokens to refuse with `401`.
    ///   - authorization: The authorization servers to mount; a default one unless given.
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be read, is damaged,
    ///   is of another layout, or could not be written back; the file is never replaced.
    public init(
        basePath: String = defaultBasePath,
        stateFile: URL,
        rejectedTokens: Set<String> = [],
        authorization: BasecampSandboxAuthorization = BasecampSandboxAuthorization()
    ) throws {
        self.init(basePath: basePath, rejectedTokens: rejectedTokens, authorization: authorization)
        self.stateFile = stateFile
        self.savedStore = try AccountStore(stateFile: SandboxStateFile(stateFile))
    }

    /// Sets the rate limit from `BASECAMP_SANDBOX_RATE_LIMIT` (`off`, or `REQUESTS/SECONDS`) and
    /// ``maximumUploadBytes`` from `BASECAMP_SANDBOX_MAX_UPLOAD` (`2G`), where they are set.
    ///
    /// - Throws: ``APISandbox/SandboxSettingError`` naming a variable that is not understood.
    public mutating func configure(fromEnvironment environment: [String: String]) throws {
        let limit = try SandboxSettings.rateLimit("BASECAMP_SANDBOX_RATE_LIMIT", in: environment, default: .basecamp)
        rateLimiter.setLimit(limit)
        maximumUploadBytes = try SandboxSettings.byteCount(
            "BASECAMP_SANDBOX_MAX_UPLOAD",
            in: environment,
            default: maximumUploadBytes
        )
    }

    /// The server's clock as `BASECAMP_SANDBOX_CLOCK_SKEW` sets it, in seconds ahead of this
    /// machine's (negative: behind), for trying what a client does about a server whose clock is
    /// wrong; `nil` when unset. Give it to the module's ``timeSource``, to the authorization
    /// servers' `now`, and to ``APISandbox/SandboxConfiguration/clock`` for the `Date` header.
    ///
    /// - Throws: ``APISandbox/SandboxSettingError`` for a value that is not a number of seconds.
    public static func clock(fromEnvironment environment: [String: String]) throws -> SkewedClock? {
        let skew = try SandboxSettings.seconds("BASECAMP_SANDBOX_CLOCK_SKEW", in: environment, default: .zero)
        return skew == .zero ? nil : SkewedClock(offset: skew)
    }

    /// Adds a route for every path of the Spec under ``basePath``, and the authorization servers.
    public func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        let store = savedStore ?? AccountStore()
        let server = BasecampServer(module: self, store: store, state: state)
        mounted.withLock { $0 = server }
        AuthorizationRoutes(authorization: authorization, apiBasePath: basePath, store: store).register(on: router)
        server.register(on: router)
    }

    /// Adds the storage host Basecamp's `download_url`s point at: the API answers a download with
    /// a redirect to a signed URL there, which is served without credentials.
    public func registerSecondOrigin(on router: Router<SandboxRequestContext>, state: SandboxState) -> Bool {
        guard let server else { return false }
        server.registerStorage(on: router)
        return true
    }

    /// Returns once every webhook delivery queued so far has been delivered or has run out of
    /// retries, so a short-lived process does not exit with events still on their way.
    public func waitForWebhookDeliveries() async {
        await server?.webhooks.waitUntilIdle()
    }

    /// Gives each queued webhook delivery its first attempt and drops every retry, so a one-shot `basecamp --sandbox`
    /// command delivers the events it caused without waiting out the retry delays of a receiver that is gone; then
    /// removes the uploaded files of a sandbox without a state file. The attempts run at once, each within
    /// ``webhookTimeout``, so the wait is that long at most (plus a little for a busy machine to start them).
    public func stopping() async {
        guard let server else { return }
        defer { if server.store.stateFile == nil { server.files.removeAll() } }
        await server.webhooks.stop(within: webhookTimeout + .seconds(5))
    }

    /// Puts the account back to the seed, as `POST {basePath}/_sandbox/reset` does, so one
    /// sandbox can serve several tests; does nothing before the module is mounted.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the state file cannot be written.
    public func resetAccount() throws { try server?.store.reset() }

    /// Every recording of the account (to-dos, lists, messages, comments, documents, uploads, cards and the other kept
    /// kinds), in storage order, as the sandbox holds it now; empty before the module is mounted. With the module
    /// mounted on several sandboxes, the last one counts.
    public func recordings() -> [SandboxRecording] { recordings { $0.kind.isRecording } }

    /// The account's to-dos among ``recordings()``, for tests that check state a response cannot
    /// show (for example that a create was applied once, whatever the client was told).
    public func todos() -> [SandboxRecording] { recordings { $0.kind == .todo } }

    private func recordings(where include: (Record) -> Bool) -> [SandboxRecording] {
        guard let store = server?.store else { return [] }
        return store.snapshot().records.filter(include).map(SandboxRecording.init)
    }
}

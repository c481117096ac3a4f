public import Hummingbird
import NIOCore

/// A set of routes that an SDK sandbox adds to the shared server.
///
/// Each SDK gets the same loopback server, counters and fault injection as the HTTP layer's
/// tests, and only has to describe its own API. Mount routes under your own base path so modules
/// never collide:
///
/// ```swift
/// struct WidgetsModule: SandboxModule {
///     func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
///         let widgets = router.group("/widgets/v1")
///         widgets.get("items") { _, _ in "[]" }
///     }
/// }
/// ```
///
/// Routes registered here pass through the request counters and fault injection like the
/// built-in ones.
@available(macOS 14, iOS 17, tvOS 17, *)
public protocol SandboxModule: Sendable {
    /// Adds the module's routes; called once, before the server starts listening.
    ///
    /// - Parameters:
    ///   - router: The sandbox router; use `router.group(_:)` to claim a base path.
    ///   - state: Shared sandbox state, for recording writes or following scripts.
    func register(on router: Router<SandboxRequestContext>, state: SandboxState)

    /// Adds the module's routes on the sandbox's second origin (the same loopback address on
    /// another port, so another origin to a client), for an API that serves some things from a
    /// host of its own, such as files from a storage host; called once, before the server starts
    /// listening. ``SandboxState/secondOrigin`` says where it listens once the sandbox runs.
    ///
    /// - Returns: Whether the module added any; the second origin listens only when one did.
    func registerSecondOrigin(on router: Router<SandboxRequestContext>, state: SandboxState) -> Bool

    /// Called when the sandbox is about to stop, while it still serves: finish, briefly, work
    /// the module started off the request path (such as webhook deliveries).
    func stopping() async

    /// Query parameters whose values the sandbox's request log (`api-sandbox --verbose`) shows
    /// as `[REDACTED]`, because the API carries credentials in the query; OAuth's own names
    /// (`access_token`, `code`, `client_secret`…) are always hidden.
    var secretQueryParameters: [String] { get }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension SandboxModule {
    /// Nothing to finish.
    public func stopping() async {}

    /// No secrets of its own in queries.
    public var secretQueryParameters: [String] { [] }

    /// No routes on a second origin.
    public func registerSecondOrigin(on router: Router<SandboxRequestContext>, state: SandboxState) -> Bool {
        false
    }
}

/// The request context used by every sandbox route.
///
/// Hummingbird's `BasicRequestContext` forgets the connection once the request is decoded; the
/// sandbox keeps it so a fault can close or reset the socket itself, which no response can express.
@available(macOS 14, iOS 17, tvOS 17, *)
public struct SandboxRequestContext: RequestContext {
    /// Storage Hummingbird needs for every context.
    public var coreContext: CoreRequestContextStorage
    let channel: any Channel

    /// Called by Hummingbird for every request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// The client's address (`127.0.0.1`, `::1`), for what an API keys on the caller, such as
    /// a rate limit; empty when the connection has none.
    public var peerAddress: String {
        channel.remoteAddress?.ipAddress ?? ""
    }
}

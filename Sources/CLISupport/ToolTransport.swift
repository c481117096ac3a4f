import HTTPCore

#if os(Linux)
import HTTPCoreAsyncHTTPClient
#endif

/// The transport a command sends through when its environment brings none, and how to let it go
/// when the command ends.
///
/// On Linux that is AsyncHTTPClient (SwiftNIO): FoundationNetworking's URLSession polls while it
/// waits for a slow server (a core's worth of CPU), cannot reach an IPv6 literal host, resends
/// requests on dead connections by itself and rounds timeouts to whole seconds. On Apple
/// platforms URLSession is the system's own stack and is kept.
struct ToolTransport: Sendable {
    /// The transport.
    let transport: any HTTPTransport
    /// Shuts down what the transport owns; called once, when the command ends.
    let shutdown: @Sendable () async -> Void

    /// A transport for one command.
    static func make() -> ToolTransport {
        #if os(Linux)
        let transport = AsyncHTTPClientTransport()
        // A failed shutdown leaves nothing to clean up in a process that is about to exit.
        return ToolTransport(transport: transport, shutdown: { try? await transport.shutdown() })
        #else
        return ToolTransport(transport: URLSessionTransport.shared, shutdown: {})
        #endif
    }
}

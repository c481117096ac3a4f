public import Foundation
public import HTTPCore

/// Whatever receives the browser when the authorization server sends it back to the redirect
/// URI: the seam between a sign-in and the server that listens for it.
///
/// HTTPCoreOAuth needs no server of its own. A command-line tool uses
/// `HTTPCoreOAuthHummingbird`'s `LoopbackRedirectListener`, a small SwiftNIO server that follows
/// ``LoopbackRedirectRules``; an app with a server of its own conforms that instead.
///
/// ```swift
/// let request = try oauth.authorizationRequest(redirectURI: receiver.redirectURI)
/// print("Open \(request.url)")
/// let callback = try await receiver.waitForCallback(timeout: .seconds(300), accept: request.isCallback)
/// let credentials = try await oauth.exchange(callback: callback, for: request)
/// ```
public protocol AuthorizationRedirectReceiver: Sendable {
    /// The redirect URI to send in the authorization request.
    var redirectURI: URL { get }

    /// Waits for the browser to arrive with a callback that `accept` takes, and returns it
    /// whole (`http://127.0.0.1:PORT/callback?code=…&state=…`); callbacks `accept` refuses get
    /// an error page and the wait goes on.
    ///
    /// - Throws: ``HTTPCore/APIError/authRequired(_:)`` when `timeout` passes on `timeSource`;
    ///   `CancellationError` when the task is cancelled or the receiver closed.
    func waitForCallback(
        timeout: Duration,
        timeSource: any TimeSource,
        accept: @escaping @Sendable (URL) -> Bool
    ) async throws -> URL

    /// Stops receiving; a wait in progress ends with `CancellationError`. Calling it again is
    /// harmless.
    func close() async
}

import Foundation
public import HTTPCore
import HTTPTypes

extension OAuthClient {
    /// Asks the server for a device code and user code (RFC 8628 §3.1).
    ///
    /// - Parameters:
    ///   - scope: Space-separated scopes, if the provider uses them.
    ///   - resource: An RFC 8707 resource indicator to bind the tokens to.
    /// - Throws: ``DiscoveryError`` `capabilityUnavailable` when the server has no device
    ///   endpoint; ``APIError``: `api_error` when
    ///   it answers 503 (a server that does not offer the device grant yet), a malformed body,
    ///   a redirect or another failure; `usage` when it refuses the client or scope.
    public func requestDeviceAuthorization(
        scope: String? = nil,
        resource: String? = nil
    ) async throws
        -> DeviceAuthorization
    {
        let url = try server.endpoint(for: .deviceAuthorization)
        let endpoint = tokenEndpoint
        var form = endpoint.clientFields
        if let scope { form.append(OAuthParameter("scope", scope)) }
        if let resource { form.append(OAuthParameter("resource", resource)) }
        let request = OAuthRequest(
            method: .post,
            url: url,
            form: form,
            headers: endpoint.clientHeaders,
            operation: "device_authorization"
        )
        let response = try await OAuthHTTP(network: network).send(request)
        switch response.status {
        case 200:
            return try DeviceAuthorization.parse(response.body, receivedAt: network.timeSource.monotonicNow())
        case 503:
            throw APIError.apiError(
                APIError.Details(
                    message:
                        "The device sign-in is not available on this server (HTTP 503); it may not be enabled yet.",
                    hint: "Sign in with the browser instead, or try again later.",
                    httpStatus: 503
                )
            )
        default:
            throw endpoint.error(
                for: response,
                grant: .deviceCode,
                secrets: registration.clientSecret.map { [$0] } ?? [],
                endpointName: "device authorization endpoint"
            )
        }
    }

    /// Polls the token endpoint until the user approves, declines, or the code expires
    /// (RFC 8628 §3.4–3.5).
    ///
    /// Waits ``DeviceAuthorization/interval`` before each poll. `authorization_pending` polls
    /// again; `slow_down` adds 5 s to the interval for every later poll; a 429 waits its
    /// `Retry-After` (at least the interval). The flow ends when the next poll would come after
    /// the codes expire, measured on the network's monotonic clock from when they were issued.
    /// Cancelling the task ends it at once, during a wait or a request.
    ///
    /// - Parameter onUpdate: Told about every wait, and about the credentials at the end.
    /// - Throws: ``APIError``: `forbidden` when the user declined (`access_denied`),
    ///   `auth_required` when the codes expired (`expired_token`, or the deadline) or were
    ///   refused, `api_error` for any other status, a redirect or a malformed answer, `network`
    ///   when no answer arrived; `CancellationError`.
    public func pollDeviceAuthorization(
        _ authorization: DeviceAuthorization,
        onUpdate: @Sendable (DeviceFlowUpdate) -> Void = { _ in }
    ) async throws -> TokenCredentials {
        let clock = network.timeSource
        let http = OAuthHTTP(network: network)
        let endpoint = tokenEndpoint
        let secrets = [authorization.deviceCode] + (registration.clientSecret.map { [$0] } ?? [])
        let deadline = authorization.receivedAt + authorization.expiresIn
        var interval = authorization.interval
        var wait = interval
        while true {
            guard clock.monotonicNow() + wait <= deadline else { throw Self.expired(nil) }
            try await clock.sleep(for: wait)
            let response = try await http.send(
                endpoint.request(.deviceCode, fields: [OAuthParameter("device_code", authorization.deviceCode)])
            )
            if response.status == 200 {
                let credentials = try endpoint.credentials(from: response, grant: .deviceCode, secrets: secrets)
                onUpdate(.signedIn(credentials))
                return credentials
            }
            let oauth = OAuthErrorBody(body: response.body, secrets: secrets)
            switch (response.status, oauth.code) {
            case (429, _):
                let asked = response.headers[.retryAfter].flatMap { RetryAfter.parse($0, now: response.receivedAt) }
                wait = max(asked ?? interval, interval)
                onUpdate(.rateLimited(retryAfter: wait))
            case (400..<500, .authorizationPending?):
                wait = interval
                onUpdate(.waiting(nextPollIn: wait))
            case (400..<500, .slowDown?):
                interval += .seconds(5)
                wait = interval
                onUpdate(.slowedDown(interval: interval))
            case (400..<500, .expiredToken?):
                throw Self.expired(response.status)
            default:
                throw endpoint.error(for: response, grant: .deviceCode, secrets: secrets)
            }
        }
    }

    /// The whole device sign-in: requests codes, reports them with
    /// ``DeviceFlowUpdate/codeIssued(_:)`` for the caller to show, then polls.
    ///
    /// ```swift
    /// let credentials = try await oauth.deviceSignIn { update in
    ///     if case .codeIssued(let codes) = update {
    ///         print("Open \(codes.verificationURI) and enter \(codes.userCode)")
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: What ``requestDeviceAuthorization(scope:resource:)`` and
    ///   ``pollDeviceAuthorization(_:onUpdate:)`` throw.
    public func deviceSignIn(
        scope: String? = nil,
        resource: String? = nil,
        onUpdate: @Sendable (DeviceFlowUpdate) -> Void
    ) async throws -> TokenCredentials {
        let authorization = try await requestDeviceAuthorization(scope: scope, resource: resource)
        onUpdate(.codeIssued(authorization))
        return try await pollDeviceAuthorization(authorization, onUpdate: onUpdate)
    }

    /// The device sign-in as a sequence of updates that ends with
    /// ``DeviceFlowUpdate/signedIn(_:)``, or throws what ``deviceSignIn(scope:resource:onUpdate:)``
    /// throws. Ending the iteration early cancels the flow.
    ///
    /// ```swift
    /// for try await update in oauth.deviceSignInUpdates() {
    ///     switch update {
    ///     case .codeIssued(let codes): print("Enter \(codes.userCode) at \(codes.verificationURI)")
    ///     case .signedIn(let credentials): try await auth.setCredentials(credentials)
    ///     default: break
    ///     }
    /// }
    /// ```
    public func deviceSignInUpdates(
        scope: String? = nil,
        resource: String? = nil
    ) -> AsyncThrowingStream<
        DeviceFlowUpdate, any Error
    > {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    _ = try await deviceSignIn(scope: scope, resource: resource) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func expired(_ status: Int?) -> APIError {
        var details = APIError.Details(
            message: "The device code expired before the sign-in was approved.",
            hint: "Start the sign-in again and approve it sooner.",
            httpStatus: status
        )
        details.setOAuthCode(.expiredToken)
        return .authRequired(details)
    }
}

import Basecamp
import BasecampSandbox
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPTypes
import HTTPTypesFoundation

/// The checks that ask the servers: the API (and its clock), and the sign-in server.
extension Doctor {
    /// When the server said it was (its `Date` header) and when this machine thinks the answer
    /// was made (halfway through the request).
    struct ServerTime {
        var server: Date
        var local: Date
    }

    /// The most this machine's clock may differ from the server's before tokens and signed
    /// links misbehave.
    static let clockSkewLimit: TimeInterval = 60

    /// Asks the API for the signed-in person (or, with no account known, for its address): any
    /// answer shows it can be reached, a 2xx that the token works.
    func apiCheck(token: String?, agent: String?) async -> (check: DoctorCheck, timing: ServerTime?) {
        let id = "api"
        let base = connection.configuration.baseURL
        let host = base.host ?? base.absoluteString
        let account = accountID
        let url = account.map { base.appending(path: "\($0)/my/profile.json") } ?? base
        var request = HTTPRequest(method: .get, url: url)
        request.headerFields[.userAgent] = agent ?? connection.configuration.userAgent
        request.headerFields[.accept] = "application/json"
        if let token { request.headerFields[.authorization] = "Bearer \(token)" }
        let clock = context.environment.clock
        let (started, startedTicks) = (clock.now(), clock.monotonicNow())
        let response: TransportResponse
        do {
            response = try await connection.transport.send(
                request,
                body: nil,
                options: TransportOptions(timeout: connection.configuration.timeout)
            )
        } catch {
            let reason = (error as? TransportError)?.message ?? (error as? APIError)?.message ?? "\(error)"
            return (
                .fail(
                    id,
                    "The API at \(host) cannot be reached: \(reason)",
                    fix: "Check the network (and any proxy) and BASECAMP_BASE_URL."
                ), nil
            )
        }
        let elapsed = (clock.monotonicNow() - startedTicks).seconds
        let timing = response.response.headerFields[.date].flatMap(HTTPDate.parse).map {
            ServerTime(server: $0, local: started.addingTimeInterval(elapsed / 2))
        }
        let status = response.response.status.code
        let answered = "The API at \(host) answered in \(Int((elapsed * 1000).rounded())) ms"
        switch status {
        case 200..<300:
            return (.pass(id, answered + (token == nil ? "." : ", and accepted the token.")), timing)
        case 401 where token != nil:
            return (
                .fail(id, "The API at \(host) refused the token (HTTP 401).", fix: "Run '\(loginCommand)'."), timing
            )
        case 403...404 where status == 403 || account != nil:
            let fix = "Check --account or BASECAMP_ACCOUNT_ID ('basecamp accounts' lists yours)."
            return (
                .fail(id, "The API at \(host) refused account \(account ?? "") (HTTP \(status)).", fix: fix), timing
            )
        case 500...:
            let fix = "Try again later; if it lasts, check BASECAMP_BASE_URL and Basecamp's status page."
            return (.fail(id, "The API at \(host) answered with a server error (HTTP \(status)).", fix: fix), timing)
        default:
            guard token != nil else { return (.pass(id, answered + " (HTTP \(status)); no token to try."), timing) }
            let fix = "Check BASECAMP_BASE_URL: it should be the API's address."
            return (.fail(id, "The API at \(host) answered HTTP \(status).", fix: fix), timing)
        }
    }

    func clockCheck(_ timing: ServerTime?) -> DoctorCheck {
        let id = "clock"
        guard let timing else { return .skip(id, "The server's clock could not be read (no Date header came back).") }
        let skew = timing.server.timeIntervalSince(timing.local)
        let seconds = Int(abs(skew).rounded())
        guard abs(skew) <= Self.clockSkewLimit else {
            return .fail(
                id,
                "This machine's clock is \(seconds) s \(skew > 0 ? "behind" : "ahead of") the server's "
                    + "(more than \(Int(Self.clockSkewLimit)) s): token expiry is judged wrongly.",
                fix:
                    "Set the clock right: turn on network time (timedatectl set-ntp true; on macOS, Date & Time settings)."
            )
        }
        return .pass(id, "This machine's clock is within \(max(1, seconds)) s of the server's.")
    }

    func authorizationServerCheck(agent: String?) async -> DoctorCheck {
        let id = "authorization_server"
        let base = connection.configuration.baseURL
        let network = BasecampSession.network(
            connection: connection,
            userAgent: agent ?? connection.configuration.userAgent ?? "basecamp"
        )
        do {
            let server = try await Self.discoverSignInServer(context: context, apiBaseURL: base, network: network)
            return .pass(id, "The sign-in server answered discovery: \(server).")
        } catch {
            let failure = (error as? APIError) ?? (error as? any APIErrorConvertible)?.apiError
            return .fail(
                id,
                "Discovery of the sign-in server failed: \(failure?.message ?? "\(error)")",
                fix: "Check BASECAMP_BASE_URL; if it is right, the server's discovery documents are broken: "
                    + "tell its operator, and keep using a stored sign-in meanwhile."
            )
        }
    }

    /// The sign-in server the API at `apiBaseURL` points to, found as `auth login` finds it, in
    /// words. Doctor's only call into discovery, so a change to discovery's API touches only this.
    static func discoverSignInServer(
        context: CommandContext,
        apiBaseURL: URL,
        network: OAuthNetwork
    ) async throws -> String {
        let discovered = try await BasecampOAuth.discoverAuthorizationServer(
            apiBaseURL: apiBaseURL,
            launchpad: AuthLoginCommand.launchpadURL(context, apiBaseURL: apiBaseURL),
            network: network,
            allowsLoopback: context.usesSandbox || URLPolicy.isLoopback(host: apiBaseURL.host ?? "")
        )
        let tokenOrigin = BasecampSession.origin(of: discovered.server.tokenEndpoint).absoluteString
        switch discovered.source {
        case .discovered(let issuer):
            return "\(issuer) (resource-first)"
        case .fallback(let reason):
            return "Launchpad at \(tokenOrigin) (\(reason))"
        }
    }

    /// The account to ask about: `--account`, `BASECAMP_ACCOUNT_ID`, the sign-in's only one, or
    /// the sandbox's; `nil` when none is known or it is not digits.
    var accountID: String? {
        let sandbox = context.usesSandbox ? BasecampSandboxModule.defaultAccountID : nil
        let chosen =
            accountOption ?? context.toolVariable("ACCOUNT_ID") ?? storedLogin?.defaultAccount.map { String($0.id) }
            ?? sandbox
        guard let chosen, !chosen.isEmpty, chosen.count <= 20, chosen.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return chosen
    }
}

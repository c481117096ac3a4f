import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import HTTPCoreOAuth

extension AuthLoginCommand {
    /// The credentials piped to `--with-token`, registered as secrets before anything is printed.
    ///
    /// - Throws: `ValidationError` (exit 64) when stdin is a terminal (the token would be typed
    ///   where it shows), cannot be read, or holds no token.
    func readToken(_ context: CommandContext) async throws -> TokenCredentials {
        guard !context.environment.standardInputIsTerminal else {
            throw ValidationError(
                "--with-token reads the token from stdin, and stdin is a terminal: pipe it in, e.g. "
                    + "printf '%s\\n' \"$TOKEN\" | basecamp auth login --with-token."
            )
        }
        let data: Data
        do {
            data = try await context.standardInput(limit: TokenInput.maximumBytes)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ValidationError("--with-token could not read stdin.")
        }
        let credentials = try TokenInput.credentials(from: data, now: context.now)
        for secret in [credentials.accessToken, credentials.refreshToken].compactMap({ $0 }) {
            context.registerSecret(secret)
        }
        return credentials
    }

    /// The client a piped-in token is renewed with: the integration, as for any sign-in, when
    /// it comes with a refresh token; otherwise whichever is given, or none, since a token that
    /// cannot be refreshed is only ever sent as it is.
    ///
    /// - Throws: `ValidationError` (exit 64) for a refresh token with no client id.
    func tokenRegistration(
        _ context: CommandContext,
        for credentials: TokenCredentials
    ) throws
        -> OAuthClientRegistration
    {
        if credentials.refreshToken != nil { return try clientRegistration(context) }
        return (try? clientRegistration(context)) ?? OAuthClientRegistration(clientID: "")
    }
}

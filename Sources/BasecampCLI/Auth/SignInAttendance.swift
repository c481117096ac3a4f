import CLISupport
import Foundation
import HTTPCore

/// Whether a person is there to finish a sign-in, in a browser or on another device, and
/// whether this machine could show them a browser at all.
///
/// `BASECAMP_NONINTERACTIVE=1` says nobody is (CI, cron, an agent); `=0` says somebody is even
/// without a terminal (a wrapper that shows them what the command prints). Unset, nobody is
/// when stdin is not a terminal and no browser can be opened, since then the command would
/// only sit waiting.
struct SignInAttendance {
    /// Why nobody can be asked, or `nil` when somebody can.
    var unattendedReason: String?
    /// Whether a browser could open on this machine's screen: macOS, or elsewhere a `DISPLAY`,
    /// `WAYLAND_DISPLAY` or `BROWSER` set.
    var hasDisplay: Bool

    init(_ context: CommandContext, noBrowser: Bool) {
        let variables = context.environment.variables
        #if os(macOS)
        hasDisplay = true
        #else
        hasDisplay = ["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"].contains { context.variable($0) != nil }
        #endif
        switch context.toolVariable("NONINTERACTIVE")?.lowercased() {
        case "1", "true", "yes":
            unattendedReason = "BASECAMP_NONINTERACTIVE is set"
        case "0", "false", "no":
            unattendedReason = nil
        default:
            let browser = !noBrowser && hasDisplay && BrowserLauncher.launcher(variables: variables) != nil
            let terminal = context.environment.standardInputIsTerminal
            unattendedReason = terminal || browser ? nil : "stdin is not a terminal and no browser can be opened"
        }
    }

    /// `auth_required` (exit 3) for a sign-in nobody could finish, naming the command that needs
    /// no person.
    static func refusal(reason: String, context: CommandContext, profile: SignInProfile) -> APIError {
        APIError.authRequired(
            APIError.Details(
                message: "Signing in needs a person to approve it, and none can here: \(reason).",
                hint:
                    "Pipe a token to '\(BasecampSession.loginCommand(context, profile: profile, extra: " --with-token"))' "
                    + "instead (see its --help), or run '\(BasecampSession.loginCommand(context, profile: profile))' in a terminal."
            )
        )
    }
}

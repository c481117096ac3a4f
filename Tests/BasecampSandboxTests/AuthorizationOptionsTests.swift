import APISandbox
import BasecampSandbox
import Foundation
import Testing

/// `SandboxAuthorizationOptions.fromEnvironment`: every `BASECAMP_SANDBOX_*` sign-in variable,
/// and a value it does not understand refused the way the sandbox's other variables are.
@Suite("Sign-in options from the environment")
struct AuthorizationOptionsTests {
    @Test("Each variable sets its option; unset or empty leaves the default")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func readsEveryVariable() throws {
        let defaults = try SandboxAuthorizationOptions.fromEnvironment(["BASECAMP_SANDBOX_CLIENT_ID": ""])
        #expect(defaults.accessTokenLifetime == 1_209_600)
        #expect(defaults.clients.isEmpty && defaults.stateFile == nil)
        #expect(!defaults.requiresIssuedTokens && defaults.offersResourceFirstServer && defaults.offersDeviceGrant)
        #expect(defaults.rotatesRefreshTokens)

        let options = try SandboxAuthorizationOptions.fromEnvironment([
            "BASECAMP_SANDBOX_TOKEN_LIFETIME": "30",
            "BASECAMP_SANDBOX_CLIENT_ID": "app",
            "BASECAMP_SANDBOX_CLIENT_SECRET": "shh",
            "BASECAMP_SANDBOX_REDIRECT_URI": "http://127.0.0.1:8765/callback",
            "BASECAMP_SANDBOX_STRICT_TOKENS": "1",
            "BASECAMP_SANDBOX_LAUNCHPAD_ONLY": "true",
            "BASECAMP_SANDBOX_NO_DEVICE": "yes",
            "BASECAMP_SANDBOX_BROKEN_DISCOVERY": "0",
            "BASECAMP_SANDBOX_KEEP_REFRESH_TOKENS": "1",
            "BASECAMP_SANDBOX_STATE": "/tmp/bc.json",
        ])
        #expect(options.accessTokenLifetime == 30)
        #expect(options.clients == [.init(id: "app", secret: "shh", redirectURI: "http://127.0.0.1:8765/callback")])
        #expect(options.requiresIssuedTokens && !options.offersResourceFirstServer && !options.offersDeviceGrant)
        #expect(!options.servesBrokenDiscovery && !options.rotatesRefreshTokens)
        #expect(options.stateFile?.path == "/tmp/bc.json.auth.json")
        let own = try SandboxAuthorizationOptions.fromEnvironment([
            "BASECAMP_SANDBOX_AUTH_STATE": "/tmp/auth.json", "BASECAMP_SANDBOX_STATE": "/tmp/bc.json",
        ])
        #expect(own.stateFile?.path == "/tmp/auth.json")
    }

    @Test("A value that is not understood is a SandboxSettingError naming the variable, not ignored")
    @available(macOS 14, iOS 17, tvOS 17, *)
    func refusesBadValues() {
        let cases = [
            ("BASECAMP_SANDBOX_TOKEN_LIFETIME", "soon"), ("BASECAMP_SANDBOX_TOKEN_LIFETIME", "0"),
            ("BASECAMP_SANDBOX_STRICT_TOKENS", "please"), ("BASECAMP_SANDBOX_NO_DEVICE", "2"),
        ]
        for (variable, value) in cases {
            let error = #expect(throws: SandboxSettingError.self) {
                try SandboxAuthorizationOptions.fromEnvironment([variable: value])
            }
            #expect(error?.variable == variable && error?.value == value)
        }
    }
}

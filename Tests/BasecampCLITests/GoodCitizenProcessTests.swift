import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

@testable import BasecampCLI

/// What the built `basecamp` tells Basecamp about itself (its User-Agent) and what it tells the
/// user when Basecamp refuses a token.
@Suite("User-Agent and refused tokens with the built basecamp executable")
struct GoodCitizenProcessTests {
    static func run(_ arguments: [String], _ variables: [String: String]) async throws -> CommandResult {
        try await BuiltExecutable.run("basecamp", arguments: arguments, variables: variables)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A refused token shows Basecamp's own words and names where the token came from")
    func refusedToken() async throws {
        let revoked = "revoked-token-90ab"
        let module = BasecampSandboxModule(rejectedTokens: [revoked])
        try await withBasecampSandbox(module: module) { _, baseURL in
            let folder = SignInFolder()
            defer { folder.remove() }
            let variables = credentials(baseURL, token: revoked).merging(folder.variables) { $1 }
            let fromVariable = try await Self.run(["--json", "projects", "list"], variables)
            #expect(fromVariable.exitCode == 3)
            let report = try fromVariable.errorReport()
            #expect(report.message == "OAuth token invalid")
            #expect(report.httpStatus == 401)
            #expect(report.hint?.contains("BASECAMP_TOKEN") == true)
            #expect(!fromVariable.stderr.contains(revoked))

            var optionVariables = variables
            optionVariables["BASECAMP_TOKEN"] = nil
            let fromOption = try await Self.run(["--token", revoked, "projects", "list"], optionVariables)
            #expect(fromOption.exitCode == 3)
            #expect(fromOption.stderr.contains("OAuth token invalid"))
            #expect(fromOption.stderr.contains("--token"))
            #expect(!fromOption.stderr.contains("BASECAMP_TOKEN"))
            #expect(!fromOption.stderr.contains(revoked))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Signed in, the User-Agent names the tool, its version and the user's email; never a placeholder")
    func agentFromSignIn() async throws {
        try await Sandbox.withRunning { sandbox in
            let folder = SignInFolder()
            defer { folder.remove() }
            try await SignInCommandTests.storeSignIn(
                in: folder,
                sandbox: false,
                accounts: [.init(id: 111, name: "Honcho")]
            )
            var variables = folder.variables
            // The echo route answers with the request it got, headers included.
            variables["BASECAMP_BASE_URL"] = sandbox.baseURL.appending(path: "_test/echo").absoluteString
            let result = try await Self.run(["api", "GetProject", "--param", "projectId=1"], variables)
            #expect(result.exitCode == 0, "\(result.stderr)")
            let echo = try JSONValue(parsing: Data(result.stdout.utf8))
            let agent = echo["headers"]?["user-agent"]?[0]?.stringValue
            #expect(agent == "basecamp/0.1.0 (swift-api-sdks; victor@honchodesign.com)")
            #expect(agent?.contains("OWNER") == false)
        }
    }

    @Test("A bare token for the real API, no sign-in, no BASECAMP_USER_AGENT: refused before anything is sent")
    func bareTokenNeedsContact() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        // Sending anything to this address would end in a network error (exit 6), not 64.
        let variables = credentials("https://basecamp.invalid").merging(folder.variables) { $1 }
        let refused = try await Self.run(["--json", "projects", "list"], variables)
        #expect(refused.exitCode == 64, "\(refused.stderr)")
        let report = try refused.errorReport()
        #expect(report.code == "usage")
        #expect(report.hint?.contains("BASECAMP_USER_AGENT") == true)
    }
}

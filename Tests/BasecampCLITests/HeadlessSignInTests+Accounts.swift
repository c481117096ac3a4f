import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@testable import BasecampCLI

/// Which account a sign-in reaches, and what `doctor` sends when no contact is known.
extension HeadlessSignInTests {
    @Test("A token bound to one account (resource urn:bc:account:ID) reaches that listed account alone")
    func boundAccount() {
        let listed = [StoredLogin.Account(id: 11, name: "Studio"), StoredLogin.Account(id: 22, name: "Home")]
        #expect(StoredLogin.accounts(listed, boundTo: "urn:bc:account:22") == [listed[1]])
        #expect(StoredLogin.accounts(listed, boundTo: nil) == listed)
        #expect(StoredLogin.accounts(listed, boundTo: "urn:bc:account:33") == listed, "not listed: keep them all")
        #expect(StoredLogin.accounts(listed, boundTo: "https://3.basecampapi.com") == listed)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Signed in with a token bound to one of several accounts, commands work in that account")
    func boundTokenPicksItsAccount() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        try await withBasecampSandbox { _, baseURL in
            let sandbox = URLSessionTransport()
            // Launchpad lists a second Basecamp account the person can reach.
            let transport = ScriptedTransport { recorded in
                var answer = try await sandbox.send(recorded.request, body: recorded.body, options: recorded.options)
                guard recorded.url.path.hasSuffix("/authorization.json"),
                    case .object(var document)? = try? JSONValue(parsing: answer.body),
                    case .array(let accounts)? = document["accounts"]
                else { return answer }
                let other: JSONValue = ["product": "bc3", "id": 7_000_001, "name": "Other", "href": .string(baseURL)]
                document["accounts"] = .array(accounts + [other])
                answer.body = JSONValue.object(document).encoded()
                return answer
            }
            let account = BasecampSandboxSeed.accountID
            let response = #"{"access_token":"bound-0123456789","resource":"urn:bc:account:\#(account)"}"#
            let variables = folder.variables.merging([
                "BASECAMP_BASE_URL": baseURL, "BASECAMP_USER_AGENT": "tests (tests@example.com)",
            ]) { $1 }
            let login = await BasecampCLITests.basecamp(["auth", "login", "--with-token"], variables: variables) {
                $0.readStandardInput = { limit in Data(response.utf8.prefix(limit + 1)) }
                $0.transport = transport
            }
            #expect(login.exitCode == 0, "\(login.stderr)")
            let projects = await BasecampCLITests.basecamp(["--json", "projects", "list"], variables: variables) {
                $0.transport = transport
            }
            #expect(projects.exitCode == 0, "\(projects.stderr)")
            #expect(transport.requests.contains { $0.url.path.contains("/\(account)/projects") })

            // Refreshing the list keeps to the bound account, and commands still need no --account.
            let accounts = await BasecampCLITests.basecamp(["--json", "accounts"], variables: variables) {
                $0.transport = transport
            }
            #expect(accounts.exitCode == 0, "\(accounts.stderr)")
            let rows = try accounts.json([JSONValue].self)
            #expect(rows.map { $0["id"]?.intValue } == [account])
            #expect(rows.first?["default"] == true)
            let again = await BasecampCLITests.basecamp(["--json", "projects", "list"], variables: variables) {
                $0.transport = transport
            }
            #expect(again.exitCode == 0, "\(again.stderr)")
        }
    }

    @Test("doctor for the real Basecamp with no contact for the User-Agent sends nothing and says why")
    func doctorWithoutContact() async throws {
        let folder = SignInFolder()
        defer { folder.remove() }
        let transport = ScriptedTransport()
        let variables = folder.variables.merging([
            "BASECAMP_BASE_URL": "https://3.basecampapi.com", "BASECAMP_TOKEN": "doctor-token-444444",
        ]) { $1 }
        let doctor = await BasecampCLITests.basecamp(["--json", "doctor"], variables: variables) {
            $0.transport = transport
        }
        #expect(doctor.exitCode == 1, "\(doctor.stderr)")
        #expect(transport.requests.isEmpty)
        let status = try HeadlessSignInProcessTests.statuses(doctor)
        #expect(status["user_agent"] == "fail")
        for unsent in ["token_refresh", "api", "clock", "authorization_server"] {
            #expect(status[unsent] == "skip", "\(unsent)")
        }
    }
}

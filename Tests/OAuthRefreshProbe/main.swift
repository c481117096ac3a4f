// A test helper: one process of the two-process refresh test in BasecampSandboxTests.
//
// OAuthRefreshProbe CREDENTIALS_FILE CLIENT_ID TOKEN_URL API_URL BARRIER_DIRECTORY PROCESSES
//
// Waits until PROCESSES probes have reached the barrier, then sends one GET to API_URL with the
// credentials in CREDENTIALS_FILE, refreshing them as CLIENT_ID at TOKEN_URL (Launchpad's
// spelling) if they are about to expire. Prints `ok STATUS` and exits 0, or prints the error code and exits with
// the error's exit code. Never prints a token.

import Foundation
import HTTPCore
import HTTPCoreOAuth

let arguments = CommandLine.arguments
guard arguments.count == 7, let tokenURL = URL(string: arguments[3]), let apiURL = URL(string: arguments[4]),
    let processes = Int(arguments[6])
else {
    FileHandle.standardError.write(
        Data("usage: OAuthRefreshProbe FILE CLIENT_ID TOKEN_URL API_URL BARRIER_DIR N\n".utf8)
    )
    exit(64)
}

// Everyone starts the call at the same moment, so the refreshes would overlap without the lock.
let barrier = URL(fileURLWithPath: arguments[5])
try FileManager.default.createDirectory(at: barrier, withIntermediateDirectories: true)
_ = FileManager.default.createFile(atPath: barrier.appending(path: "\(getpid())").path, contents: nil)
while (try FileManager.default.contentsOfDirectory(atPath: barrier.path).count) < processes {
    usleep(1000)
}

let oauth = OAuthClient(
    registration: OAuthClientRegistration(clientID: arguments[2]),
    server: AuthorizationServer(authorizationEndpoint: nil, tokenEndpoint: tokenURL, tokenRequestStyle: .legacyType),
    network: OAuthNetwork(userAgent: "oauth-refresh-probe (tests@example.com)")
)
let auth = oauth.refreshingAuth(store: FileCredentialStore(url: URL(fileURLWithPath: arguments[1])))
do {
    let client = try Client(configuration: ClientConfiguration(baseURL: apiURL, retry: .none, auth: auth))
    let response = try await client.response(Endpoint<Data>(.get, ""))
    print("ok \(response.status.code)")
} catch let error as APIError {
    print("error \(error.code.rawValue)")
    exit(error.exitCode)
}

// A test helper: one process of the multi-process refresh tests (BasecampSandboxTests runs two
// on a credentials file; HTTPCorePostgresTests runs four on credentials in PostgreSQL).
//
// OAuthRefreshProbe STORE CLIENT_ID TOKEN_URL API_URL BARRIER_DIRECTORY PROCESSES [TASKS]
//
// STORE is a credentials file, or a postgres:// URL: then the credentials are the row of
// integration `basecamp` and identity PROBE_IDENTITY in schema PROBE_SCHEMA (variables).
// Reads the stored credentials into TASKS refreshing strategies (1 by default), waits until
// PROCESSES probes have reached the barrier, then runs a task for each at once, refreshing the
// credentials as CLIENT_ID at TOKEN_URL (Launchpad's spelling) if they are about to expire, and
// sending one GET to API_URL. Prints `ok STATUS` for one task or `ok N` (N tasks answered 200) for several and
// exits 0, or prints the first error's code and exits with its exit code. Never prints a token.

import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCorePostgres

let arguments = CommandLine.arguments
guard [7, 8].contains(arguments.count), let tokenURL = URL(string: arguments[3]),
    let apiURL = URL(string: arguments[4]), let processes = Int(arguments[6]),
    let tasks = arguments.count == 8 ? Int(arguments[7]) : 1
else {
    FileHandle.standardError.write(
        Data("usage: OAuthRefreshProbe FILE|POSTGRES_URL CLIENT_ID TOKEN_URL API_URL BARRIER_DIR N [TASKS]\n".utf8)
    )
    exit(64)
}

let variables = ProcessInfo.processInfo.environment
var database: PostgresDatabase?
let store: any CredentialStore
if arguments[1].hasPrefix("postgres://") {
    let shared = try PostgresDatabase(url: arguments[1], schema: variables["PROBE_SCHEMA"] ?? "httpcore")
    shared.start()
    database = shared
    store = PostgresCredentialStore(
        database: shared,
        integration: "basecamp",
        identity: variables["PROBE_IDENTITY"] ?? ""
    )
} else {
    store = FileCredentialStore(url: URL(fileURLWithPath: arguments[1]))
}
/// Basecamp, and so its sandbox, asks every request to name its app and a contact.
let agent = "oauth-refresh-probe (tests@example.com)"
let oauth = OAuthClient(
    registration: OAuthClientRegistration(
        clientID: arguments[2],
        // The secret the tests give their Launchpad client, which has no public clients.
        clientSecret: "sandbox-app-secret",
        redirectURI: URL(string: "http://127.0.0.1:9/callback")
    ),
    server: AuthorizationServer(authorizationEndpoint: nil, tokenEndpoint: tokenURL, tokenRequestStyle: .legacyType),
    network: OAuthNetwork(userAgent: agent)
)
// Every task reads the stored credentials before the barrier, so all of them hold the same
// expiring token however late a loaded machine runs a process past it.
var clients: [Client] = []
for _ in 0..<tasks {
    let auth = oauth.refreshingAuth(store: store)
    _ = await auth.credentials
    clients.append(
        try Client(configuration: ClientConfiguration(baseURL: apiURL, userAgent: agent, retry: .none, auth: auth))
    )
}

// Everyone starts the call at the same moment, so the refreshes would overlap without the lock.
let barrier = URL(fileURLWithPath: arguments[5])
try FileManager.default.createDirectory(at: barrier, withIntermediateDirectories: true)
_ = FileManager.default.createFile(atPath: barrier.appending(path: "\(getpid())").path, contents: nil)
while (try FileManager.default.contentsOfDirectory(atPath: barrier.path).count) < processes {
    usleep(1000)
}

do {
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for client in clients {
            group.addTask { try await client.response(Endpoint<Data>(.get, "")).status.code }
        }
        var statuses: [Int] = []
        for try await status in group { statuses.append(status) }
        return statuses
    }
    await database?.shutdown()
    print(tasks == 1 ? "ok \(statuses[0])" : "ok \(statuses.filter { $0 == 200 }.count)")
} catch let error as APIError {
    await database?.shutdown()
    print("error \(error.code.rawValue)")
    exit(error.exitCode)
}

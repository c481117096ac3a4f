// A test helper: one worker process of the fleet refresh test in HTTPCorePostgresTests.
//
// PostgresRefreshProbe DATABASE_URL SCHEMA IDENTITY CLIENT_ID TOKEN_URL API_URL BARRIER_DIRECTORY PROCESSES TASKS
//
// Waits until PROCESSES probes have reached the barrier, then runs TASKS tasks at once, each
// with its own refreshing strategy on the credentials stored in PostgreSQL under IDENTITY,
// refreshing them as CLIENT_ID at TOKEN_URL (Launchpad's spelling) when they are about to
// expire, and sending one GET to API_URL. Prints `ok N` (N tasks answered 200) and exits 0, or
// prints the first error's code and exits with its exit code. Never prints a token.

import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCorePostgres

let arguments = CommandLine.arguments
guard arguments.count == 10, let tokenURL = URL(string: arguments[5]), let apiURL = URL(string: arguments[6]),
    let processes = Int(arguments[8]), let tasks = Int(arguments[9])
else {
    FileHandle.standardError.write(
        Data("usage: PostgresRefreshProbe URL SCHEMA IDENTITY CLIENT_ID TOKEN_URL API_URL BARRIER_DIR N TASKS\n".utf8)
    )
    exit(64)
}

// Everyone starts at the same moment, so the refreshes would overlap without the lock.
let barrier = URL(fileURLWithPath: arguments[7])
try FileManager.default.createDirectory(at: barrier, withIntermediateDirectories: true)
_ = FileManager.default.createFile(atPath: barrier.appending(path: "\(getpid())").path, contents: nil)
while (try FileManager.default.contentsOfDirectory(atPath: barrier.path).count) < processes {
    usleep(1000)
}

let database = try PostgresDatabase(url: arguments[1], schema: arguments[2])
let store = PostgresCredentialStore(database: database, integration: "basecamp", identity: arguments[3])
let oauth = OAuthClient(
    registration: OAuthClientRegistration(clientID: arguments[4]),
    server: AuthorizationServer(authorizationEndpoint: nil, tokenEndpoint: tokenURL, tokenRequestStyle: .legacyType),
    network: OAuthNetwork(userAgent: "postgres-refresh-probe (tests@example.com)")
)
database.start()
do {
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<tasks {
            let client = try Client(
                configuration: ClientConfiguration(
                    baseURL: apiURL,
                    retry: .none,
                    auth: oauth.refreshingAuth(store: store)
                )
            )
            group.addTask { try await client.response(Endpoint<Data>(.get, "")).status.code }
        }
        var statuses: [Int] = []
        for try await status in group { statuses.append(status) }
        return statuses
    }
    await database.shutdown()
    print("ok \(statuses.filter { $0 == 200 }.count)")
} catch let error as APIError {
    await database.shutdown()
    print("error \(error.code.rawValue)")
    exit(error.exitCode)
}

public import APISandbox
public import Foundation
import HTTPTypes
public import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The Markbook Online API v1.5, played statefully by the loopback ``APISandbox/Sandbox``.
///
/// Mount it and point a `MarkbookClient` at `{sandbox}/markbook/api/v1.5`:
///
/// ```swift
/// let module = MarkbookSandboxModule()
/// let sandbox = try await Sandbox.start(configuration: SandboxConfiguration(modules: [module]))
/// let client = try MarkbookClient(
///     apiKey: MarkbookSandboxModule.Account.sandbox.apiKey,
///     username: MarkbookSandboxModule.Account.sandbox.username,
///     password: MarkbookSandboxModule.Account.sandbox.password,
///     baseURL: sandbox.baseURL.appending(path: MarkbookSandboxModule.defaultBasePath)
/// )
/// ```
///
/// It starts from the Spec's seed (`Spec/Markbook/sandbox-seed.json`: three markbooks, the
/// first a 10MAT class with eight students and five tasks) and the write actions really change
/// it: results, students (soft delete; `updatestudentclass` restores), classes (unique names),
/// whole markbooks (`-1`, `-2`, … when a name is taken). Sessions last 20 minutes and backups
/// become ready at 1 AM the next day, both on the clock passed as `now`, so a test can advance
/// time. Every answer is HTTP 200 with the API's envelope, as the real API sends.
/// ``MarkbookSandboxOptions`` make a backup ready, pending or absent at once and make result
/// writes fail, for tests of downloads and interrupted imports.
@available(macOS 14, iOS 17, tvOS 17, *)
public final class MarkbookSandboxModule: SandboxModule {
    /// Where the API is mounted unless told otherwise; the real API's path.
    public static let defaultBasePath = "/markbook/api/v1.5"
    /// The school's zone unless one is given: Australia/Sydney (UTC+10 where the system has no
    /// zone data).
    public static let defaultTimeZone =
        TimeZone(identifier: "Australia/Sydney") ?? TimeZone(secondsFromGMT: 36_000) ?? .gmt
    /// How long a session lasts.
    public static let sessionLifetime: TimeInterval = 20 * 60

    /// The session values and the API key travel in every action's query; the password too, if
    /// a client puts it there.
    public var secretQueryParameters: [String] { ["sessiontoken", "sessionkey", "apikey", "apipassword"] }
    /// How long a backup URL works after it is first returned.
    public static let backupRetention: TimeInterval = 60 * 60

    /// The account the sandbox accepts.
    public struct Account: Sendable, Hashable {
        /// The school's API key (32 characters, like a real one).
        public var apiKey: String
        /// The login user.
        public var username: String
        /// The login password.
        public var password: String

        /// Creates an account.
        public init(apiKey: String, username: String, password: String) {
            self.apiKey = apiKey
            self.username = username
            self.password = password
        }

        /// The stand-in account `markbook --sandbox` uses. Not a secret: it only opens the
        /// sandbox.
        public static let sandbox = Account(
            apiKey: "SANDBOXKEY0123456789abcdef0000ab",
            username: "sandbox.admin",
            password: "sandbox-password"
        )
    }

    /// What the sandbox has seen, for tests that prove what a response cannot show (one login
    /// for fifty calls, one create for one `ambiguous` failure).
    public struct Counters: Sendable, Hashable {
        /// Logins that opened a session.
        public var logins = 0
        /// Logins refused.
        public var failedLogins = 0
        /// Calls refused because the API key or session was not valid.
        public var rejectedSessions = 0
        /// Action requests received, by action (login excluded).
        public var requestsByAction: [String: Int] = [:]
        /// Writes that changed data, by action.
        public var appliedWritesByAction: [String: Int] = [:]
        /// Action requests answered with an `ERROR:` status other than a rejected session, by
        /// action. A client that sends only valid calls should see none; a `createstudent`
        /// here after unique student ids means a create reached the server twice.
        public var refusalsByAction: [String: Int] = [:]
        /// `putstudentresult` writes applied, by cell: a cell an import left unchanged has none.
        public var resultWritesByCell: [ResultCell: Int] = [:]
        /// `putstudentresult` requests failed on purpose by ``MarkbookSandboxOptions/ResultWriteFaults``.
        public var injectedResultFailures = 0
    }

    /// A student as the sandbox holds them, deleted ones included.
    public struct StudentRecord: Sendable, Hashable {
        /// The student's key.
        public var key: Int
        /// The school's student id.
        public var sid: String
        /// Family name.
        public var familyName: String
        /// Given name.
        public var givenName: String
        /// Preferred name.
        public var preferredName: String
        /// Gender as last sent.
        public var gender: String
        /// Class key.
        public var classKey: Int
        /// Whether soft-deleted.
        public var isDeleted: Bool
    }

    struct State {
        var world: SandboxWorld
        var counters = Counters()
        /// Every session token and key ever handed out, expired ones included.
        var issuedSessionValues: [String] = []
        var backupMode = MarkbookSandboxOptions.BackupMode.scheduled
        var backupHold: String?
        var resultFaults = ResultFaultState(.none)
        /// The ready backup ``MarkbookSandboxOptions/BackupMode/ready`` put in place, until a state
        /// file holds it.
        var unsavedBackup: SandboxWorld.Backup?

        init(world: SandboxWorld, options: MarkbookSandboxOptions, now: Date, issuedSessionValues: [String] = []) {
            self.world = world
            self.issuedSessionValues = issuedSessionValues
            setOptions(options, now: now)
        }

        mutating func setOptions(_ options: MarkbookSandboxOptions, now: Date) {
            backupMode = options.backup
            backupHold = options.backupHold
            resultFaults = ResultFaultState(options.resultWriteFaults)
            if options.backup == .ready {
                world.seedReadyBackup(now: now)
                unsavedBackup = world.backup
            }
        }

        /// Takes the school as a state file holds it, keeping this process's sessions and a ready
        /// backup not saved yet.
        mutating func adopt(_ saved: SandboxWorld) {
            let sessions = world.sessions
            world = saved
            world.sessions = sessions
            if let unsavedBackup { world.backup = unsavedBackup }
            unsavedBackup = nil
        }
    }

    /// The path prefix of every route.
    public let basePath: String
    /// The account logins must use, unless ``acceptsAnyCredentials``.
    public let account: Account
    /// Whether any non-empty user and password are accepted, with any API key of the real keys'
    /// length, 32 characters (the CLI's `--sandbox`, so real credentials in the environment do
    /// not get in the way).
    public let acceptsAnyCredentials: Bool
    /// The school's zone, for answer dates and the 1 AM backup build.
    public let timeZone: TimeZone

    /// The file the school's data is kept in, so separate processes share it: read at start, and
    /// read again and written under a lock shared by those processes for each request that reads
    /// or changes the school; `nil` keeps everything in memory.
    public var stateFile: URL? { savedWorld?.url }

    let now: @Sendable () -> Date
    let initialWorld: SandboxWorld
    let initialOptions: MarkbookSandboxOptions
    let savedWorld: SandboxStateFile?
    let state: NIOLockedValueBox<State>

    /// Creates the module with the Spec's seed, kept in memory.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix.
    ///   - account: The only credentials accepted (unless `acceptsAnyCredentials`).
    ///   - acceptsAnyCredentials: Accept any non-empty user and password, and any 32-character
    ///     API key.
    ///   - timeZone: The school's zone; Australia/Sydney by default.
    ///   - options: Backup mode and result-write faults; by default the real API's behaviour.
    ///   - now: The sandbox's clock; tests pass their test clock's `now()`.
    public convenience init(
        basePath: String = defaultBasePath,
        account: Account = .sandbox,
        acceptsAnyCredentials: Bool = false,
        timeZone: TimeZone = defaultTimeZone,
        options: MarkbookSandboxOptions = MarkbookSandboxOptions(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            basePath: basePath,
            account: account,
            acceptsAnyCredentials: acceptsAnyCredentials,
            timeZone: timeZone,
            options: options,
            now: now,
            stateFile: nil,
            savedWorld: nil
        )
    }

    /// Creates the module with the school kept in `stateFile`: read now, then read again and
    /// written under a lock for each request, so several processes can share one file and none
    /// loses another's change (sessions are not kept). A file that does not exist yet, or is
    /// empty, starts from the seed and is written on the first change.
    ///
    /// - Parameters:
    ///   - stateFile: Where to keep the school's data between runs.
    ///   - basePath: The path prefix.
    ///   - account: The only credentials accepted (unless `acceptsAnyCredentials`).
    ///   - acceptsAnyCredentials: Accept any non-empty user and password, and any 32-character
    ///     API key.
    ///   - timeZone: The school's zone; Australia/Sydney by default.
    ///   - options: Backup mode and result-write faults; by default the real API's behaviour.
    ///   - now: The sandbox's clock.
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be read, is damaged,
    ///   was written by another layout of the sandbox, or could not be written back; the file is
    ///   never replaced.
    public convenience init(
        stateFile: URL,
        basePath: String = defaultBasePath,
        account: Account = .sandbox,
        acceptsAnyCredentials: Bool = false,
        timeZone: TimeZone = defaultTimeZone,
        options: MarkbookSandboxOptions = MarkbookSandboxOptions(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let file = SandboxStateFile(stateFile)
        self.init(
            basePath: basePath,
            account: account,
            acceptsAnyCredentials: acceptsAnyCredentials,
            timeZone: timeZone,
            options: options,
            now: now,
            stateFile: file,
            savedWorld: try SavedSchool.load(from: file)
        )
    }

    private init(
        basePath: String,
        account: Account,
        acceptsAnyCredentials: Bool,
        timeZone: TimeZone,
        options: MarkbookSandboxOptions,
        now: @escaping @Sendable () -> Date,
        stateFile: SandboxStateFile?,
        savedWorld: SandboxWorld?
    ) {
        self.basePath = basePath
        self.account = account
        self.acceptsAnyCredentials = acceptsAnyCredentials
        self.timeZone = timeZone
        self.now = now
        let seed =
            (try? SandboxWorld(seed: Data(MarkbookSpecPayloads.seed.utf8)))
            ?? SandboxWorld(schoolName: "Sandbox Secondary College", users: [], markbooks: [])
        self.initialWorld = seed
        self.initialOptions = options
        self.savedWorld = stateFile
        self.state = NIOLockedValueBox(State(world: savedWorld ?? seed, options: options, now: now()))
    }

    // MARK: Routes

    /// Adds `GET {basePath}`, `POST {basePath}/authenticate.lc`, `POST {basePath}/post.lc`,
    /// `GET {basePath}/backups/{file}` and the test controls under ``testPath``.
    public func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        registerTestRoutes(on: router)
        router.get(RouterPath(basePath)) { request, _ in try await self.serve(request, path: "") }
        router.post(RouterPath(basePath + "/authenticate.lc")) { request, _ in
            try await self.serve(request, path: "authenticate.lc")
        }
        router.post(RouterPath(basePath + "/post.lc")) { request, _ in try await self.serve(request, path: "post.lc") }
        router.get(RouterPath(basePath + "/backups/:file")) { request, context in
            try await self.serve(request, path: "backups/" + (context.parameters.get("file") ?? ""), holding: state)
        }
    }

    private func serve(_ request: Request, path: String, holding sandbox: SandboxState? = nil) async throws -> Response
    {
        var request = request
        let body = try await request.collectBody(upTo: 16 * 1024 * 1024)
        let answer = respond(
            to: MarkbookSandboxRequest(
                method: request.method.rawValue,
                path: path,
                rawQuery: request.uri.query,
                body: Array(body.readableBytesView),
                apiAddress: "http://\(request.head.authority ?? "127.0.0.1")\(basePath)"
            )
        )
        var headers = HTTPFields()
        headers[.contentType] = answer.contentType
        var answerBody = ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        if let sandbox, answer.status == 200, let hold = state.withLockedValue({ $0.backupHold }) {
            answerBody = Self.body(answer.body, heldHalfwayBy: hold, in: sandbox)
        }
        return Response(status: HTTPResponse.Status(code: answer.status), headers: headers, body: answerBody)
    }

    /// `bytes` with the second half kept back until the test releases `hold`.
    private static func body(_ bytes: [UInt8], heldHalfwayBy hold: String, in sandbox: SandboxState) -> ResponseBody {
        ResponseBody { writer in
            let half = bytes.count / 2
            try await writer.write(ByteBuffer(bytes: bytes[..<half]))
            try await sandbox.waitForRelease(of: hold)
            try await writer.write(ByteBuffer(bytes: bytes[half...]))
            try await writer.finish(nil)
        }
    }
}

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
@available(macOS 14, iOS 17, tvOS 17, *)
public final class MarkbookSandboxModule: SandboxModule {
    /// Where the API is mounted unless told otherwise; the real API's path.
    public static let defaultBasePath = "/markbook/api/v1.5"
    /// How long a session lasts.
    public static let sessionLifetime: TimeInterval = 20 * 60
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

    private struct State {
        var world: SandboxWorld
        var counters = Counters()
        /// Every session token and key ever handed out, expired ones included.
        var issuedSessionValues: [String] = []
    }

    /// The path prefix of every route.
    public let basePath: String
    /// The account logins must use, unless ``acceptsAnyCredentials``.
    public let account: Account
    /// Whether any non-empty API key, user and password are accepted (the CLI's `--sandbox`,
    /// so real credentials in the environment do not get in the way).
    public let acceptsAnyCredentials: Bool
    /// The school's zone, for answer dates and the 1 AM backup build.
    public let timeZone: TimeZone

    /// The file the school's data is read from at start and written to after each change, so
    /// separate processes share it; `nil` keeps everything in memory.
    public var stateFile: URL? { savedWorld?.url }

    private let now: @Sendable () -> Date
    private let initialWorld: SandboxWorld
    private let savedWorld: SandboxStateFile?
    private let state: NIOLockedValueBox<State>

    /// Creates the module with the Spec's seed.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix.
    ///   - account: The only credentials accepted (unless `acceptsAnyCredentials`).
    ///   - acceptsAnyCredentials: Accept any non-empty credentials.
    ///   - timeZone: The school's zone; Australia/Sydney by default.
    ///   - now: The sandbox's clock; tests pass their test clock's `now()`.
    public convenience init(
        basePath: String = defaultBasePath,
        account: Account = .sandbox,
        acceptsAnyCredentials: Bool = false,
        timeZone: TimeZone = TimeZone(identifier: "Australia/Sydney") ?? TimeZone(secondsFromGMT: 36_000) ?? .gmt,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            basePath: basePath,
            account: account,
            acceptsAnyCredentials: acceptsAnyCredentials,
            timeZone: timeZone,
            now: now,
            stateFile: nil,
            savedWorld: nil
        )
    }

    /// Creates the module with the school kept in `stateFile`: read now, written after each
    /// change (sessions are not kept). A file that does not exist yet starts from the seed and
    /// is created on the first change.
    ///
    /// - Parameters:
    ///   - stateFile: Where to keep the school's data between runs.
    ///   - basePath: The path prefix.
    ///   - account: The only credentials accepted (unless `acceptsAnyCredentials`).
    ///   - acceptsAnyCredentials: Accept any non-empty credentials.
    ///   - timeZone: The school's zone; Australia/Sydney by default.
    ///   - now: The sandbox's clock.
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be read, is damaged,
    ///   was written by another layout of the sandbox, or could not be written back; the file is
    ///   never replaced.
    public convenience init(
        stateFile: URL,
        basePath: String = defaultBasePath,
        account: Account = .sandbox,
        acceptsAnyCredentials: Bool = false,
        timeZone: TimeZone = TimeZone(identifier: "Australia/Sydney") ?? TimeZone(secondsFromGMT: 36_000) ?? .gmt,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let file = SandboxStateFile(stateFile)
        self.init(
            basePath: basePath,
            account: account,
            acceptsAnyCredentials: acceptsAnyCredentials,
            timeZone: timeZone,
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
            (try? JSONDecoder().decode(SeedFile.self, from: Data(MarkbookSpecPayloads.seed.utf8)))?.world
            ?? SandboxWorld(schoolName: "Sandbox Secondary College", users: [], markbooks: [])
        self.initialWorld = seed
        self.savedWorld = stateFile
        self.state = NIOLockedValueBox(State(world: savedWorld ?? seed))
    }

    // MARK: Test controls

    /// A snapshot of the counters.
    public func counters() -> Counters {
        state.withLockedValue { $0.counters }
    }

    /// Ends every session on the server side, as a server restart or a timeout would.
    public func expireSessions() {
        state.withLockedValue { $0.world.sessions = [:] }
    }

    /// Restores the seed and forgets sessions, the backup and the counters (but not which
    /// session values were handed out). With a state file the seed is saved to it too.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the state file cannot be written; the
    ///   data is then left as it was.
    public func reset() throws {
        let world = initialWorld
        try state.withLockedValue { state in
            if let savedWorld { try SavedSchool.save(world, to: savedWorld) }
            state = State(world: world, issuedSessionValues: state.issuedSessionValues)
        }
    }

    /// Makes `world` the school's data, after saving it when a state file is in use and the
    /// data to keep changed; returns the failure to answer with when it could not be saved (the
    /// data is then left as it was).
    private func commit(_ world: SandboxWorld, to state: inout State) -> String? {
        if let savedWorld, SavedSchool(world) != SavedSchool(state.world) {
            do {
                try SavedSchool.save(world, to: savedWorld)
            } catch {
                return "ERROR:the sandbox could not save its data: \(error)"
            }
        }
        state.world = world
        return nil
    }

    /// A student as stored, deleted or not; `nil` when the markbook or student does not exist.
    public func student(markbookKey: Int, studentKey: Int) -> StudentRecord? {
        state.withLockedValue { state in
            guard let index = state.world.markbookIndex(markbookKey),
                let student = state.world.markbooks[index].students.first(where: { $0.key == studentKey })
            else { return nil }
            return Self.record(student)
        }
    }

    private static func record(_ student: SandboxWorld.Student) -> StudentRecord {
        StudentRecord(
            key: student.key,
            sid: student.sid,
            familyName: student.familyName,
            givenName: student.givenName,
            preferredName: student.preferredName,
            gender: student.gender,
            classKey: student.classKey,
            isDeleted: student.deleted
        )
    }

    /// Every student of a markbook as stored, deleted ones included, in the order they were
    /// added; empty when the markbook does not exist. Tests count records here to prove a create
    /// was applied once, whatever the client was told.
    public func students(markbookKey: Int) -> [StudentRecord] {
        state.withLockedValue { state in
            guard let index = state.world.markbookIndex(markbookKey) else { return [] }
            return state.world.markbooks[index].students.map(Self.record)
        }
    }

    /// A stored raw result text, or `nil` when there is none.
    public func result(markbookKey: Int, studentKey: Int, taskKey: Int) -> String? {
        state.withLockedValue { state in
            state.world.markbookIndex(markbookKey).flatMap { state.world.markbooks[$0].results[studentKey]?[taskKey] }
        }
    }

    /// The names of every markbook, in key order.
    public func markbookNames() -> [String] {
        state.withLockedValue { $0.world.markbooks.sorted { $0.key < $1.key }.map(\.name) }
    }

    /// The class names of a markbook.
    public func classNames(markbookKey: Int) -> [String] {
        state.withLockedValue { state in
            state.world.markbookIndex(markbookKey).map { state.world.markbooks[$0].classes.map(\.name) } ?? []
        }
    }

    /// The session values handed out so far, for tests that check none is ever shown.
    public func issuedSessionValues() -> [String] {
        state.withLockedValue { $0.issuedSessionValues }
    }

    // MARK: Routes

    /// Adds `GET {basePath}`, `POST {basePath}/authenticate.lc`, `POST {basePath}/post.lc` and
    /// `GET {basePath}/backups/{file}`.
    public func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
        router.get(RouterPath(basePath)) { request, _ in try await self.serve(request, path: "") }
        router.post(RouterPath(basePath + "/authenticate.lc")) { request, _ in
            try await self.serve(request, path: "authenticate.lc")
        }
        router.post(RouterPath(basePath + "/post.lc")) { request, _ in try await self.serve(request, path: "post.lc") }
        router.get(RouterPath(basePath + "/backups/:file")) { request, context in
            try await self.serve(request, path: "backups/" + (context.parameters.get("file") ?? ""))
        }
    }

    private func serve(_ request: Request, path: String) async throws -> Response {
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
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }

    // MARK: Answering

    /// Answers one request: the whole API, independent of the HTTP server.
    public func respond(to request: MarkbookSandboxRequest) -> MarkbookSandboxResponse {
        let now = now()
        switch (request.method, request.path) {
        case ("POST", "authenticate.lc"):
            return json(login(Parameters(request.form), now: now), request, now: now)
        case ("POST", "post.lc"):
            return json(post(Parameters(request.form), now: now), request, now: now)
        case ("GET", ""):
            return json(action(Parameters(request.query), now: now, apiAddress: request.apiAddress), request, now: now)
        case ("GET", let path) where path.hasPrefix("backups/"):
            return backupFile(String(path.dropFirst("backups/".count)), now: now)
        default:
            return MarkbookSandboxResponse(
                status: 405,
                contentType: "text/plain; charset=utf-8",
                body: Array("Markbook answers GET \(basePath), POST authenticate.lc and POST post.lc.".utf8)
            )
        }
    }

    private struct Answer {
        var action: String
        var status: String
        var extra: [String: SandboxJSON] = [:]
    }

    private func json(_ answer: Answer, _ request: MarkbookSandboxRequest, now: Date) -> MarkbookSandboxResponse {
        let schoolName = state.withLockedValue { $0.world.schoolName }
        var members: [String: SandboxJSON] = [
            "source": "Markbook Online",
            "api": .string(request.apiAddress),
            "seconds": .integer(Int(now.timeIntervalSince1970)),
            "date": .string(SandboxFormat.rfc2822(now, timeZone: timeZone)),
            "schoolname": .string(schoolName),
            "action": .string(answer.action),
            "status": .string(answer.status),
        ]
        members.merge(answer.extra) { first, _ in first }
        return MarkbookSandboxResponse(
            status: 200,
            contentType: "application/json; charset=utf-8",
            body: SandboxJSON.object(members).encoded()
        )
    }

    private func credentialsMatch(username: String?, password: String?) -> Bool {
        guard let username, let password, !username.isEmpty, !password.isEmpty else { return false }
        return acceptsAnyCredentials || (username == account.username && password == account.password)
    }

    private func apiKeyMatches(_ key: String?) -> Bool {
        guard let key, !key.isEmpty else { return false }
        return acceptsAnyCredentials || key == account.apiKey
    }

    private func login(_ form: Parameters, now: Date) -> Answer {
        guard credentialsMatch(username: form["apiuser"], password: form["apipassword"]) else {
            state.withLockedValue { $0.counters.failedLogins += 1 }
            return Answer(action: "authenticate", status: "ERROR:invalid credentials")
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let key = Int.random(in: 100_000_000...999_999_999, using: &generator)
        state.withLockedValue { state in
            state.world.sessions[token] = SandboxWorld.Session(key: key, openedAt: now)
            state.issuedSessionValues += [token, String(key)]
            state.counters.logins += 1
        }
        return Answer(
            action: "authenticate",
            status: "OKAY",
            extra: ["sessiontoken": .string(token), "sessionkey": .integer(key)]
        )
    }

    /// Whether the API key and session are good; an expired session is forgotten.
    private func sessionIsValid(_ parameters: Parameters, in state: inout State, now: Date) -> Bool {
        guard apiKeyMatches(parameters["apikey"]), let token = parameters["sessiontoken"],
            let session = state.world.sessions[token], parameters["sessionkey"] == String(session.key)
        else { return false }
        guard now.timeIntervalSince(session.openedAt) < Self.sessionLifetime else {
            state.world.sessions[token] = nil
            return false
        }
        return true
    }

    private func action(_ query: Parameters, now: Date, apiAddress: String) -> Answer {
        let name = query["action"] ?? ""
        return state.withLockedValue { state in
            state.counters.requestsByAction[name, default: 0] += 1
            guard sessionIsValid(query, in: &state, now: now) else {
                state.counters.rejectedSessions += 1
                return Answer(action: name, status: "ERROR:invalid credentials")
            }
            do throws(StatusError) {
                var handler = ActionHandler(world: state.world, now: now, timeZone: timeZone, apiAddress: apiAddress)
                let extra = try handler.run(name, query)
                if let failure = commit(handler.world, to: &state) {
                    return Answer(action: name, status: failure)
                }
                if handler.changedData { state.counters.appliedWritesByAction[name, default: 0] += 1 }
                return Answer(action: name, status: "OKAY", extra: extra)
            } catch {
                state.counters.refusalsByAction[name, default: 0] += 1
                var extra: [String: SandboxJSON] = [:]
                if name == "getbackupurl" { extra["url"] = "" }
                return Answer(action: name, status: error.status, extra: extra)
            }
        }
    }

    private func post(_ form: Parameters, now: Date) -> Answer {
        let name = form["apiaction"] ?? ""
        return state.withLockedValue { state in
            state.counters.requestsByAction[name, default: 0] += 1
            guard sessionIsValid(form, in: &state, now: now) else {
                state.counters.rejectedSessions += 1
                return Answer(action: name, status: "ERROR:invalid credentials")
            }
            guard name == "createmarkbook" else {
                state.counters.refusalsByAction[name, default: 0] += 1
                return Answer(action: name, status: "ERROR:invalid action")
            }
            do throws(StatusError) {
                var handler = ActionHandler(world: state.world, now: now, timeZone: timeZone)
                let extra = try handler.createMarkbook(form)
                if let failure = commit(handler.world, to: &state) {
                    return Answer(action: name, status: failure)
                }
                state.counters.appliedWritesByAction[name, default: 0] += 1
                return Answer(action: name, status: "OKAY", extra: extra)
            } catch {
                state.counters.refusalsByAction[name, default: 0] += 1
                return Answer(action: name, status: error.status)
            }
        }
    }

    /// An empty zip archive (just the end-of-central-directory record): enough for a download
    /// to succeed and unzip.
    static let emptyZip: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

    private func backupFile(_ file: String, now: Date) -> MarkbookSandboxResponse {
        let available = state.withLockedValue { state -> Bool in
            guard let backup = state.world.backup, backup.fileName == file, now >= backup.readyAt else { return false }
            if let first = backup.firstReturnedAt, now.timeIntervalSince(first) > Self.backupRetention { return false }
            return true
        }
        guard available else {
            return MarkbookSandboxResponse(
                status: 404,
                contentType: "text/plain; charset=utf-8",
                body: Array("No such backup.".utf8)
            )
        }
        return MarkbookSandboxResponse(status: 200, contentType: "application/zip", body: Self.emptyZip)
    }
}

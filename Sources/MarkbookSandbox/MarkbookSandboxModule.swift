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

    private struct State {
        var world: SandboxWorld
        var counters = Counters()
        /// Every session token and key ever handed out, expired ones included.
        var issuedSessionValues: [String] = []
        var backupMode = MarkbookSandboxOptions.BackupMode.scheduled
        var resultFaults = ResultFaultState(.none)

        init(world: SandboxWorld, options: MarkbookSandboxOptions, now: Date, issuedSessionValues: [String] = []) {
            self.world = world
            self.issuedSessionValues = issuedSessionValues
            setOptions(options, now: now)
        }

        mutating func setOptions(_ options: MarkbookSandboxOptions, now: Date) {
            backupMode = options.backup
            resultFaults = ResultFaultState(options.resultWriteFaults)
            if options.backup == .ready { world.seedReadyBackup(now: now) }
        }
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

    private let now: @Sendable () -> Date
    private let initialWorld: SandboxWorld
    private let initialOptions: MarkbookSandboxOptions
    private let state: NIOLockedValueBox<State>

    /// Creates the module with the Spec's seed.
    ///
    /// - Parameters:
    ///   - basePath: The path prefix.
    ///   - account: The only credentials accepted (unless `acceptsAnyCredentials`).
    ///   - acceptsAnyCredentials: Accept any non-empty credentials.
    ///   - timeZone: The school's zone; Australia/Sydney by default.
    ///   - options: Backup mode and result-write faults; by default the real API's behaviour.
    ///   - now: The sandbox's clock; tests pass their test clock's `now()`.
    public init(
        basePath: String = defaultBasePath,
        account: Account = .sandbox,
        acceptsAnyCredentials: Bool = false,
        timeZone: TimeZone = TimeZone(identifier: "Australia/Sydney") ?? TimeZone(secondsFromGMT: 36_000) ?? .gmt,
        options: MarkbookSandboxOptions = MarkbookSandboxOptions(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.basePath = basePath
        self.account = account
        self.acceptsAnyCredentials = acceptsAnyCredentials
        self.timeZone = timeZone
        self.now = now
        let world =
            (try? JSONDecoder().decode(SeedFile.self, from: Data(MarkbookSpecPayloads.seed.utf8)))?.world
            ?? SandboxWorld(schoolName: "Sandbox Secondary College", users: [], markbooks: [])
        self.initialWorld = world
        self.initialOptions = options
        self.state = NIOLockedValueBox(State(world: world, options: options, now: now()))
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

    /// Restores the seed and the options given at creation, and forgets sessions, the backup and
    /// the counters (but not which session values were handed out).
    public func reset() {
        let world = initialWorld
        let options = initialOptions
        let now = now()
        state.withLockedValue {
            $0 = State(world: world, options: options, now: now, issuedSessionValues: $0.issuedSessionValues)
        }
    }

    /// Replaces the backup mode and result-write faults while the sandbox runs; the count of
    /// successful writes that ``MarkbookSandboxOptions/ResultWriteFaults/failAfterWrites`` looks
    /// at starts again from zero. ``reset()`` restores the options given at creation.
    public func setOptions(_ options: MarkbookSandboxOptions) {
        let now = now()
        state.withLockedValue { $0.setOptions(options, now: now) }
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
        /// An HTTP error to answer instead of the envelope (an injected fault).
        var httpStatus: Int? = nil
    }

    private func json(_ answer: Answer, _ request: MarkbookSandboxRequest, now: Date) -> MarkbookSandboxResponse {
        if let httpStatus = answer.httpStatus {
            return MarkbookSandboxResponse(
                status: httpStatus,
                contentType: "text/plain; charset=utf-8",
                body: Array("The sandbox failed this \(answer.action) on purpose.".utf8)
            )
        }
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
            if name == "getbackupurl", let forced = state.backupMode.forcedStatus {
                state.counters.refusalsByAction[name, default: 0] += 1
                return Answer(action: name, status: forced, extra: ["url": ""])
            }
            let fault = name == "putstudentresult" ? state.resultFaults.failure(for: query) : nil
            if let fault, !fault.appliesWrite {
                state.counters.injectedResultFailures += 1
                return Answer(action: name, status: fault.status ?? "OKAY", httpStatus: fault.httpStatus)
            }
            do throws(StatusError) {
                var handler = ActionHandler(world: state.world, now: now, timeZone: timeZone, apiAddress: apiAddress)
                let extra = try handler.run(name, query)
                state.world = handler.world
                if handler.changedData { state.counters.appliedWritesByAction[name, default: 0] += 1 }
                if name == "putstudentresult", let cell = ResultFaultState.cell(query) {
                    state.counters.resultWritesByCell[cell, default: 0] += 1
                    state.resultFaults.successfulWrites += 1
                }
                if let fault {
                    state.counters.injectedResultFailures += 1
                    return Answer(action: name, status: "OKAY", httpStatus: fault.httpStatus)
                }
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
                state.world = handler.world
                state.counters.appliedWritesByAction[name, default: 0] += 1
                return Answer(action: name, status: "OKAY", extra: extra)
            } catch {
                state.counters.refusalsByAction[name, default: 0] += 1
                return Answer(action: name, status: error.status)
            }
        }
    }

    /// Serves the backup's zip (``BackupArchive``) while its URL works.
    private func backupFile(_ file: String, now: Date) -> MarkbookSandboxResponse {
        let snapshot = state.withLockedValue { state -> (SandboxWorld, SandboxWorld.Backup)? in
            guard let backup = state.world.backup, backup.fileName == file, now >= backup.readyAt else { return nil }
            if let first = backup.firstReturnedAt, now.timeIntervalSince(first) > Self.backupRetention { return nil }
            return (state.world, backup)
        }
        guard let (world, backup) = snapshot else {
            return MarkbookSandboxResponse(
                status: 404,
                contentType: "text/plain; charset=utf-8",
                body: Array("No such backup.".utf8)
            )
        }
        let zip = BackupArchive.zip(of: world, backup: backup, timeZone: timeZone)
        return MarkbookSandboxResponse(status: 200, contentType: "application/zip", body: zip)
    }
}

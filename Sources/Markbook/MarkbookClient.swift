public import Foundation
public import HTTPCore

/// The Markbook Online API v1.5: markbooks, students, classes, results, outcomes and backups.
///
/// ```swift
/// let client = MarkbookClient(apiKey: apiKey, username: "admin", password: password)
/// let sheet = try await client.getMarkbook(key: 1000001)
/// ```
///
/// The client is `Sendable` and meant to be shared: create one per account and use it from any
/// task. It holds no mutable state outside locks and the auth strategy's actor.
///
/// **Session.** The first call logs in (`POST authenticate.lc`); every call then carries
/// `sessiontoken`, `sessionkey` and `apikey`. A session lasts 20 minutes; the client renews it
/// after 19, and however many calls are in flight, only one login runs at a time. When the API
/// answers that the session or credentials are invalid, the client logs in again once and
/// replays the call; a login refused for bad credentials fails every waiting call with
/// `auth_required` and is not tried again until ``resetSession()``, so a wrong password cannot
/// lock the account. The API key, password and session values never appear in URLs shown to
/// hooks, in errors or in descriptions of the client.
///
/// **Retry.** The API uses GET for writes, so the method says nothing about safety. Each action
/// declares it (``MarkbookAction/isIdempotent``): reads, `putstudentresult`, `updatestudent`,
/// `updatestudentclass`, `deletestudent` and `schedulebackup` are retried after a 503, 429 or a
/// lost connection; `createstudent`, `createclass` and `createmarkbook` are never repeated once
/// they may have reached the server: a lost answer is `ambiguous` (exit code 8 in the CLI).
/// Idempotency-key headers and HTTP caching are switched off for this client: the API honours
/// neither, and a cached GET could hide a write.
public final class MarkbookClient: MarkbookClientProtocol {
    /// The API's address: `https://smpcsonline.com.au/markbook/api/v1.5`.
    public static let defaultBaseURL: URL =
        URL(string: "https://smpcsonline.com.au/markbook/api/v1.5") ?? URL(fileURLWithPath: "/")

    /// The base URL the client sends to, without a trailing slash.
    public let baseURL: URL

    private let http: Result<Client, APIError>
    private let auth: SessionLoginAuth
    private let secrets: MarkbookSecrets
    private let schoolNameStore: Locked<String?>

    /// Creates a client for the real API with HTTPCore's defaults.
    ///
    /// Nothing is sent until the first call, which logs in. Empty credentials make every call
    /// fail with `usage`.
    ///
    /// - Parameters:
    ///   - apiKey: The school's 32-character API key.
    ///   - username: A user with the "Allow user administration" permission.
    ///   - password: That user's password.
    public convenience init(apiKey: String, username: String, password: String) {
        self.init(
            credentials: (apiKey, username, password),
            configuration: ClientConfiguration(baseURL: Self.defaultBaseURL),
            transport: URLSessionTransport.shared
        )
    }

    /// Creates a client for the API at `baseURL`, such as a sandbox.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for empty credentials or a base URL that is not
    ///   https (loopback may use http).
    public convenience init(
        apiKey: String,
        username: String,
        password: String,
        baseURL: URL,
        transport: any HTTPTransport = URLSessionTransport.shared
    ) throws {
        try self.init(
            apiKey: apiKey,
            username: username,
            password: password,
            configuration: ClientConfiguration(baseURL: baseURL),
            transport: transport
        )
    }

    /// Creates a client from a full configuration: base URL, timeouts, retry, hooks, the clock.
    ///
    /// The client sets the configuration's `auth` to its session login and turns off its
    /// `idempotencyKeyHeader` and `cache` (see the type's discussion).
    ///
    /// - Parameter transport: Where requests go; tests pass HTTPCoreTesting's `ScriptedTransport`.
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` for empty credentials or an unacceptable base URL.
    public convenience init(
        apiKey: String,
        username: String,
        password: String,
        configuration: ClientConfiguration,
        transport: any HTTPTransport = URLSessionTransport.shared
    ) throws {
        self.init(credentials: (apiKey, username, password), configuration: configuration, transport: transport)
        if case .failure(let error) = http { throw error }
    }

    private init(
        credentials: (apiKey: String, username: String, password: String),
        configuration: ClientConfiguration,
        transport: any HTTPTransport
    ) {
        let secrets = MarkbookSecrets()
        secrets.register(credentials.apiKey)
        secrets.register(credentials.password)
        let schoolNameStore = Locked<String?>(nil)
        let auth = MarkbookSession.auth(
            apiKey: credentials.apiKey,
            username: credentials.username,
            password: credentials.password,
            secrets: secrets,
            schoolName: schoolNameStore
        )
        var configuration = configuration
        configuration.auth = auth
        configuration.idempotencyKeyHeader = nil
        configuration.cache = nil
        self.secrets = secrets
        self.schoolNameStore = schoolNameStore
        self.auth = auth
        self.baseURL = configuration.baseURL
        let missing = [
            ("apiKey", credentials.apiKey), ("username", credentials.username), ("password", credentials.password),
        ]
        .filter { $0.1.trimmingCharacters(in: .whitespaces).isEmpty }.map(\.0)
        if !missing.isEmpty {
            http = .failure(
                APIError.usage(
                    "The Markbook client has no \(missing.joined(separator: ", ")).",
                    hint: "Pass the school's API key and a user name and password."
                )
            )
            return
        }
        do {
            http = .success(try Client(configuration: configuration, transport: transport))
        } catch let error as APIError {
            http = .failure(error)
        } catch {
            http = .failure(APIError.usage("The Markbook client could not be created."))
        }
    }

    /// The school's name as the API last reported it; `nil` before the first call.
    public var schoolName: String? {
        schoolNameStore.withLock { $0 }
    }

    /// Forgets the session and any sign-in-required state after a refused login; the next call
    /// logs in again.
    public func resetSession() async {
        await auth.reset()
    }

    // MARK: Reads

    /// `markbooklist`: the school's markbooks.
    ///
    /// - Throws: ``HTTPCore/APIError``.
    public func markbookList() async throws -> [MarkbookSummary] {
        try await send(.markbookList, [:]) { reader, _ in try MarkbookDecoding.summaries(reader) }
    }

    /// `userlist`: the school's users.
    ///
    /// - Throws: ``HTTPCore/APIError``.
    public func userList() async throws -> [MarkbookUser] {
        try await send(.userList, [:]) { reader, _ in try MarkbookDecoding.users(reader) }
    }

    /// `getmarkbook`: one markbook with results joined.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getMarkbook(key: Int) async throws -> MarkbookSheet {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getMarkbook, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.sheet(reader, alternate: false)
        }
    }

    /// `getmarkbookalt`: one markbook from the flat-list format, results joined the same way.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getMarkbookAlt(key: Int) async throws -> MarkbookSheet {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getMarkbookAlt, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.sheet(reader, alternate: true)
        }
    }

    /// `getoutcomes`: one markbook's outcomes and levels.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getOutcomes(key: Int) async throws -> MarkbookOutcomes {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getOutcomes, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.outcomes(reader, markbookKey: key, alternate: false)
        }
    }

    /// `getoutcomesalt`: one markbook's outcomes from the flat-list format.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown key.
    public func getOutcomesAlt(key: Int) async throws -> MarkbookOutcomes {
        try MarkbookInput.requireKey(key, "key")
        return try await send(.getOutcomesAlt, ["key": String(key)]) { reader, _ in
            try MarkbookDecoding.outcomes(reader, markbookKey: key, alternate: true)
        }
    }

    // MARK: Writes

    /// `putstudentresult`: sets one result. Retried when safe: it sets an absolute value.
    ///
    /// - Throws: ``HTTPCore/APIError``; `usage` for bad input, `not_found` for an unknown
    ///   markbook, student or task.
    public func putStudentResult(
        markbookKey: Int,
        studentKey: Int,
        sid: String,
        taskKey: Int,
        taskName: String,
        result: String
    ) async throws {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireKey(studentKey, "studentKey")
        try MarkbookInput.requireText(sid, "sid")
        try MarkbookInput.requireKey(taskKey, "taskKey")
        try MarkbookInput.requireText(taskName, "taskName")
        try MarkbookInput.requireText(result, "result", allowEmpty: true)
        let values = [
            "key": String(markbookKey), "studentkey": String(studentKey), "sid": sid, "taskkey": String(taskKey),
            "taskname": taskName, "result": result.trimmingCharacters(in: .whitespaces),
        ]
        try await send(.putStudentResult, values) { _, _ in }
    }

    /// `createstudent`: adds a student; returns the new key. Never retried once sent.
    ///
    /// - Throws: ``HTTPCore/APIError``; `ambiguous` when the answer was lost after sending.
    public func createStudent(
        markbookKey: Int,
        sid: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender,
        classKey: Int
    ) async throws -> Int {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireText(sid, "sid")
        try MarkbookInput.requireText(familyName, "familyName")
        try MarkbookInput.requireText(givenName, "givenName")
        try MarkbookInput.requireText(preferredName, "preferredName", allowEmpty: true)
        try MarkbookInput.requireKey(classKey, "classKey")
        let values = [
            "key": String(markbookKey), "sid": sid, "family": familyName, "given": givenName,
            "preferred": preferredName, "gender": gender.rawValue, "classkey": String(classKey),
        ]
        return try await send(.createStudent, values) { reader, status in
            try Self.createdKey(reader, "studentkey", action: .createStudent, httpStatus: status)
        }
    }

    /// `updatestudent`: replaces a student's names and gender.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook or student.
    public func updateStudent(
        markbookKey: Int,
        studentKey: Int,
        sid: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender
    ) async throws {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireKey(studentKey, "studentKey")
        try MarkbookInput.requireText(sid, "sid")
        try MarkbookInput.requireText(familyName, "familyName")
        try MarkbookInput.requireText(givenName, "givenName")
        try MarkbookInput.requireText(preferredName, "preferredName", allowEmpty: true)
        let values = [
            "key": String(markbookKey), "studentkey": String(studentKey), "sid": sid, "family": familyName,
            "given": givenName, "preferred": preferredName, "gender": gender.rawValue,
        ]
        try await send(.updateStudent, values) { _, _ in }
    }

    /// `updatestudentclass`: moves a student to a class, restoring them if deleted.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook, student or class.
    public func updateStudentClass(markbookKey: Int, studentKey: Int, sid: String, classKey: Int) async throws {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireKey(studentKey, "studentKey")
        try MarkbookInput.requireText(sid, "sid")
        try MarkbookInput.requireKey(classKey, "classKey")
        let values = [
            "key": String(markbookKey), "studentkey": String(studentKey), "sid": sid, "classkey": String(classKey),
        ]
        try await send(.updateStudentClass, values) { _, _ in }
    }

    /// `deletestudent`: soft-deletes a student.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook or student.
    public func deleteStudent(markbookKey: Int, studentKey: Int, sid: String) async throws {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireKey(studentKey, "studentKey")
        try MarkbookInput.requireText(sid, "sid")
        let values = ["key": String(markbookKey), "studentkey": String(studentKey), "sid": sid]
        try await send(.deleteStudent, values) { _, _ in }
    }

    /// `createclass`: adds a class; returns its key. Never retried once sent.
    ///
    /// - Parameters:
    ///   - teacherFamilyName: Sent as `family`; shown as the class's `teachername2`.
    ///   - teacherGivenName: Sent as `given`; shown as `teachername1` (title and given name by
    ///     convention, e.g. `"Mr Tom"`).
    /// - Throws: ``HTTPCore/APIError``; `validation` when the name is taken, `ambiguous` when
    ///   the answer was lost after sending.
    public func createClass(
        markbookKey: Int,
        name: String,
        teacherFamilyName: String,
        teacherGivenName: String
    ) async throws -> Int {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireText(name, "name")
        try MarkbookInput.requireText(teacherFamilyName, "teacherFamilyName", allowEmpty: true)
        try MarkbookInput.requireText(teacherGivenName, "teacherGivenName", allowEmpty: true)
        let values = ["key": String(markbookKey), "name": name, "family": teacherFamilyName, "given": teacherGivenName]
        return try await send(.createClass, values) { reader, status in
            try Self.createdKey(reader, "classkey", action: .createClass, httpStatus: status)
        }
    }

    /// `schedulebackup`: asks for a backup of matching markbooks, built overnight.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` before any request when `matching` has fewer
    ///   than 2 characters; otherwise ``HTTPCore/APIError``.
    public func scheduleBackup(matching: String) async throws {
        let trimmed = matching.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= MarkbookInput.minimumMatchingLength else {
            throw APIError.usage(
                "matching must have at least \(MarkbookInput.minimumMatchingLength) characters; got \(trimmed.count).",
                hint: "Give part of the markbook names to back up, e.g. \"10MAT\"."
            )
        }
        try MarkbookInput.requireText(trimmed, "matching")
        try await send(.scheduleBackup, ["matching": trimmed]) { _, _ in }
    }

    /// `getbackupurl`: the backup's status and URL.
    ///
    /// `ERROR:pending`, `ERROR:no backup` and other backup statuses are returned as
    /// ``BackupStatus``, not thrown; a rejected session is still `auth_required`.
    ///
    /// - Throws: ``HTTPCore/APIError``.
    public func getBackupURL() async throws -> BackupURL {
        let client = try readyClient()
        let secrets = secrets
        let action = MarkbookAction.getBackupURL
        let endpoint = Endpoint<BackupURL>(
            .get,
            "",
            query: try Self.query(action, [:]),
            operation: action.operation,
            decoder: ResponseDecoder { body, response, _ in
                let code = response.status.code
                let reader = try MarkbookDecoding.envelope(body, action: action, httpStatus: code)
                let status = try MarkbookDecoding.reading(action, httpStatus: code) { try reader.string("status") }
                if MarkbookStatus.isInvalidSession(status) {
                    throw MarkbookStatus.error(for: status, action: action, scrub: secrets.scrub)
                }
                guard status == MarkbookStatus.okay else {
                    return BackupURL(status: BackupStatus(status: secrets.scrub(status)), url: nil)
                }
                let text = try MarkbookDecoding.reading(action, httpStatus: code) { try reader.string("url") }
                guard let url = URL(string: text), url.scheme != nil else {
                    throw MarkbookDecoding.malformed(
                        WireError(path: "url", expected: "a URL"),
                        action: action,
                        httpStatus: code
                    )
                }
                return BackupURL(status: .okay, url: url)
            }
        )
        return try await client.send(endpoint)
    }

    /// `createmarkbook`: creates a whole markbook from `markbook`. Never retried once sent.
    ///
    /// The payload is checked first (``NewMarkbook/validate()``). When it has no school name and
    /// the client has not learnt one yet, the client calls `userlist` first to learn it.
    ///
    /// - Throws: ``HTTPCore/APIError``; `usage` for an invalid payload, `ambiguous` when the
    ///   answer was lost after sending.
    public func createMarkbook(_ markbook: NewMarkbook) async throws -> CreatedMarkbook {
        try markbook.validate()
        let client = try readyClient()
        var school = markbook.schoolName ?? schoolName
        if school == nil {
            _ = try await userList()
            school = schoolName
        }
        let payload = markbook.wirePayload(api: baseURL.absoluteString, schoolName: school ?? "")
        let action = MarkbookAction.createMarkbook
        var form = QueryParameters()
        form.append("apiaction", action.rawValue)
        form.append("jsondata", String(decoding: payload.encoded(), as: UTF8.self))
        let endpoint = Endpoint<CreatedMarkbook>(
            .post,
            "post.lc",
            body: .form(form),
            operation: action.operation,
            decoder: decoder(action) { reader, status in
                let key = try Self.createdKey(reader, "markbookkey", action: action, httpStatus: status)
                let name = (try? reader.string("markbookname")).flatMap { $0.isEmpty ? nil : $0 }
                return CreatedMarkbook(
                    key: key,
                    name: name ?? markbook.name,
                    requestedName: markbook.name,
                    classCount: (try? reader.optionalInt("classcount")).flatMap { $0 } ?? 0,
                    studentCount: (try? reader.optionalInt("studentcount")).flatMap { $0 } ?? 0,
                    shareCount: (try? reader.optionalInt("sharecount")).flatMap { $0 } ?? 0
                )
            }
        )
        return try await client.send(endpoint)
    }

    // MARK: Sending

    private func readyClient() throws -> Client {
        try http.get()
    }

    /// Sends a query action: `action` first, then exactly the action's parameters, in order.
    @discardableResult
    private func send<Value: Sendable>(
        _ action: MarkbookAction,
        _ values: [String: String],
        read: @escaping @Sendable (WireReader, Int) throws -> Value
    ) async throws -> Value {
        let client = try readyClient()
        let endpoint = Endpoint<Value>(
            .get,
            "",
            query: try Self.query(action, values),
            operation: action.operation,
            decoder: decoder(action, read)
        )
        return try await client.send(endpoint)
    }

    private func decoder<Value: Sendable>(
        _ action: MarkbookAction,
        _ read: @escaping @Sendable (WireReader, Int) throws -> Value
    ) -> ResponseDecoder<Value> {
        let secrets = secrets
        let schoolNameStore = schoolNameStore
        return ResponseDecoder { body, response, _ in
            let code = response.status.code
            let reader = try MarkbookDecoding.okayBody(body, action: action, httpStatus: code, scrub: secrets.scrub)
            if let school = try? reader.string("schoolname"), !school.isEmpty {
                schoolNameStore.withLock { $0 = school }
            }
            return try MarkbookDecoding.reading(action, httpStatus: code) { try read(reader, code) }
        }
    }

    /// The query for `action`: every declared parameter must have a value, and no other is sent.
    static func query(_ action: MarkbookAction, _ values: [String: String]) throws -> QueryParameters {
        var query = QueryParameters()
        query.append("action", action.rawValue)
        for name in action.parameters {
            guard let value = values[name] else {
                throw APIError.usage("\(action.rawValue) needs the parameter \(name).")
            }
            query.append(name, value)
        }
        let extra = Set(values.keys).subtracting(action.parameters)
        guard extra.isEmpty else {
            throw APIError.usage("\(action.rawValue) has no parameter \(extra.sorted().joined(separator: ", ")).")
        }
        return query
    }

    /// The key a create returns. The write was applied (the status was `OKAY`), so an unreadable
    /// key must not look like a failure that invites a second create.
    static func createdKey(_ reader: WireReader, _ name: String, action: MarkbookAction, httpStatus: Int) throws -> Int
    {
        do {
            return try reader.int(name)
        } catch {
            throw APIError.apiError(
                APIError.Details(
                    message:
                        "Markbook applied \(action.rawValue) (status OKAY) but its answer has no readable \(name).",
                    hint: "Do not repeat the call: look the new item up first (getMarkbook(key:) or markbookList()).",
                    httpStatus: httpStatus,
                    rawStatus: MarkbookStatus.okay
                )
            )
        }
    }
}

extension MarkbookClient: CustomStringConvertible, CustomReflectable {
    /// The base URL only; credentials and session values are never shown.
    public var description: String { "MarkbookClient(baseURL: \(baseURL.absoluteString))" }

    /// Only the base URL, so `dump` shows no credential.
    public var customMirror: Mirror { Mirror(self, children: ["baseURL": baseURL.absoluteString]) }
}

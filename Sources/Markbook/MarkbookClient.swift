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
///
/// **Errors.** Every method throws ``HTTPCore/APIError``: `usage` for bad input (before any
/// request), `auth_required` for rejected credentials, `not_found` for an unknown markbook,
/// student, class or task, `validation` for values the API refused, `ambiguous` when a create may
/// or may not have been applied, and HTTPCore's codes for HTTP and network failures. See
/// ``MarkbookStatus`` for the status table.
///
/// **Tests.** Point the client at HTTPCoreTesting's `ScriptedTransport` (``init(apiKey:username:password:configuration:transport:)``)
/// or at the `MarkbookSandbox` module on loopback, which plays the whole API statefully.
public final class MarkbookClient: Sendable {
    /// The API's address: `https://smpcsonline.com.au/markbook/api/v1.5`.
    public static let defaultBaseURL: URL =
        URL(string: "https://smpcsonline.com.au/markbook/api/v1.5") ?? URL(fileURLWithPath: "/")

    /// The base URL the client sends to, without a trailing slash.
    public let baseURL: URL

    private let http: Result<Client, APIError>
    /// The same configuration without the session, for backup URLs (which need none).
    private let sessionless: Result<Client, APIError>
    private let auth: SessionLoginAuth
    let secrets: MarkbookSecrets
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
        configuration.idempotencyKeyHeader = nil
        configuration.cache = nil
        configuration.errorBodyDecoder = Self.scrubbing(configuration.errorBodyDecoder, secrets)
        var sessionlessConfiguration = configuration
        sessionlessConfiguration.auth = nil
        configuration.auth = auth
        // The API answers every call itself, with HTTP 200: a redirect to another host is not its
        // answer, and following one would take that host's envelope for Markbook's. (HTTPCore
        // already keeps a form carrying the session from going there.)
        configuration.redirectPolicy.followsCrossOrigin = false
        self.secrets = secrets
        self.schoolNameStore = schoolNameStore
        self.auth = auth
        self.baseURL = configuration.baseURL
        let missing = [
            ("apiKey", credentials.apiKey), ("username", credentials.username), ("password", credentials.password),
        ]
        .filter { $0.1.trimmingCharacters(in: .whitespaces).isEmpty }.map(\.0)
        if !missing.isEmpty {
            let error = APIError.usage(
                "The Markbook client has no \(missing.joined(separator: ", ")).",
                hint: "Pass the school's API key and a user name and password."
            )
            http = .failure(error)
            sessionless = .failure(error)
            return
        }
        http = Self.client(configuration, transport)
        sessionless = Self.client(sessionlessConfiguration, transport)
    }

    /// A non-2xx answer comes from a gateway or server that may quote the request back, session
    /// values and API key included, so the error made from it is scrubbed; its body is dropped
    /// rather than scrubbed member by member, since it is no Markbook answer.
    private static func scrubbing(_ decoder: ErrorBodyDecoder?, _ secrets: MarkbookSecrets) -> ErrorBodyDecoder {
        ErrorBodyDecoder { response in
            secrets.scrub(decoder?.decode(response) ?? response.standardError)
        }
    }

    private static func client(
        _ configuration: ClientConfiguration,
        _ transport: any HTTPTransport
    ) -> Result<
        Client, APIError
    > {
        do {
            return .success(try Client(configuration: configuration, transport: transport))
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(APIError.usage("The Markbook client could not be created."))
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

    // MARK: Sending

    func readyClient() throws -> Client {
        try http.get()
    }

    /// A client with the same configuration but no session, for URLs the API hands out.
    func sessionlessClient() throws -> Client {
        try sessionless.get()
    }

    /// Sends a query action: `action` first, then exactly the action's parameters, in order.
    @discardableResult
    func send<Value: Sendable>(
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
        return try await Self.send(endpoint, for: action, on: client)
    }

    /// Sends `endpoint` for `action`. The API answers every call with HTTP 200 and its envelope,
    /// so a write not safe to repeat that got any other answer (a 5xx from something in front of
    /// the API, such as a proxy's 520 or 524, or a 2xx that cannot be read) may still have been
    /// applied: that is `ambiguous`, as ``MarkbookImportReport/outcomeIsUnknown(_:)`` judges it,
    /// never a failure to retry. A 503 says the request was not handled and stays a failure.
    static func send<Value: Sendable>(
        _ endpoint: Endpoint<Value>,
        for action: MarkbookAction,
        on client: Client
    ) async throws -> Value {
        do {
            return try await client.send(endpoint)
        } catch let error as APIError
            where !action.isIdempotent && error.code != .ambiguous && error.httpStatus != 503
            && MarkbookImportReport.outcomeIsUnknown(error)
        {
            throw ErrorMapping.outcomeUnknown(error.details)
        }
    }

    func decoder<Value: Sendable>(
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

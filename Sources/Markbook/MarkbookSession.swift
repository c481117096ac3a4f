import Foundation
import HTTPCore

/// Values that must never be shown: the API key, the password and every session value the
/// client has seen. Error texts built from server answers are scrubbed against them, a second
/// lock behind HTTPCore's redaction of URLs and hooks.
final class MarkbookSecrets: Sendable {
    /// Shorter values are not scrubbed: replacing every "12" would ruin messages without
    /// protecting anything.
    static let minimumLength = 4
    /// Session values kept: a long-lived client renews every 19 minutes, and only recent
    /// sessions can still appear in an answer.
    static let recentSessionValues = 16

    private struct Values {
        var permanent: [String] = []
        var sessions: [String] = []
    }

    private let values = Locked(Values())

    /// Registers the API key or password: kept for the client's lifetime.
    func register(_ value: String) {
        guard value.count >= Self.minimumLength else { return }
        values.withLock { values in
            if !values.permanent.contains(value) { values.permanent.append(value) }
        }
    }

    /// Registers a session value: kept until enough newer ones replace it.
    func registerSession(_ value: String) {
        guard value.count >= Self.minimumLength else { return }
        values.withLock { values in
            guard !values.sessions.contains(value) else { return }
            values.sessions.append(value)
            if values.sessions.count > Self.recentSessionValues { values.sessions.removeFirst() }
        }
    }

    /// `text` with every value replaced, as it is and as a server that echoes a form or URL back
    /// shows it, percent-encoded.
    func scrub(_ text: String) -> String {
        Redactor.scrub(text, spellings: Redactor.spellings(ofEach: values.withLock { $0.permanent + $0.sessions }))
    }

    /// `error` as it may be shown: its message and hint scrubbed, and the parts of the answer it
    /// carries whole (field errors, the payload) dropped, since they may echo the form back.
    func scrub(_ error: APIError) -> APIError {
        var error = error
        error.details.message = scrub(error.message)
        error.details.hint = error.hint.map(scrub)
        error.details.fieldErrors = []
        error.details.payload = nil
        return error
    }
}

/// The session login: `POST authenticate.lc` with `apiuser` and `apipassword`, then
/// `sessiontoken`, `sessionkey` and `apikey` on every request.
enum MarkbookSession {
    /// How long a session lasts on the server.
    static let lifetime = Duration.seconds(20 * 60)
    /// How long before the end a session is replaced: renewal happens after 19 minutes.
    static let renewalMargin = Duration.seconds(60)
    /// The session values, in the order they follow an action's own parameters.
    static let valueNames = ["sessiontoken", "sessionkey", "apikey"]

    /// The auth strategy for a client.
    ///
    /// Session values go in the query of GETs and in the form body of `post.lc`
    /// (``HTTPCore/CredentialPlacement/formOrQuery``). An invalid session is signalled by a 401
    /// or, as Markbook does, by a 200 whose `status` rejects the credentials or the session; the
    /// strategy then logs in once and replays the call (a request refused for its credentials
    /// was not applied, so even a create is safe to replay).
    static func auth(
        apiKey: String,
        username: String,
        password: String,
        secrets: MarkbookSecrets,
        schoolName: Locked<String?>
    ) -> SessionLoginAuth {
        SessionLoginAuth(
            valueNames: valueNames,
            secretNames: ["apipassword"],
            placement: .formOrQuery,
            lifetime: lifetime,
            renewalMargin: renewalMargin,
            authFailure: .unauthorized.or(invalidSessionSignal)
        ) { context in
            let response = try await context.send(
                .post,
                "authenticate.lc",
                body: .form(["apiuser": username, "apipassword": password])
            )
            let session = try readLogin(response, secrets: secrets, receivedAt: context.timeSource.now())
            if let school = session.schoolName { schoolName.withLock { $0 = school } }
            return SessionLoginAuth.Session([
                "sessiontoken": session.token, "sessionkey": session.key, "apikey": apiKey,
            ])
        }
    }

    /// A 200 whose `status` says the credentials or the session were rejected.
    static let invalidSessionSignal = AuthFailureSignal { response in
        // Cheap test first: most bodies are successes and need no parsing here.
        guard (200..<300).contains(response.response.status.code),
            response.body.range(of: Data(MarkbookStatus.errorPrefix.utf8)) != nil,
            let status = (try? JSONValue(parsing: response.body))?["status"]?.stringValue
        else { return false }
        return MarkbookStatus.isInvalidSession(status)
    }

    struct Login {
        var token: String
        var key: String
        var schoolName: String?
    }

    /// Reads the login answer; registers the session values as secrets before anything else
    /// can show them.
    static func readLogin(_ response: TransportResponse, secrets: MarkbookSecrets, receivedAt: Date) throws -> Login {
        let status = response.response.status.code
        guard (200..<300).contains(status) else {
            var error = secrets.scrub(
                ErrorResponse(response: response.response, body: response.body, receivedAt: receivedAt).standardError
            )
            error.details.message = "The Markbook login failed: \(error.message)"
            throw error
        }
        guard let body = try? JSONValue(parsing: response.body), case .object = body else {
            throw APIError.apiError(
                APIError.Details(
                    message: "The Markbook login answered with a body that is not JSON.",
                    httpStatus: status
                )
            )
        }
        let token = body["sessiontoken"]?.stringValue ?? ""
        let key = body["sessionkey"].flatMap(WireReader.int).map(String.init) ?? ""
        secrets.registerSession(token)
        secrets.registerSession(key)
        let loginStatus = body["status"]?.stringValue ?? ""
        guard loginStatus == MarkbookStatus.okay else {
            let shown = secrets.scrub(loginStatus)
            let reason = MarkbookStatus.reasonText(shown)
            if MarkbookStatus.isInvalidSession(loginStatus) {
                throw APIError.authRequired(
                    APIError.Details(
                        message: "Markbook refused the login (\(reason)).",
                        hint:
                            "Check the user name and password; the user needs the \"Allow user administration\" permission.",
                        rawStatus: shown
                    )
                )
            }
            throw APIError.apiError(
                APIError.Details(
                    message: "Markbook refused the login: \(reason.isEmpty ? "no status" : reason).",
                    rawStatus: shown
                )
            )
        }
        guard !token.isEmpty, !key.isEmpty else {
            throw APIError.apiError(
                APIError.Details(
                    message: "The Markbook login succeeded but sent no session token or key.",
                    httpStatus: status,
                    rawStatus: loginStatus
                )
            )
        }
        return Login(token: token, key: key, schoolName: body["schoolname"]?.stringValue)
    }
}

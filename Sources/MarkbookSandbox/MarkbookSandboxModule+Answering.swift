import APISandbox
import Foundation
import HTTPCore
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

extension MarkbookSandboxModule {
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
            return Self.text(405, "Markbook answers GET \(basePath), POST authenticate.lc and POST post.lc.")
        }
    }

    struct Answer {
        var action: String
        var status: String
        var extra: [String: JSONValue] = [:]
        /// An HTTP error to answer instead of the envelope (an injected fault).
        var httpStatus: Int? = nil
    }

    func json(_ answer: Answer, _ request: MarkbookSandboxRequest, now: Date) -> MarkbookSandboxResponse {
        if let httpStatus = answer.httpStatus {
            return Self.text(httpStatus, "The sandbox failed this \(answer.action) on purpose.")
        }
        let schoolName = state.withLockedValue { $0.world.schoolName }
        var members: [String: JSONValue] = [
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
            body: Array(JSONValue.object(members).encoded())
        )
    }

    func credentialsMatch(username: String?, password: String?) -> Bool {
        guard let username, let password, !username.isEmpty, !password.isEmpty else { return false }
        return acceptsAnyCredentials || (username == account.username && password == account.password)
    }

    /// Any key of the real keys' shape, 32 characters, when any credentials are accepted.
    func apiKeyMatches(_ key: String?) -> Bool {
        guard let key, !key.isEmpty else { return false }
        return acceptsAnyCredentials ? key.count == 32 : key == account.apiKey
    }

    func login(_ form: Parameters, now: Date) -> Answer {
        guard credentialsMatch(username: form["apiuser"], password: form["apipassword"]) else {
            state.withLockedValue { $0.counters.failedLogins += 1 }
            return Answer(action: "authenticate", status: "ERROR:invalid credentials")
        }
        let token = SandboxSecrets.make()
        var generator = SystemRandomNumberGenerator()
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
    func sessionIsValid(_ parameters: Parameters, in state: inout State, now: Date) -> Bool {
        guard apiKeyMatches(parameters["apikey"]), let token = parameters["sessiontoken"],
            let session = state.world.sessions[token], parameters["sessionkey"] == String(session.key)
        else { return false }
        guard now.timeIntervalSince(session.openedAt) < Self.sessionLifetime else {
            state.world.sessions[token] = nil
            return false
        }
        return true
    }

    func action(_ query: Parameters, now: Date, apiAddress: String) -> Answer {
        let name = query["action"] ?? ""
        // `getbackupurl` always carries a `url`, empty when there is none.
        let refusalExtra: [String: JSONValue] = name == "getbackupurl" ? ["url": ""] : [:]
        return signedIn(name, query, now: now, refusalExtra: refusalExtra) { (state: inout State) throws(StatusError) in
            if name == "getbackupurl", let forced = state.backupMode.forcedStatus {
                state.counters.refusalsByAction[name, default: 0] += 1
                return Answer(action: name, status: forced, extra: refusalExtra)
            }
            let fault = name == "putstudentresult" ? state.resultFaults.failure(for: query) : nil
            if let fault, !fault.appliesWrite {
                state.counters.injectedResultFailures += 1
                return Answer(action: name, status: fault.status ?? "OKAY", httpStatus: fault.httpStatus)
            }
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
        }
    }

    func post(_ form: Parameters, now: Date) -> Answer {
        let name = form["apiaction"] ?? ""
        return signedIn(name, form, now: now) { (state: inout State) throws(StatusError) in
            guard name == "createmarkbook" else { throw StatusError("invalid action") }
            var handler = ActionHandler(world: state.world, now: now, timeZone: timeZone)
            let extra = try handler.createMarkbook(form)
            state.world = handler.world
            state.counters.appliedWritesByAction[name, default: 0] += 1
            return Answer(action: name, status: "OKAY", extra: extra)
        }
    }

    /// Runs `body` for a caller whose API key and session are good, under the lock and on the
    /// school as the state file holds it now: counts the request, answers a bad key or session as
    /// the API does, and counts a refusal `body` throws; every refusal carries `refusalExtra`. A
    /// change that cannot be saved is answered as a failure and leaves everything as it was.
    private func signedIn(
        _ name: String,
        _ parameters: Parameters,
        now: Date,
        refusalExtra: [String: JSONValue] = [:],
        _ body: (inout State) throws(StatusError) -> Answer
    ) -> Answer {
        state.withLockedValue { state in
            state.counters.requestsByAction[name, default: 0] += 1
            guard sessionIsValid(parameters, in: &state, now: now) else {
                state.counters.rejectedSessions += 1
                return Answer(action: name, status: "ERROR:invalid credentials", extra: refusalExtra)
            }
            do {
                return try sharingSavedWorld(&state) { state in
                    do throws(StatusError) {
                        return try body(&state)
                    } catch {
                        state.counters.refusalsByAction[name, default: 0] += 1
                        return Answer(action: name, status: error.status, extra: refusalExtra)
                    }
                }
            } catch {
                return Answer(
                    action: name,
                    status: "ERROR:the sandbox could not save its data: \(error)",
                    extra: refusalExtra
                )
            }
        }
    }

    /// Runs `body` on the school as the state file holds it now and saves what it changed, as one
    /// step among all the processes sharing the file (see ``APISandbox/SandboxStateFile``), so
    /// none overwrites another's change and new keys are unique across them. Without a state file
    /// it just runs `body`.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError``; `state` is then left as it was.
    func sharingSavedWorld<Result>(_ state: inout State, _ body: (inout State) -> Result) throws -> Result {
        guard let savedWorld else { return body(&state) }
        let before = state
        // What this process knows, should the file be missing.
        let known = SavedSchool(state.world)
        do {
            return try savedWorld.update(SavedSchool.self, version: SavedSchool.currentVersion, initial: known) {
                saved in
                state.adopt(saved.world)
                let result = body(&state)
                saved = SavedSchool(state.world)
                return result
            }
        } catch {
            state = before
            throw error
        }
    }

    /// Serves the backup's zip (``BackupArchive``) while its URL works.
    func backupFile(_ file: String, now: Date) -> MarkbookSandboxResponse {
        let world: SandboxWorld
        do {
            world = try state.withLockedValue { state in try sharingSavedWorld(&state) { $0.world } }
        } catch {
            return Self.text(500, "The sandbox could not read its data: \(error)")
        }
        guard let backup = world.backup, backup.fileName == file, now >= backup.readyAt,
            backup.firstReturnedAt.map({ now.timeIntervalSince($0) <= Self.backupRetention }) ?? true
        else { return Self.text(404, "No such backup.") }
        let zip = BackupArchive.zip(of: world, backup: backup, timeZone: timeZone)
        return MarkbookSandboxResponse(status: 200, contentType: "application/zip", body: zip)
    }

    static func text(_ status: Int, _ text: String) -> MarkbookSandboxResponse {
        MarkbookSandboxResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

import Foundation
import HTTPCore
import HTTPCoreTesting
import MarkbookSandbox
import Testing

@testable import Markbook

/// The Spec is the source of truth: the SDK's action table, its status mapping, the sandbox's
/// answers and the examples must all agree with `Spec/Markbook/markbook.contract.json`.
@Suite("Spec/Markbook conformance")
struct SpecConformanceTests {
    static let contract: JSONValue = (try? JSONValue(parsing: Data(MarkbookSpecPayloads.contract.utf8))) ?? .null
    static let exampleNames = MarkbookSpecPayloads.examples.keys.sorted()

    static func example(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: Data((MarkbookSpecPayloads.examples[name] ?? "").utf8))
    }

    @Test("The contract lists exactly the SDK's actions, with the same parameters, idempotency and keys")
    func actions() throws {
        let actions = try #require(Self.contract["actions"]?.arrayValue)
        #expect(actions.compactMap { $0["action"]?.stringValue } == MarkbookAction.allCases.map(\.rawValue))
        for entry in actions {
            let action = try #require(MarkbookAction(rawValue: entry["action"]?.stringValue ?? ""))
            #expect(entry["operation"]?.stringValue == action.operationName)
            #expect(entry["idempotent"]?.boolValue == action.isIdempotent, "\(action.rawValue)")
            #expect(entry["entryPoint"]?.stringValue == action.entryPoint.rawValue)
            #expect(entry["kind"]?.stringValue == (action.changesData ? "write" : "read"))
            let parameters = entry["parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(parameters == action.parameters, "\(action.rawValue)")
            let keys = entry["response"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(keys == action.responseKeys, "\(action.rawValue)")
            for example in entry["examples"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                #expect(MarkbookSpecPayloads.examples[example] != nil, "\(example) is listed but missing")
            }
        }
    }

    @Test("Every example is referenced by the contract (logins by the authenticate entry point)")
    func examplesReferenced() throws {
        let listed = Set(
            (Self.contract["actions"]?.arrayValue ?? []).flatMap {
                $0["examples"]?.arrayValue?.compactMap(\.stringValue) ?? []
            }
        )
        for name in Self.exampleNames where !name.hasPrefix("authenticate") {
            #expect(listed.contains(name), "\(name) is not listed by any action")
        }
    }

    @Test("The session and secrets the contract states are the ones the client uses")
    func session() throws {
        let session = try #require(Self.contract["session"])
        #expect(session["values"] == .array(MarkbookSession.valueNames.map(JSONValue.string)))
        #expect(session["lifetimeSeconds"]?.intValue == Int(MarkbookSession.lifetime.components.seconds))
        #expect(
            session["renewAfterSeconds"]?.intValue
                == Int((MarkbookSession.lifetime - MarkbookSession.renewalMargin).components.seconds)
        )
        #expect(Self.contract["secrets"] == ["apikey", "apipassword", "sessiontoken", "sessionkey"])
        let auth = MarkbookSession.auth(
            apiKey: "k",
            username: "u",
            password: "p",
            secrets: MarkbookSecrets(),
            schoolName: Locked(nil)
        )
        for name in ["apikey", "apipassword", "sessiontoken", "sessionkey"] {
            #expect(auth.redactor.secretQueryParameters.contains(name), "\(name) is redacted")
        }
    }

    @Test("Every status with an error code maps to it")
    func statuses() throws {
        for entry in Self.contract["statuses"]?.arrayValue ?? [] {
            guard var status = entry["status"]?.stringValue, let code = entry["errorCode"]?.stringValue else {
                continue
            }
            status = status.replacingOccurrences(of: "<parameter>", with: "sid")
            #expect(MarkbookStatus.errorCode(for: status)?.rawValue == code, "\(status)")
        }
    }

    @Test("The seed's result and level arrays line up with its tasks and outcomes")
    func seed() throws {
        let seed = try JSONValue(parsing: Data(MarkbookSpecPayloads.seed.utf8))
        for markbook in seed["markbooks"]?.arrayValue ?? [] {
            let tasks = markbook["tasklist"]?.arrayValue?.count
            let outcomes = markbook["outcomelist"]?.arrayValue?.count ?? 0
            for student in markbook["studentlist"]?.arrayValue ?? [] {
                #expect(student["rawresults"]?.arrayValue?.count == tasks)
                if outcomes > 0 { #expect(student["outcomelevels"]?.arrayValue?.count == outcomes) }
            }
        }
    }

    // MARK: Examples against the sandbox

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The sandbox answers each example's request with the example's status and shape", arguments: exampleNames)
    func sandboxMatchesExample(_ name: String) throws {
        let example = try Self.example(name)
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_718_333_912))
        let module = MarkbookSandboxModule(now: { clock.now() })
        let address = exampleBaseURL.absoluteString
        func send(_ request: JSONValue, session: [MarkbookSandboxRequest.Parameter]) -> JSONValue {
            var parameters =
                (request["form"] ?? request["query"])?.objectValue?.map { name, value in
                    MarkbookSandboxRequest.Parameter(name, value.stringValue ?? value.description)
                } ?? []
            parameters.sort { $0.name < $1.name }
            let method = request["method"]?.stringValue ?? "GET"
            let answer = module.respond(
                to: MarkbookSandboxRequest(
                    method: method,
                    path: request["path"]?.stringValue ?? "",
                    query: method == "GET" ? parameters + session : [],
                    form: method == "POST" ? parameters + session : [],
                    apiAddress: address
                )
            )
            return (try? JSONValue(parsing: Data(answer.body))) ?? .null
        }
        func logIn() -> [MarkbookSandboxRequest.Parameter] {
            let login = send(
                [
                    "method": "POST", "path": "authenticate.lc",
                    "form": ["apiuser": "sandbox.admin", "apipassword": "sandbox-password"],
                ],
                session: []
            )
            return [
                MarkbookSandboxRequest.Parameter("sessiontoken", login["sessiontoken"]?.stringValue ?? ""),
                MarkbookSandboxRequest.Parameter("sessionkey", login["sessionkey"]?.intValue.map(String.init) ?? ""),
                MarkbookSandboxRequest.Parameter("apikey", MarkbookSandboxModule.Account.sandbox.apiKey),
            ]
        }
        var session = logIn()
        for step in example["setup"]?.arrayValue ?? [] {
            if let seconds = step["advanceSeconds"]?.intValue {
                clock.advance(by: .seconds(seconds))
                session = logIn()
            }
            if let query = step["query"] { _ = send(["method": "GET", "query": query], session: session) }
        }
        let request = try #require(example["request"])
        var used: [MarkbookSandboxRequest.Parameter] = []
        switch request["session"]?.stringValue {
        case "valid": used = session
        case "expired":
            used = session
            clock.advance(by: .seconds(20 * 60))
        default: break
        }
        let actual = send(request, session: used)
        let expected = try #require(example["response"])
        #expect(actual["status"] == expected["status"])
        #expect(actual["action"] == expected["action"])
        #expect(Shape.differences(expected, actual).isEmpty, "\(Shape.differences(expected, actual))")
    }

    // MARK: Examples through the SDK

    @Test("The SDK reads every example: success, the mapped error code, or the backup status", arguments: exampleNames)
    func sdkReadsExample(_ name: String) async throws {
        let example = try Self.example(name)
        let response = try #require(example["response"])
        let status = response["status"]?.stringValue ?? ""
        let request = try #require(example["request"])
        let query = request["query"]?.objectValue?.mapValues { $0.stringValue ?? "" } ?? [:]
        let action = query["action"] ?? request["form"]?["apiaction"]?.stringValue ?? "authenticate"
        let isLogin = action == "authenticate"
        let steps: [ScriptedTransport.Step] =
            isLogin
            ? [.json(response), .json(envelope("markbooklist", ["list": []]))]
            : [loginOK, .json(response), loginOK, .json(response)]
        let transport = ScriptedTransport(steps)
        let client = try scriptedClient(transport)
        let call = try Self.call(action, query: query, form: request["form"])
        let expectedCode = MarkbookStatus.errorCode(for: status)
        if example["clientRefuses"]?.boolValue == true {
            await expectMarkbookError(.usage, "the client refuses this request before sending it") {
                try await call(client)
            }
            #expect(transport.requests.isEmpty)
        } else if action == "getbackupurl" {
            let backup = try await client.getBackupURL()
            #expect(backup.status == BackupStatus(status: status))
            #expect(backup.isReady == (status == "OKAY"))
        } else if let expectedCode {
            let error = try #require(
                await expectMarkbookError(expectedCode, sessions: scriptedSessionValues) { try await call(client) }
            )
            #expect(error.details.rawStatus == status)
        } else {
            try await call(client)
        }
    }

    /// The SDK call an example's request stands for.
    static func call(
        _ action: String,
        query: [String: String],
        form: JSONValue?
    ) throws -> @Sendable (MarkbookClient) async throws -> Void {
        let key = Int(query["key"] ?? "") ?? 0
        let student = Int(query["studentkey"] ?? "") ?? 0
        let sid = query["sid"] ?? ""
        let gender = Gender(rawValue: query["gender"] ?? "") ?? .other
        switch action {
        case "authenticate", "markbooklist": return { _ = try await $0.markbookList() }
        case "userlist": return { _ = try await $0.userList() }
        case "getbackupurl": return { _ = try await $0.getBackupURL() }
        case "getmarkbook": return { _ = try await $0.getMarkbook(key: key) }
        case "getmarkbookalt": return { _ = try await $0.getMarkbookAlt(key: key) }
        case "getoutcomes": return { _ = try await $0.getOutcomes(key: key) }
        case "getoutcomesalt": return { _ = try await $0.getOutcomesAlt(key: key) }
        case "putstudentresult":
            return {
                try await $0.putStudentResult(
                    markbookKey: key,
                    studentKey: student,
                    sid: sid,
                    taskKey: Int(query["taskkey"] ?? "") ?? 0,
                    taskName: query["taskname"] ?? "",
                    result: query["result"] ?? ""
                )
            }
        case "createstudent":
            return {
                _ = try await $0.createStudent(
                    markbookKey: key,
                    sid: sid,
                    familyName: query["family"] ?? "",
                    givenName: query["given"] ?? "",
                    preferredName: query["preferred"] ?? "",
                    gender: gender,
                    classKey: Int(query["classkey"] ?? "") ?? 0
                )
            }
        case "updatestudent":
            return {
                try await $0.updateStudent(
                    markbookKey: key,
                    studentKey: student,
                    sid: sid,
                    familyName: query["family"] ?? "",
                    givenName: query["given"] ?? "",
                    preferredName: query["preferred"] ?? "",
                    gender: gender
                )
            }
        case "updatestudentclass":
            return {
                try await $0.updateStudentClass(
                    markbookKey: key,
                    studentKey: student,
                    sid: sid,
                    classKey: Int(query["classkey"] ?? "") ?? 0
                )
            }
        case "deletestudent": return { try await $0.deleteStudent(markbookKey: key, studentKey: student, sid: sid) }
        case "createclass":
            return {
                _ = try await $0.createClass(
                    markbookKey: key,
                    name: query["name"] ?? "",
                    teacherFamilyName: query["family"] ?? "",
                    teacherGivenName: query["given"] ?? ""
                )
            }
        case "schedulebackup":
            let matching = query["matching"] ?? ""
            return { try await $0.scheduleBackup(matching: matching) }
        case "createmarkbook":
            let payload = try JSONDecoder().decode(NewMarkbook.self, from: (form?["jsondata"] ?? .null).encoded())
            return { _ = try await $0.createMarkbook(payload) }
        default:
            throw APIError.usage("No SDK call for \(action).")
        }
    }
}

/// Compares the shape of two JSON values: the same keys, the same kinds, lists by their first
/// element (examples shorten lists).
enum Shape {
    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "bool"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    static func differences(_ expected: JSONValue, _ actual: JSONValue, path: String = "") -> [String] {
        guard kind(expected) == kind(actual) else {
            return ["\(path.isEmpty ? "response" : path): \(kind(expected)) expected, \(kind(actual)) found"]
        }
        switch (expected, actual) {
        case (.object(let left), .object(let right)):
            var found: [String] = []
            for key in Set(left.keys).symmetricDifference(right.keys).sorted() {
                found.append("\(path).\(key): \(left[key] == nil ? "not in the example" : "missing")")
            }
            for key in Set(left.keys).intersection(right.keys).sorted() {
                found += differences(left[key] ?? .null, right[key] ?? .null, path: "\(path).\(key)")
            }
            return found
        case (.array(let left), .array(let right)):
            guard let first = left.first, let other = right.first else { return [] }
            return differences(first, other, path: "\(path)[0]")
        default:
            return []
        }
    }
}

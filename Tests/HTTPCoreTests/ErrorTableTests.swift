import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Error table")
struct ErrorTableTests {
    private func failure(
        _ step: ScriptedTransport.Step,
        method: HTTPRequest.Method = .get
    ) async throws -> APIError {
        // Retry is off so each row tests the mapping alone.
        let client = try makeClient(ScriptedTransport([step])) { $0.retry = .none }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(method, "thing")) }
        return try #require(error)
    }

    @Test("usage: an http base URL, exit 64, not retryable")
    func usage() async throws {
        let error = await caughtAPIError { _ = try makeClient(ScriptedTransport(), baseURL: "http://example.com") }
        #expect(error?.code == .usage)
        #expect(error?.code.rawValue == "usage")
        #expect(error?.exitCode == 64)
        #expect(error?.isRetryable == false)
    }

    @Test("not_found: 404, exit 2")
    func notFound() async throws {
        let error = try await failure(.json(["error": "No such project"], status: 404, headers: [.xRequestID: "req-1"]))
        #expect(error.code == .notFound)
        #expect(error.code.rawValue == "not_found")
        #expect(error.exitCode == 2)
        #expect(error.message == "No such project")
        #expect(error.httpStatus == 404)
        #expect(error.requestID == "req-1")
        #expect(!error.isRetryable)
    }

    @Test("auth_required: 401, exit 3, error_description becomes the hint")
    func authRequired() async throws {
        let error = try await failure(
            .json(["error": "invalid_token", "error_description": "The access token expired"], status: 401)
        )
        #expect(error.code == .authRequired)
        #expect(error.code.rawValue == "auth_required")
        #expect(error.exitCode == 3)
        #expect(error.message == "invalid_token")
        #expect(error.hint == "The access token expired")
        #expect(!error.isRetryable)
    }

    @Test("forbidden: 403, exit 4, message from `message` when there is no `error`")
    func forbidden() async throws {
        let error = try await failure(.json(["message": "Admins only"], status: 403))
        #expect(error.code == .forbidden)
        #expect(error.exitCode == 4)
        #expect(error.message == "Admins only")
        #expect(!error.isRetryable)
    }

    @Test("rate_limit: 429, exit 5, retryable, carries Retry-After")
    func rateLimit() async throws {
        let error = try await failure(.status(429, headers: [.retryAfter: "7"]))
        #expect(error.code == .rateLimit)
        #expect(error.code.rawValue == "rate_limit")
        #expect(error.exitCode == 5)
        #expect(error.isRetryable)
        #expect(error.details.retryAfter == .seconds(7))
        #expect(error.message == "Too Many Requests")
    }

    @Test("network: connection refused or timeout, exit 6, retryable")
    func network() async throws {
        for step in [ScriptedTransport.Step.connectionRefused, .timedOut] {
            let error = try await failure(step)
            #expect(error.code == .network)
            #expect(error.exitCode == 6)
            #expect(error.isRetryable)
            #expect(error.cause is TransportError)
        }
    }

    @Test(
        "api_error: 5xx (not 507) and unmapped statuses, exit 7; 500/502/503/504 retryable",
        arguments: [(500, true), (502, true), (503, true), (504, true), (501, false), (409, false), (418, false)]
    )
    func apiErrorStatus(status: Int, retryable: Bool) async throws {
        let error = try await failure(.status(status))
        #expect(error.code == .apiError)
        #expect(error.code.rawValue == "api_error")
        #expect(error.exitCode == 7)
        #expect(error.isRetryable == retryable)
        #expect(error.httpStatus == status)
    }

    @Test("api_error: an undecodable success body names the failing key path")
    func undecodable() async throws {
        struct Project: Decodable, Sendable {
            struct Owner: Decodable, Sendable { var name: String }
            var id: Int
            var owners: [Owner]
        }
        let client = try makeClient(ScriptedTransport([.json(["id": 1, "owners": [["name": "a"], ["nom": "b"]]])]))
        let error = await caughtAPIError { _ = try await client.send(Endpoint<Project>(.get, "p")) }
        #expect(error?.code == .apiError)
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("owners[1].name") == true)
    }

    @Test("ambiguous: a lost connection on a non-idempotent POST, exit 8, not retryable")
    func ambiguous() async throws {
        let error = try await failure(.connectionLost, method: .post)
        #expect(error.code == .ambiguous)
        #expect(error.exitCode == 8)
        #expect(!error.isRetryable)
        #expect(error.message.contains("may or may not"))
        let safe = try await failure(.connectionLost, method: .get)
        #expect(safe.code == .network)
        let refused = try await failure(.connectionRefused, method: .post)
        #expect(refused.code == .network, "nothing was sent, so the outcome is known")
    }

    @Test(
        "ambiguous: a 500, 502 or 504 answering a POST that is not safe to repeat, status kept",
        arguments: [500, 502, 504]
    )
    func ambiguousServerError(status: Int) async throws {
        let error = try await failure(.json(["error": "upstream failed"], status: status), method: .post)
        #expect(error.code == .ambiguous)
        #expect(error.exitCode == 8)
        #expect(!error.isRetryable)
        #expect(error.httpStatus == status)
        #expect(error.message == "The server may or may not have applied this request: upstream failed")
        #expect(error.hint == "Check the resource's state before trying again.")
    }

    @Test("A server error stays api_error where repeating is safe or nothing was applied")
    func serverErrorKnownOutcome() async throws {
        let idempotent = try await failure(.status(502), method: .put)
        #expect(idempotent.code == .apiError)
        #expect(idempotent.isRetryable)
        let unavailable = try await failure(.status(503), method: .post)
        #expect(unavailable.code == .apiError, "503: the server did not handle the request")
        #expect(unavailable.isRetryable)
        let notImplemented = try await failure(.status(501), method: .post)
        #expect(notImplemented.code == .apiError, "501: the server does not do this at all")
        let insufficientStorage = try await failure(.status(507), method: .post)
        #expect(insufficientStorage.code == .limitExceeded)

        let keyed = ScriptedTransport([.status(502)])
        let keyedClient = try makeClient(keyed) { $0.retry = .none }
        var endpoint = Endpoint<JSONValue>(.post, "thing")
        endpoint.headers[.idempotencyKey] = "order-17"
        let keyedError = await caughtAPIError { _ = try await keyedClient.send(endpoint) }
        #expect(keyedError?.code == .apiError, "a keyed POST can be sent again: the server applies it once")
        #expect(keyedError?.isRetryable == true)

        let configured = ScriptedTransport([.status(502)])
        let configuredClient = try makeClient(configured) {
            $0.retry = .none
            $0.idempotencyKeyHeader = .idempotencyKey
        }
        let configuredError = await caughtAPIError {
            _ = try await configuredClient.send(Endpoint<JSONValue>(.post, "thing"))
        }
        #expect(configuredError?.code == .apiError, "the client adds a key to every POST")
    }

    @Test("validation: 422 field errors are flattened, sorted, joined")
    func validation422() async throws {
        let error = try await failure(
            .json(["errors": ["name": ["can't be blank"], "email": ["is invalid", "is taken"]]], status: 422)
        )
        #expect(error.code == .validation)
        #expect(error.exitCode == 9)
        #expect(error.message == "email: is invalid; is taken, name: can't be blank")
        #expect(error.details.fieldErrors.map(\.field) == ["email", "name"])
        #expect(!error.isRetryable)
    }

    @Test("validation: 400 with a message and field list")
    func validation400() async throws {
        let error = try await failure(
            .json(
                [
                    "message": "Invalid input",
                    "errors": [["field": "title", "message": "too long"], ["field": "due", "message": "past"]],
                ],
                status: 400
            )
        )
        #expect(error.code == .validation)
        #expect(error.message == "Invalid input (due: past, title: too long)")
    }

    @Test("limit_exceeded: 507 and an oversized body, exit 10")
    func limitExceeded() async throws {
        let error = try await failure(.status(507))
        #expect(error.code == .limitExceeded)
        #expect(error.code.rawValue == "limit_exceeded")
        #expect(error.exitCode == 10)
        #expect(!error.isRetryable)
        let oversized = try await failure(
            .fail(TransportError(.bodyLimitExceeded(limit: 10), requestMayHaveBeenSent: true, message: "too big"))
        )
        #expect(oversized.code == .limitExceeded)
    }

    @Test("Messages fall back to the status text and are cut at 500 characters")
    func messages() async throws {
        let plain = try await failure(.status(404, body: "<html>not json</html>"))
        #expect(plain.message == "Not Found")
        let long = try await failure(.json(["error": .string(String(repeating: "x", count: 2000))], status: 500))
        #expect(long.message.count == 500)
    }

    @Test("Every code has a distinct exit code: 2 to 10, and 64 (EX_USAGE) for usage")
    func exitCodes() {
        #expect(Set(APIError.Code.allCases.map(\.exitCode)) == Set(2...10).union([64]))
    }

    @Test("A custom error-body decoder turns the API's own shape into the error, payload attached")
    func customDecoder() async throws {
        let transport = ScriptedTransport([.json(["fault": ["reason": "Quota used up", "kind": "quota"]], status: 400)])
        let client = try makeClient(transport) {
            $0.errorBodyDecoder = ErrorBodyDecoder { response in
                guard let payload = try? JSONValue(parsing: response.body),
                    let reason = payload["fault"]?["reason"]?.stringValue
                else { return nil }
                var error = response.standardError
                if payload["fault"]?["kind"] == "quota" {
                    error = APIError(.limitExceeded, error.details)
                }
                error.details.message = reason
                return error
            }
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message == "Quota used up")
        #expect(error?.details.payload?["fault"]?["kind"] == "quota")
    }

    @Test("Cancellation stays CancellationError")
    func cancellation() async throws {
        let client = try makeClient(ScriptedTransport([.fail(CancellationError())]))
        await #expect(throws: CancellationError.self) { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
    }
}

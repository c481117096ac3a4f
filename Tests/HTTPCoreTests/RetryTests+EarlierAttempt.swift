import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Retry: an earlier attempt that may have been applied")
struct RetryEarlierAttemptTests {
    /// The error a call of `method` ends with when the transport answers with `steps` in turn, on
    /// a client that also retries 500, 502 and 504 (by default only 429 and 503 are).
    private func error(
        _ method: HTTPRequest.Method,
        _ steps: [ScriptedTransport.Step],
        operation: OperationMetadata = OperationMetadata(),
        configure: (inout ClientConfiguration) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> APIError? {
        let transport = ScriptedTransport(steps)
        let client = try makeClient(transport) {
            $0.retry.jitter = .none
            $0.retry.retryableStatuses = [429, 500, 502, 503, 504]
            configure(&$0)
        }
        let error = await caughtAPIError {
            _ = try await client.send(Endpoint<JSONValue>(method, "x", operation: operation))
        }
        #expect(
            transport.requests.count == steps.count,
            "every scripted answer was used",
            sourceLocation: sourceLocation
        )
        return error
    }

    @Test("A PUT answered 502, then refused 412, says the 412 may answer its own earlier attempt")
    func refusedAfterGatewayError() async throws {
        let error = try await error(.put, [.status(502), .status(412)])
        #expect(error?.httpStatus == 412)
        #expect(error?.code == .apiError, "the code still describes the last answer")
        #expect(error?.details.earlierAttemptMayHaveBeenApplied == true)
        #expect(error?.hint?.hasPrefix("An earlier attempt of this request may already have been applied") == true)
    }

    @Test("A DELETE whose connection was lost after sending, then answered 404, is marked")
    func notFoundAfterLostConnection() async throws {
        let error = try await error(.delete, [.connectionLost, .status(404)])
        #expect(error?.code == .notFound)
        #expect(error?.details.earlierAttemptMayHaveBeenApplied == true)
    }

    @Test("A PUT answered 504, then refused a connection, ends `network` and marked")
    func unsentAfterGatewayTimeout() async throws {
        let error = try await error(.put, [.status(504), .connectionRefused, .connectionRefused])
        #expect(error?.code == .network)
        #expect(error?.details.earlierAttemptMayHaveBeenApplied == true)
        #expect(error?.hint != nil, "the note replaces the missing hint")
    }

    @Test("A deadline reached after a PUT's 500 is marked: the 500 may have come after the write")
    func deadlineAfterServerError() async throws {
        let error = try await error(.put, [.status(500)]) { $0.deadline = .milliseconds(500) }
        #expect(error?.code == .network)
        #expect(error?.message.contains("deadline") == true)
        #expect(error?.details.earlierAttemptMayHaveBeenApplied == true)
    }

    @Test(
        "Nothing is marked when no earlier attempt could have applied the write",
        arguments: [
            (
                "a GET answered 502, then 404", HTTPRequest.Method.get,
                [ScriptedTransport.Step.status(502), .status(404)]
            ),
            ("a PUT answered 503, then 404", .put, [.status(503), .status(404)]),
            ("a PUT answered 429, then 404", .put, [.status(429), .status(404)]),
            ("a PUT whose connection was refused, then 404", .put, [.connectionRefused, .status(404)]),
            ("a PUT answered 502 once, with no retry left", .put, [.status(502)]),
        ]
    )
    func unmarked(_ label: String, method: HTTPRequest.Method, steps: [ScriptedTransport.Step]) async throws {
        let error = try await error(method, steps) { $0.retry.maxAttempts = steps.count }
        #expect(error != nil, "\(label)")
        #expect(error?.details.earlierAttemptMayHaveBeenApplied == false, "\(label)")
    }

    @Test("An operation's own word on whether it changes data outranks its method")
    func changesDataDeclared() async throws {
        let writeByGet = try await error(
            .get,
            [.timedOut, .status(409)],
            operation: OperationMetadata(changesData: true)
        )
        #expect(writeByGet?.details.earlierAttemptMayHaveBeenApplied == true)
        let readByPut = try await error(
            .put,
            [.timedOut, .status(409)],
            operation: OperationMetadata(changesData: false)
        )
        #expect(readByPut?.details.earlierAttemptMayHaveBeenApplied == false)
    }

    @Test("A keyed POST answered 502, then 409, is marked")
    func keyedPost() async throws {
        let error = try await error(.post, [.status(502), .status(409)]) { $0.idempotencyKeyHeader = .idempotencyKey }
        #expect(error?.httpStatus == 409)
        #expect(error?.details.earlierAttemptMayHaveBeenApplied == true)
    }

    @Test("A success after a lost connection is just a success")
    func successAfterLostConnection() async throws {
        let transport = ScriptedTransport([.connectionLost, .json(["ok": true])])
        let value = try await makeClient(transport).send(Endpoint<JSONValue>(.put, "x"))
        #expect(value["ok"] == true)
    }
}

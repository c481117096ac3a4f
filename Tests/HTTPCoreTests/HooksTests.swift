import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Hooks")
struct HooksTests {
    @Test("ChainHooks sends start events in order and end events in reverse")
    func chainOrdering() async throws {
        let log = EventLog()
        let chain = ChainHooks(
            RecordingHooks("a", log: log),
            RecordingHooks("b", log: log),
            RecordingHooks("c", log: log)
        )
        let client = try makeClient(ScriptedTransport([.json([:])])) { $0.hooks = chain }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(
            log.entries == [
                "a.operationStarted", "b.operationStarted", "c.operationStarted",
                "a.requestStarted", "b.requestStarted", "c.requestStarted",
                "c.requestEnded", "b.requestEnded", "a.requestEnded",
                "c.operationEnded", "b.operationEnded", "a.operationEnded",
            ]
        )
    }

    @Test("Events carry operation, method, redacted URL, attempt, status and request id")
    func payloads() async throws {
        let recorder = HookRecorder()
        let clock = TestClock()
        let transport = ScriptedTransport([.json(["ok": true], headers: [.xRequestID: "r-9"])])
        var configuration = ClientConfiguration(
            baseURL: try #require(URL(string: "https://api.example.com")),
            hooks: recorder,
            timeSource: clock
        )
        configuration.redactor.addSecretQueryParameter("sig")
        let client = try Client(configuration: configuration, transport: transport)
        let operation = OperationMetadata(name: "GetThing", service: "things")
        _ = try await client.send(Endpoint<JSONValue>(.get, "things/1", query: ["sig": "s"], operation: operation))
        let events = recorder.events
        let start = try #require(events.operationStarts.first)
        #expect(start.operation.name == "GetThing")
        #expect(start.operation.service == "things")
        #expect(start.method == .get)
        #expect(start.url == "https://api.example.com/things/1?sig=[REDACTED]")
        let request = try #require(events.requestEnds.first)
        #expect(request.attempt == 1)
        #expect(request.status == 200)
        #expect(request.requestID == "r-9")
        #expect(request.fromCache == false)
        #expect(request.callID == start.callID)
        let end = try #require(events.operationEnds.first)
        #expect(end.status == 200)
        #expect(end.error == nil)
        #expect(end.cancelled == false)
    }

    @Test("A failing call reports its error to operation and request hooks")
    func failure() async throws {
        let recorder = HookRecorder()
        let client = try makeClient(ScriptedTransport([.connectionRefused])) { $0.hooks = recorder }
        _ = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(recorder.events.requestEnds.first?.error?.code == .network)
        #expect(recorder.events.operationEnds.first?.error?.code == .network)
    }

    @Test("A middleware can decorate every request")
    func middleware() async throws {
        let stamp = ClosureMiddleware { request, body, context, next in
            var request = request
            request.headerFields[header("X-Stamp")] = "\(context.operation.name)#\(context.attempt)"
            return try await next(request, body, context)
        }
        let transport = ScriptedTransport([.json([:])])
        let client = try makeClient(transport) { $0.middlewares = [stamp] }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(name: "Op")))
        #expect(transport.requests.first?.header("X-Stamp") == "Op#1")
    }
}

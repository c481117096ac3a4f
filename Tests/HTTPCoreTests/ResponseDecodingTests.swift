import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Response decoding")
struct ResponseDecodingTests {
    struct Event: Decodable, Sendable, Equatable {
        var id: Int
        var createdAt: Date
    }

    @Test("Decodable responses use snake_case keys and accept both ISO 8601 forms")
    func decodable() async throws {
        let client = try makeClient(
            ScriptedTransport([
                .json(["id": 1, "created_at": "2024-05-01T10:00:00Z"]),
                .json(["id": 2, "created_at": "2024-05-01T10:00:00.500+02:00"]),
            ])
        )
        let first = try await client.send(Endpoint<Event>(.get, "e/1"))
        #expect(first == Event(id: 1, createdAt: Date(timeIntervalSince1970: 1_714_557_600)))
        let second = try await client.send(Endpoint<Event>(.get, "e/2"))
        #expect(second.createdAt == Date(timeIntervalSince1970: 1_714_550_400.5))
    }

    @Test("Date-only and Unix-seconds strategies decode")
    func dateStrategies() async throws {
        let dateOnly = try makeClient(ScriptedTransport([.json(["id": 1, "created_at": "2024-05-01"])])) {
            $0.json.dates = .dateOnly
        }
        #expect(
            try await dateOnly.send(Endpoint<Event>(.get, "e")).createdAt == Date(timeIntervalSince1970: 1_714_521_600)
        )
        let unix = try makeClient(ScriptedTransport([.json(["id": 1, "created_at": 1_714_557_600])])) {
            $0.json.dates = .unixSeconds
        }
        #expect(try await unix.send(Endpoint<Event>(.get, "e")).createdAt == Date(timeIntervalSince1970: 1_714_557_600))
    }

    @Test("NoContent accepts 204 and empty 200 and 201")
    func noContent() async throws {
        let client = try makeClient(ScriptedTransport([.status(204), .status(200), .status(201)]))
        for _ in 0..<3 {
            let response = try await client.response(Endpoint<NoContent>(.post, "x"))
            #expect((200..<300).contains(response.status.code))
        }
    }

    @Test("Data endpoints return the raw bytes")
    func rawBytes() async throws {
        let bytes = Data([0xDE, 0xAD, 0xBE, 0xEF])
        let client = try makeClient(ScriptedTransport([.respond(status: 200, headers: [:], body: bytes)]))
        #expect(try await client.send(Endpoint<Data>(.get, "blob")) == bytes)
    }

    @Test("JSONValue endpoints return untyped JSON")
    func untyped() async throws {
        let client = try makeClient(ScriptedTransport([.json(["a": [1, 2.5, "x", nil, true]])]))
        let value = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(value["a"]?[0]?.intValue == 1)
        #expect(value["a"]?[1]?.doubleValue == 2.5)
        #expect(value["a"]?[3]?.isNull == true)
    }

    @Test("An empty body where JSON was expected is an api_error")
    func emptyJSON() async throws {
        let client = try makeClient(ScriptedTransport([.status(200)]))
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .apiError)
    }

    @Test("response(_:) returns status, headers, request id and raw body")
    func fullResponse() async throws {
        let client = try makeClient(ScriptedTransport([.json(["id": 3], status: 201, headers: [.xRequestID: "abc"])]))
        let response = try await client.response(Endpoint<JSONValue>(.post, "things"))
        #expect(response.status == .created)
        #expect(response.requestID == "abc")
        #expect(response.headers[.contentType] == "application/json")
        #expect(response.body == Data(#"{"id":3}"#.utf8))
        #expect(response.value["id"] == 3)
        #expect(response.url.absoluteString == "https://api.example.com/v1/things")
    }
}

import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

extension CacheTests {
    @Test("Every method, URL and credential gets its own entry, across many URLs")
    func manyKeys() async throws {
        let transport = ScriptedTransport { request in
            let name = request.url.lastPathComponent
            if request.header("If-None-Match") == "\"\(name)\"" {
                return TransportResponse(
                    response: HTTPResponse(status: .notModified, headerFields: [.eTag: "\"\(name)\""]),
                    body: Data(),
                    url: request.url
                )
            }
            return TransportResponse(
                response: HTTPResponse(
                    status: .ok,
                    headerFields: [.eTag: "\"\(name)\"", .contentType: "application/json"]
                ),
                body: Data(#"{"name":"\#(name)","version":1}"#.utf8),
                url: request.url
            )
        }
        let cache = ResponseCache(maxEntries: 2000)
        let client = try makeCachingClient(transport, cache: cache)
        for round in 0..<2 {
            for index in 0..<3 {
                let response = try await client.response(Endpoint<Resource>(.get, "resources/r\(index)"))
                #expect(response.value.name == "r\(index)")
                #expect(response.fromCache == (round == 1))
            }
        }
        // HEAD is keyed apart from GET, and a first HEAD is no hit on the GET's entry.
        let head = try await client.response(Endpoint<NoContent>(.head, "resources/r0"))
        #expect(head.fromCache == false)

        let withToken = Endpoint<Resource>(.get, "resources/secret", headers: [.authorization: "Bearer t-1"])
        _ = try await client.send(withToken)
        #expect(try await client.response(withToken).fromCache)

        for index in 0..<1100 {
            _ = try await client.send(Endpoint<Resource>(.get, "resources/many\(index)"))
        }
        #expect(try await client.response(Endpoint<Resource>(.get, "resources/r1")).value.name == "r1")
        #expect(try await client.response(Endpoint<Resource>(.get, "resources/many5")).fromCache)
    }

    @Test("Entries are scoped by credentials: another token never gets the entry, and no key holds a token")
    func credentialScope() async throws {
        let hooks = HookRecorder()
        let transport = ScriptedTransport([
            .json(["name": "alice", "version": 1], headers: [.eTag: "\"same\""]),
            .json(["name": "bob", "version": 1], headers: [.eTag: "\"same\""]),
            .status(304),
        ])
        let client = try makeCachingClient(transport, hooks: hooks)
        let alice = Endpoint<Resource>(.get, "me", headers: [.authorization: "Bearer alice-secret-token"])
        let bob = Endpoint<Resource>(.get, "me", headers: [.authorization: "Bearer bob-secret-token"])
        _ = try await client.send(alice)
        let bobValue = try await client.response(bob)
        let aliceAgain = try await client.response(alice)
        #expect(transport.requests[1].header("If-None-Match") == nil)
        #expect(bobValue.value.name == "bob" && !bobValue.fromCache)
        #expect(aliceAgain.value.name == "alice" && aliceAgain.fromCache)
        let payloads = hooks.events.cache.map { "\($0)" }.joined()
        #expect(!payloads.contains("secret-token"))
    }

    @Test("Credential headers scope entries whatever their order, and a different value misses")
    func credentialOrder() async throws {
        let transport = ScriptedTransport([
            .json(["name": "a", "version": 1], headers: [.eTag: "\"1\""]),
            .status(304),
            .json(["name": "b", "version": 1], headers: [.eTag: "\"2\""]),
        ])
        let apiKey = try #require(HTTPField.Name("X-API-Key"))
        let client = try makeCachingClient(transport) { $0.redactor.addSecretHeader(apiKey) }
        func me(_ fields: [HTTPField]) -> Endpoint<Resource> { Endpoint(.get, "me", headers: HTTPFields(fields)) }
        let token = HTTPField(name: .authorization, value: "Bearer t")
        let key = HTTPField(name: apiKey, value: "k1")
        _ = try await client.send(me([token, key]))
        let reordered = try await client.response(me([key, token]))
        let otherKey = try await client.response(me([token, HTTPField(name: apiKey, value: "k2")]))
        #expect(reordered.fromCache && reordered.value.name == "a")
        #expect(transport.requests[1].header("If-None-Match") == "\"1\"")
        #expect(!otherKey.fromCache && otherKey.value.name == "b")
        #expect(transport.requests[2].header("If-None-Match") == nil)
    }

    @Test("Vary: each Accept-Language gets its own entry")
    func vary() async throws {
        let transport = ScriptedTransport([
            .json(["name": "hello", "version": 1], headers: [.eTag: "\"en\"", .vary: "Accept-Language"]),
            .json(["name": "bonjour", "version": 1], headers: [.eTag: "\"fr\"", .vary: "accept-language"]),
            .status(304, headers: [.vary: "Accept-Language"]),
            .status(304, headers: [.vary: "Accept-Language"]),
        ])
        let client = try makeCachingClient(transport)
        func greeting(_ language: String) -> Endpoint<Resource> {
            Endpoint(.get, "greeting", headers: [.acceptLanguage: language])
        }
        _ = try await client.send(greeting("en"))
        let french = try await client.response(greeting("fr"))
        let english = try await client.response(greeting("en"))
        let frenchAgain = try await client.response(greeting("fr"))
        #expect(transport.requests[1].header("If-None-Match") == nil)
        #expect(french.value.name == "bonjour" && !french.fromCache)
        #expect(transport.requests[2].header("If-None-Match") == "\"en\"")
        #expect(english.value.name == "hello" && english.fromCache)
        #expect(transport.requests[3].header("If-None-Match") == "\"fr\"")
        #expect(frenchAgain.value.name == "bonjour" && frenchAgain.fromCache)
    }

    @Test("Vary: * is never stored")
    func varyStar() async throws {
        let cache = ResponseCache()
        let transport = ScriptedTransport([.json(["name": "x", "version": 1], headers: [.eTag: "\"x\"", .vary: "*"])])
        _ = try await makeCachingClient(transport, cache: cache).send(endpoint)
        #expect(try await cache.count == 0)
    }
}

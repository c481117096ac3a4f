import Foundation
import HTTPCoreTesting
import HTTPTypes
import Testing

@testable import HTTPCore

/// The pipeline's redirect stage on a scripted transport, which, like every transport, sends one
/// hop and hands a 3xx back. The contract suite (LoopbackTests) proves the same end to end.
@Suite("Redirect stage")
struct RedirectStageTests {
    @Test("The pipeline follows a redirect: each hop is a request of its own, one attempt for the middlewares")
    func followsHopByHop() async throws {
        let transport = ScriptedTransport([
            .status(302, headers: [.location: "/v1/landed?x=1"]),
            .json(["ok": true]),
        ])
        let recorder = HookRecorder()
        let probe = Probe(name: "probe")
        let client = try makeClient(transport) {
            $0.hooks = recorder
            $0.middlewares = [probe]
        }
        let response = try await client.response(Endpoint<JSONValue>(.get, "start"))
        #expect(response.url.absoluteString == "https://api.example.com/v1/landed?x=1")
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://api.example.com/v1/start", "https://api.example.com/v1/landed?x=1",
            ]
        )
        #expect(probe.seen.count == 1)
        #expect(recorder.events.requestStarts.map(\.url) == transport.requests.map(\.url.absoluteString))
        #expect(recorder.events.requestStarts.map(\.attempt) == [1, 1])
        #expect(recorder.events.requestEnds.map(\.status) == [302, 200])
        #expect(recorder.events.operationEnds.map(\.attempts) == [1])
    }

    @Test("A hop to another origin loses the credentials auth added, and its 401 renews nothing")
    func crossOriginHop() async throws {
        let transport = ScriptedTransport([
            .status(302, headers: [.location: "https://storage.example.net/blob"]),
            .status(401),
        ])
        let auth = RenewingAuth(token: "t-1")
        let client = try makeClient(transport) {
            $0.auth = auth
            $0.defaultHeaders = [.cookie: "session=1", .accept: "*/*"]
        }
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "file")) }
        #expect(error?.code == .authRequired)
        #expect(auth.renewals.value == 0)
        let sent = transport.requests
        try #require(sent.count == 2)
        #expect(sent[0].header("Authorization") == "Bearer t-1")
        #expect(sent[1].header("Authorization") == nil)
        #expect(sent[1].header("Cookie") == nil)
        #expect(sent[1].header("Accept") == "*/*")
    }

    @Test("An operation's own policy replaces the client's: .none hands the 3xx to the call")
    func perOperationPolicy() async throws {
        let transport = ScriptedTransport([.status(302, headers: [.location: "https://storage.example.net/blob"])])
        let client = try makeClient(transport)
        let endpoint = Endpoint<JSONValue>(.get, "file", operation: OperationMetadata(redirects: RedirectPolicy.none))
        let error = await caughtAPIError { _ = try await client.send(endpoint) }
        #expect(error?.httpStatus == 302)
        #expect(transport.requests.count == 1)
    }

    @Test("An operation's own policy still strips the client's secret headers across origins")
    func perOperationPolicyKeepsSecretHeaders() async throws {
        let apiKey = HTTPField.Name("X-Api-Key") ?? .authorization
        let transport = ScriptedTransport([
            .status(307, headers: [.location: "https://elsewhere.example.net/x"]),
            .json([:]),
        ])
        let client = try makeClient(transport) { $0.auth = APIKeyAuth(name: "X-Api-Key", value: "k-1") }
        let own = RedirectPolicy(maxRedirects: 1, credentialHeaders: [])
        _ = try await client.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(redirects: own)))
        #expect(transport.requests.map { $0.request.headerFields[apiKey] } == ["k-1", nil])
    }

    @Test("An operation's own policy still strips the headers the client's policy names as credentials")
    func perOperationPolicyKeepsClientCredentialHeaders() async throws {
        let tenant = HTTPField.Name("X-Tenant-Key") ?? .authorization
        let transport = ScriptedTransport([
            .status(307, headers: [.location: "https://elsewhere.example.net/x"]),
            .json([:]),
        ])
        let client = try makeClient(transport) {
            $0.redirectPolicy.credentialHeaders.insert(tenant)
            $0.middlewares = [
                ClosureMiddleware { request, body, context, next in
                    var request = request
                    request.headerFields[tenant] = "t-1"
                    return try await next(request, body, context)
                }
            ]
        }
        let own = RedirectPolicy(maxRedirects: 3)
        _ = try await client.send(Endpoint<JSONValue>(.get, "x", operation: OperationMetadata(redirects: own)))
        #expect(transport.requests.map { $0.request.headerFields[tenant] } == ["t-1", nil])
    }

    @Test("Plain http the caller chose is followed within its origin, never to another machine")
    func plainHTTPWithinItsOrigin() async throws {
        let transport = ScriptedTransport([
            .status(301, headers: [.location: "/v1/x/"]), .json([:]),
            .status(302, headers: [.location: "http://elsewhere.example.net/x"]),
        ])
        let client = try makeClient(transport, baseURL: "http://timetable.example.edu/v1") {
            $0.allowsInsecureHTTP = true
        }
        _ = try await client.send(Endpoint<JSONValue>(.get, "x"))
        #expect(transport.requests.map(\.url.absoluteString).last == "http://timetable.example.edu/v1/x/")
        await expectAPIError(.apiError) { try await client.send(Endpoint<JSONValue>(.get, "y")) }
        #expect(transport.requests.count == 3)
    }

    @Test("A POST turned into a GET by a 303 loses every field that described its body")
    func getAfterPostLosesContentFields() async throws {
        let transport = ScriptedTransport([.status(303, headers: [.location: "/v1/done"]), .json([:])])
        let client = try makeClient(transport)
        var endpoint = Endpoint<JSONValue>(.post, "x", body: .json(["a": 1]))
        endpoint.headers[.contentEncoding] = "identity"
        endpoint.headers[.contentLanguage] = "en"
        _ = try await client.send(endpoint)
        let get = try #require(transport.requests.last)
        #expect(get.request.method == .get)
        for name in [HTTPField.Name.contentType, .contentEncoding, .contentLanguage] {
            #expect(get.request.headerFields[name] == nil, "\(name)")
        }
    }

    @Test("A POST answered with a 303 is never sent again when the GET hop cannot connect")
    func laterHopFailureIsNotRetried() async throws {
        let transport = ScriptedTransport([
            .status(303, headers: [.location: "/v1/result"]),
            .connectionRefused,
            .json([:]),
        ])
        let client = try makeClient(transport) { $0.retry = RetryPolicy(jitter: .none) }
        let error = await caughtAPIError {
            _ = try await client.send(Endpoint<JSONValue>(.post, "orders", body: .json(["n": 1])))
        }
        #expect(error?.code == .ambiguous)
        #expect(transport.requests.map(\.request.method) == [.post, .get])
        #expect(transport.requests.last?.body == nil)
    }

    @Test(
        "A POST answered with a 303 is never sent again when the GET hop is rate limited or refused its credentials",
        arguments: [429, 401]
    )
    func laterHopRefusalIsNotRetried(status: Int) async throws {
        let transport = ScriptedTransport([
            .status(303, headers: [.location: "/v1/orders/17"]),
            .status(status, headers: [.retryAfter: "1"]),
            .status(303, headers: [.location: "/v1/orders/18"]),
            .json([:]),
        ])
        let auth = RenewingAuth(token: "t-1")
        let client = try makeClient(transport) {
            $0.retry = RetryPolicy(jitter: .none)
            $0.auth = auth
        }
        let error = await caughtAPIError {
            _ = try await client.send(Endpoint<JSONValue>(.post, "orders", body: .json(["n": 1])))
        }
        #expect(error?.code == .ambiguous)
        #expect(error?.httpStatus == status)
        #expect(transport.requests.map(\.request.method) == [.post, .get])
        #expect(auth.renewals.value == 0)
    }

    @Test("A keyed POST is safe to repeat: a 429 on its GET hop is retried, key and all")
    func keyedPostLaterHopRetried() async throws {
        let transport = ScriptedTransport([
            .status(303, headers: [.location: "/v1/orders/17"]),
            .status(429, headers: [.retryAfter: "1"]),
            .status(303, headers: [.location: "/v1/orders/17"]),
            .json(["id": 17]),
        ])
        let client = try makeClient(transport) {
            $0.retry = RetryPolicy(jitter: .none)
            $0.idempotencyKeyHeader = .idempotencyKey
        }
        _ = try await client.send(Endpoint<JSONValue>(.post, "orders", body: .json(["n": 1])))
        let posts = transport.requests.filter { $0.request.method == .post }
        #expect(posts.count == 2)
        #expect(
            posts.map { $0.request.headerFields[.idempotencyKey] }.allSatisfy {
                $0 == posts[0].request.headerFields[.idempotencyKey]
            }
        )
    }

    @Test("A 307 to another origin is not followed when the form body carries the auth strategy's key")
    func formCredentialsStayHome() async throws {
        let transport = ScriptedTransport([
            .status(307, headers: [.location: "https://collector.example.net/sink"]),
            .status(307, headers: [.location: "/v1/moved"]),
            .json([:]),
        ])
        let client = try makeClient(transport) {
            $0.auth = APIKeyAuth(name: "apikey", value: "SECRETKEY2", placement: .formOrQuery)
        }
        let submit = Endpoint<JSONValue>(.post, "submit", body: .form(["a": "1"]))
        let error = await caughtAPIError { _ = try await client.send(submit) }
        #expect(error?.httpStatus == 307)
        #expect(transport.requests.count == 1)
        // Within the origin the form, key and all, is sent on.
        _ = try await client.send(submit)
        let moved = try #require(transport.requests.last)
        #expect(moved.url.path == "/v1/moved")
        #expect(moved.bodyText?.contains("apikey=SECRETKEY2") == true)
    }

    @Test("A form without secrets follows a 307 to another origin, body and all")
    func plainFormFollowsAcrossOrigins() async throws {
        let transport = ScriptedTransport([
            .status(307, headers: [.location: "https://mirror.example.net/submit"]),
            .json([:]),
        ])
        _ = try await makeClient(transport).send(Endpoint<JSONValue>(.post, "submit", body: .form(["a": "1"])))
        #expect(transport.requests.map(\.url.host) == ["api.example.com", "mirror.example.net"])
        #expect(transport.requests.last?.bodyText == "a=1")
    }

    @Test(
        "A POST redirected to a GET that is refused or not followed was handled: ambiguous, never sent again",
        arguments: [
            ["http://api.example.com/v1/orders/17"],  // https to http: refused
            Array(repeating: "/v1/orders/17", count: 7),  // a 303, then more hops than allowed
            ["https://other.example.net/orders/17"],  // another origin, under a policy that stays home
            ["/v1/orders/17", "none"],  // a client that follows no redirect
        ]
    )
    func handledWriteRedirectRefused(locations: [String]) async throws {
        let followsNone = locations.last == "none"
        let locations = followsNone ? Array(locations.dropLast()) : locations
        let transport = ScriptedTransport(
            [.status(303, headers: [.location: locations[0]])]
                + locations.dropFirst().map { .status(302, headers: [.location: $0]) }
        )
        let client = try makeClient(transport) {
            $0.retry = RetryPolicy(jitter: .none)
            $0.redirectPolicy.followsCrossOrigin = false
            if followsNone { $0.redirectPolicy = .none }
        }
        let error = await caughtAPIError {
            _ = try await client.send(Endpoint<JSONValue>(.post, "orders", body: .json(["n": 1])))
        }
        #expect(error?.code == .ambiguous)
        #expect(transport.requests.filter { $0.request.method == .post }.count == 1)

        // Keyed, the same POST is safe to send again, so the refusal is what it is.
        let keyed = ScriptedTransport([.status(303, headers: [.location: "http://api.example.com/v1/orders/17"])])
        let keyedClient = try makeClient(keyed) { $0.idempotencyKeyHeader = .idempotencyKey }
        let refused = await caughtAPIError {
            _ = try await keyedClient.send(Endpoint<JSONValue>(.post, "orders", body: .json(["n": 1])))
        }
        #expect(refused?.code == .apiError)
    }

    @Test("A refused redirect fails the call without sending the hop")
    func refusal() async throws {
        let transport = ScriptedTransport([.status(301, headers: [.location: "http://api.example.com/v1/x"])])
        let client = try makeClient(transport)
        let error = await caughtAPIError { _ = try await client.send(Endpoint<JSONValue>(.get, "x")) }
        #expect(error?.code == .apiError)
        #expect(error?.message == "Refused a redirect from https to http.")
        #expect(transport.requests.count == 1)
    }
}

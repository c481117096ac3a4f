import APISandbox
import Foundation
import Testing

@Suite("Test-surface routes")
struct RouteTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func echoReflectsMethodPathQueryHeadersAndBody() async throws {
        try await Sandbox.withRunning { sandbox in
            let reply = try await sandbox.send(
                "/_test/echo/a/b?x=1&x=2&y=hello%20world",
                method: "POST",
                headers: ["X-Custom": "value", "Content-Type": "text/plain"],
                body: Data("héllo".utf8)
            )
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            let echo = try reply.json(Echo.self)
            #expect(echo.method == "POST")
            #expect(echo.path == "/_test/echo/a/b")
            #expect(echo.query == ["x": ["1", "2"], "y": ["hello world"]])
            #expect(echo.headers["x-custom"] == ["value"])
            #expect(echo.headers["host"] == ["127.0.0.1:\(sandbox.port)"])
            #expect(echo.body == "héllo")
            #expect(echo.bodyEncoding == "utf8")
            #expect(echo.bodyBytes == 6)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(arguments: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"])
    func echoAnswersEveryMethod(method: String) async throws {
        try await Sandbox.withRunning { sandbox in
            let reply = try await sandbox.send("/_test/echo", method: method)
            #expect(reply.status == 200)
            if method == "HEAD" {
                // Same headers as GET would give, but no body.
                #expect(reply.body.isEmpty)
                #expect(Int(reply.header("Content-Length") ?? "") ?? 0 > 0)
            } else {
                let echo = try reply.json(Echo.self)
                #expect(echo.method == method)
                #expect(echo.path == "/_test/echo")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func echoSendsBinaryBodiesAsBase64() async throws {
        try await Sandbox.withRunning { sandbox in
            let bytes = Data([0xFF, 0xFE, 0x00, 0x41])
            let reply = try await sandbox.send("/_test/echo/binary", method: "PUT", body: bytes)
            let echo = try reply.json(Echo.self)
            #expect(echo.bodyEncoding == "base64")
            #expect(Data(base64Encoded: echo.body) == bytes)
            #expect(echo.bodyBytes == 4)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func statusAnswersWithTheRequestedCodeBodyAndHeaders() async throws {
        try await Sandbox.withRunning { sandbox in
            let reply = try await sandbox.send(
                "/_test/status/418?body=short%20and%20stout&header=X-First:%201&header=X-Second:two"
            )
            #expect(reply.status == 418)
            #expect(String(decoding: reply.body, as: UTF8.self) == "short and stout")
            #expect(reply.header("X-First") == "1")
            #expect(reply.header("X-Second") == "two")

            let json = try await sandbox.send("/_test/status/503")
            #expect(json.status == 503)
            #expect(try json.json([String: Int].self) == ["status": 503])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(arguments: [204, 304])
    func bodilessStatusesHaveNoBody(code: Int) async throws {
        try await Sandbox.withRunning { sandbox in
            let reply = try await sandbox.send("/_test/status/\(code)?body=ignored&header=X-Kept:yes")
            #expect(reply.status == code)
            #expect(reply.body.isEmpty)
            #expect(reply.header("X-Kept") == "yes")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func delayWaitsBeforeAnswering() async throws {
        try await Sandbox.withRunning { sandbox in
            let clock = ContinuousClock()
            let start = clock.now
            let reply = try await sandbox.send("/_test/delay/250")
            #expect(clock.now - start >= .milliseconds(250))
            #expect(try reply.json([String: Int].self) == ["delayedMs": 250])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func redirectPointsWhereAsked() async throws {
        try await Sandbox.withRunning { sandbox in
            // Following the redirect lands on the echo route with the method preserved (307).
            let reply = try await sandbox.send(
                "/_test/redirect/307?to=/_test/echo/landed",
                method: "PUT",
                body: Data("kept".utf8)
            )
            let echo = try reply.json(Echo.self)
            #expect(echo.path == "/_test/echo/landed")
            #expect(echo.method == "PUT")
            #expect(sandbox.counters().requestsByPath["/_test/redirect/307"] == 1)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func bytesAreDeterministicWithAndWithoutChunking() async throws {
        try await Sandbox.withRunning { sandbox in
            let fixed = try await sandbox.send("/_test/bytes/5000")
            #expect(fixed.header("Content-Length") == "5000")
            #expect(fixed.body == expectedPattern(count: 5000))

            let chunked = try await sandbox.send("/_test/bytes/5000?chunked=1&chunk_size=700")
            #expect(chunked.header("Content-Length") == nil)
            #expect(chunked.body == expectedPattern(count: 5000))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func etagRevalidatesAndChangesOnPut() async throws {
        try await Sandbox.withRunning { sandbox in
            let client = Client()
            let url = try sandbox.url("/_test/etag/profile")
            let first = try await client.send(url)
            let etag = try #require(first.header("ETag"))
            #expect(first.status == 200)
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))

            let revalidated = try await client.send(url, headers: ["If-None-Match": etag])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)

            let updated = try await client.send(
                url,
                method: "PUT",
                headers: ["Content-Type": "application/json", "If-Match": etag],
                body: Data(#"{"name":"new"}"#.utf8)
            )
            let newETag = try #require(updated.header("ETag"))
            #expect(updated.status == 200)
            #expect(newETag != etag)

            let stale = try await client.send(url, headers: ["If-None-Match": etag])
            #expect(stale.status == 200)
            #expect(String(decoding: stale.body, as: UTF8.self) == #"{"name":"new"}"#)

            let conflicting = try await client.send(
                url,
                method: "PUT",
                headers: ["If-Match": etag],
                body: Data("x".utf8)
            )
            #expect(conflicting.status == 412)
        }
    }

    private struct Item: Decodable, Equatable {
        var id: Int
    }

    /// Parses `<url>; rel="name"` pairs from a Link header.
    private static func links(_ header: String?) -> [String: String] {
        var links: [String: String] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, pieces[0].hasPrefix("<"), pieces[0].hasSuffix(">") else { continue }
            let relation = pieces[1].replacingOccurrences(of: "rel=", with: "").replacingOccurrences(of: "\"", with: "")
            links[relation] = String(pieces[0].dropFirst().dropLast())
        }
        return links
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func pagesCarryLinkAndTotalCountHeaders() async throws {
        try await Sandbox.withRunning { sandbox in
            let client = Client()
            let page = try await client.send(sandbox.url("/_test/pages?total=25&per_page=10&page=2"))
            #expect(try page.json([Item].self) == (11...20).map { Item(id: $0) })
            #expect(page.header("X-Total-Count") == "25")
            let links = Self.links(page.header("Link"))
            let base = sandbox.baseURL.absoluteString
            #expect(links["first"] == "\(base)/_test/pages?total=25&per_page=10&page=1")
            #expect(links["prev"] == "\(base)/_test/pages?total=25&per_page=10&page=1")
            #expect(links["next"] == "\(base)/_test/pages?total=25&per_page=10&page=3")
            #expect(links["last"] == "\(base)/_test/pages?total=25&per_page=10&page=3")

            let next = try #require(links["next"].flatMap(URL.init(string:)))
            let lastPage = try await client.send(next)
            #expect(try lastPage.json([Item].self) == (21...25).map { Item(id: $0) })
            #expect(Self.links(lastPage.header("Link"))["next"] == nil)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Page numbers that would overflow the arithmetic are a 400, and the sandbox goes on serving")
    func pagesRefuseHugeNumbers() async throws {
        try await Sandbox.withRunning { sandbox in
            for query in ["total=9223372036854775807", "page=4611686018427387904"] {
                let refused = try await sandbox.send("/_test/pages?\(query)")
                #expect(refused.status == 400, "\(query)")
            }
            #expect(try await sandbox.send("/_test/pages?total=3").status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A web page on another site cannot reset or script the sandbox; one on this machine can")
    func testRoutesRefuseOtherOrigins() async throws {
        try await Sandbox.withRunning { sandbox in
            let foreign = try await sandbox.send(
                "/_test/reset",
                method: "POST",
                headers: ["Origin": "https://evil.example"]
            )
            #expect(foreign.status == 403)
            let local = try await sandbox.send(
                "/_test/reset",
                method: "POST",
                headers: ["Origin": "http://localhost:3000"]
            )
            #expect(local.status == 204)
            #expect(try await sandbox.send("/_test/reset", method: "POST").status == 204)
            // A plain GET from another site's page names no Origin, but says where it comes from.
            let image = try await sandbox.send("/_test/counters", headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(image.status == 403)
            let own = try await sandbox.send("/_test/counters", headers: ["Sec-Fetch-Site": "same-origin"])
            #expect(own.status == 200)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A range that starts before the first byte is served whole, not as a part")
    func bytesRefuseNegativeRange() async throws {
        try await Sandbox.withRunning { sandbox in
            let reply = try await sandbox.send("/_test/bytes/100", headers: ["Range": "bytes=-5-"])
            #expect(reply.status == 200)
            #expect(reply.body.count == 100)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func scriptConfiguredOverHTTPPlaysInOrderThenRepeatsTheLastStep() async throws {
        try await Sandbox.withRunning { sandbox in
            let client = Client()
            let script = #"""
                {"steps":[{"status":503},{"status":429,"headers":{"Retry-After":"1"}},{"status":200,"body":{"ok":true}}]}
                """#
            let configured = try await client.send(
                sandbox.url("/_test/script/flaky/configure"),
                method: "POST",
                body: Data(script.utf8)
            )
            #expect(configured.status == 200)

            let url = try sandbox.url("/_test/script/flaky")
            #expect(try await client.send(url).status == 503)
            let limited = try await client.send(url)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            for _ in 0..<2 {
                let success = try await client.send(url)
                #expect(success.status == 200)
                #expect(try success.json([String: Bool].self) == ["ok": true])
            }
            #expect(sandbox.counters().requestsByPath["/_test/script/flaky"] == 4)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func unknownScriptIsNotFound() async throws {
        try await Sandbox.withRunning { sandbox in
            let reply = try await sandbox.send("/_test/script/missing")
            #expect(reply.status == 404)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func countersTrackRequestsAndResetClearsThem() async throws {
        try await Sandbox.withRunning { sandbox in
            let client = Client()
            _ = try await client.send(sandbox.url("/_test/echo/one"))
            _ = try await client.send(sandbox.url("/_test/echo/one"))
            _ = try await client.send(sandbox.url("/_test/status/201"))

            let counters = sandbox.counters()
            #expect(counters.totalRequests == 3)
            #expect(counters.requestsByPath == ["/_test/echo/one": 2, "/_test/status/201": 1])
            // The HTTP view matches the Swift one and reading it is not itself counted.
            let served = try await client.send(sandbox.url("/_test/counters")).json(SandboxCounters.self)
            #expect(served == counters)

            #expect(try await client.send(sandbox.url("/_test/reset"), method: "POST").status == 204)
            #expect(sandbox.counters() == SandboxCounters())
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func honouredIdempotencyKeysApplyAWriteOnce() async throws {
        try await Sandbox.withRunning { sandbox in
            let client = Client()
            let url = try sandbox.url("/_test/writes")
            let headers = ["Idempotency-Key": "order-1"]
            let first = try await client.send(url, method: "POST", headers: headers, body: Data("a".utf8))
            let retry = try await client.send(url, method: "POST", headers: headers, body: Data("a".utf8))
            #expect(first.status == 201)
            #expect(retry.status == 201)
            #expect(retry.header("Idempotent-Replayed") == "true")
            let misuse = try await client.send(url, method: "POST", headers: headers, body: Data("b".utf8))
            #expect(misuse.status == 422)
            _ = try await client.send(url, method: "POST", body: Data("unkeyed".utf8))

            let counters = sandbox.counters()
            #expect(counters.writesReceived == 4)
            #expect(counters.writesApplied == 2)
            #expect(counters.writesAppliedByKey == ["order-1": 1])
            #expect(counters.writeAttemptsByKey == ["order-1": 3])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func ignoredIdempotencyKeysLetRetriesDuplicateWrites() async throws {
        try await Sandbox.withRunning(configuration: SandboxConfiguration(honoursIdempotencyKeys: false)) { sandbox in
            let client = Client()
            let url = try sandbox.url("/_test/writes")
            for _ in 0..<2 {
                let reply = try await client.send(
                    url,
                    method: "POST",
                    headers: ["Idempotency-Key": "order-1"],
                    body: Data("a".utf8)
                )
                #expect(reply.status == 201)
            }
            #expect(sandbox.counters().writesAppliedByKey == ["order-1": 2])
        }
    }
}

import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Redaction")
struct RedactionTests {
    @Test("Credential headers are replaced, others kept")
    func headers() {
        let redactor = Redactor(secretHeaders: [header("X-Api-Key")])
        let fields: HTTPFields = [
            .authorization: "Bearer s3cret", .cookie: "sid=abc", .setCookie: "sid=abc", .proxyAuthorization: "Basic x",
            header("X-CSRF-Token"): "csrf", header("X-Api-Key"): "key", .accept: "application/json",
        ]
        let redacted = redactor.redact(fields)
        for name in [HTTPField.Name.authorization, .cookie, .setCookie, .proxyAuthorization] {
            #expect(redacted[name] == Redactor.placeholder)
        }
        #expect(redacted[header("x-csrf-token")] == "[REDACTED]")
        #expect(redacted[header("x-api-key")] == "[REDACTED]")
        #expect(redacted[.accept] == "application/json")
    }

    @Test("Every redactor hides OAuth tokens and presigned storage URLs' signatures, keeping the rest")
    func standardQueryParameters() {
        let presigned =
            "https://bucket.s3.amazonaws.com/f?X-Amz-Credential=AKIA1&X-Amz-Signature=SIG-1&X-Amz-Expires=300"
        let shown = Redactor().redact(urlString: presigned)
        #expect(!shown.contains("AKIA1") && !shown.contains("SIG-1"))
        #expect(shown.contains("X-Amz-Expires=300"))
        let oauth = Redactor().redact(urlString: "https://api.example.com/cb?access_token=t-1&state=s")
        #expect(!oauth.contains("t-1") && oauth.contains("state=s"))
    }

    @Test("URLs in Location, Content-Location, Refresh and Link have their secrets replaced, the rest kept")
    func urlsInResponseFields() throws {
        let fields: HTTPFields = [
            .location: "https://bucket.s3.amazonaws.com/f?X-Amz-Credential=AKIA1&X-Amz-Signature=SIG-1",
            .contentLocation: "/items?access_token=t-2&page=1",
            header("Refresh"): "5; url=https://example.com/next?access_token=t-3",
            header("Link"):
                #"<https://api.example.com/i?page=2&access_token=t-4>; rel="next", </i?page=9>; rel="last""#,
            .eTag: #""t-5-not-a-url?access_token=x""#,
        ]
        let redacted = Redactor().redact(fields)
        let shown = redacted.map(\.value).joined(separator: "\n")
        // A `<` in a plain URL, or a Link target never closed, hides nothing.
        let odd: HTTPFields = [
            .location: "https://h.example/s?q=<b>&access_token=t-6",
            header("Link"): "<https://h.example/?access_token=t-7",
        ]
        let oddShown = Redactor().redact(odd).map(\.value).joined(separator: "\n")
        #expect(!oddShown.contains("t-6") && !oddShown.contains("t-7"), "\(oddShown)")
        for secret in ["AKIA1", "SIG-1", "t-2", "t-3", "t-4"] { #expect(!shown.contains(secret), "\(secret)") }
        #expect(
            redacted[header("Link")]
                == #"<https://api.example.com/i?page=2&access_token=[REDACTED]>; rel="next", </i?page=9>; rel="last""#
        )
        #expect(redacted[.contentLocation] == "/items?access_token=[REDACTED]&page=1")
        #expect(redacted[.eTag] == fields[.eTag], "only fields that hold URLs are read as URLs")
    }

    @Test("Secret query parameters and user-info passwords are replaced, case-insensitively")
    func urls() throws {
        let redactor = Redactor(secretQueryParameters: ["apikey", "sessionToken"])
        let url = try #require(
            URL(string: "https://user:pa55@h.example/x?APIKEY=k1&page=2&sessiontoken=t%20x&sessiontoken=t2#frag")
        )
        let text = redactor.redact(url)
        #expect(
            text
                == "https://user:[REDACTED]@h.example/x?APIKEY=[REDACTED]&page=2&sessiontoken=[REDACTED]&sessiontoken=[REDACTED]#frag"
        )
        #expect(!text.contains("pa55") && !text.contains("k1") && !text.contains("t2"))
    }

    @Test(
        "URLs without user info or secret parameters come back unchanged; the rest are redacted",
        arguments: [
            ("https://h.example/x?page=2", "https://h.example/x?page=2"),
            ("https://h.example/@me/x", "https://h.example/@me/x"),
            ("https://u:p@h.example/x", "https://u:[REDACTED]@h.example/x"),
            ("https://h.example/x?token=abc&q=1", "https://h.example/x?token=[REDACTED]&q=1"),
            ("not a url ?token=abc", "not a url ?token=[REDACTED]"),
        ]
    )
    func urlFastPath(input: String, expected: String) {
        #expect(Redactor(secretQueryParameters: ["token"]).redact(urlString: input) == expected)
        if !input.contains("@") {
            // Without secret parameters registered only user info is redacted.
            #expect(Redactor().redact(urlString: input) == input)
        }
    }

    @Test("A secret a server quotes back percent-encoded, as in a form or URL, is scrubbed too")
    func encodedSpellings() {
        let echoed = "got apipassword=pw-Secr3t%21 and name=two+words+here and path=/two%20words%20here"
        #expect(
            Redactor.scrub(echoed, removing: ["pw-Secr3t!", "two words here"])
                == "got apipassword=[REDACTED] and name=[REDACTED] and path=/[REDACTED]"
        )
    }

    @Test("Form bodies redact the same way")
    func formBodies() {
        let redactor = Redactor(secretQueryParameters: ["password"])
        #expect(redactor.redact(formEncoded: "user=ada&password=hunter2") == "user=ada&password=[REDACTED]")
    }

    @Test("Hook payloads and error descriptions never carry secrets")
    func hooksAndErrors() async throws {
        let recorder = HookRecorder()
        let transport = ScriptedTransport([
            .json(["error": "nope"], status: 401, headers: [.setCookie: "sid=cookie-secret"])
        ])
        let client = try makeClient(transport) {
            $0.hooks = recorder
            $0.redactor = Redactor(secretQueryParameters: ["token"])
            $0.defaultHeaders = [.authorization: "Bearer bearer-secret"]
        }
        let error = await caughtAPIError {
            _ = try await client.send(Endpoint<JSONValue>(.get, "me", query: ["token": "query-secret"]))
        }
        let events = recorder.events
        let dumped = [
            String(describing: events.operationStarts), String(describing: events.operationEnds),
            String(describing: events.requestStarts), String(describing: events.requestEnds),
            String(describing: error), error?.message ?? "",
        ]
        .joined(separator: "\n")
        #expect(!events.requestStarts.isEmpty)
        for secret in ["bearer-secret", "query-secret", "cookie-secret"] {
            #expect(!dumped.contains(secret), "\(secret) leaked")
        }
        #expect(events.requestStarts.first?.headers[.authorization] == "[REDACTED]")
        #expect(events.requestStarts.first?.url.contains("token=[REDACTED]") == true)
        // The transport itself still receives the real values.
        #expect(transport.requests.first?.header("Authorization") == "Bearer bearer-secret")
    }

    @Test("A request's description is redacted")
    func describe() throws {
        let redactor = Redactor(secretQueryParameters: ["key"])
        let request = HTTPRequest(method: .get, url: try #require(URL(string: "https://h.example/a?key=abc&x=1")))
        #expect(redactor.describe(request) == "GET https://h.example/a?key=[REDACTED]&x=1")
    }
}

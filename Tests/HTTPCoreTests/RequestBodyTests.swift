import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Request bodies")
struct RequestBodyTests {
    struct NewTodo: Encodable, Sendable {
        var content: String
        var dueOn: Date
        var assigneeIds: [Int]
    }

    @Test("Encodable bodies use the client's snake_case keys and ISO 8601 dates")
    func encodableJSON() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport)
        let todo = NewTodo(content: "Ship", dueOn: Date(timeIntervalSince1970: 1_714_557_600), assigneeIds: [7])
        _ = try await client.send(Endpoint<NoContent>(.post, "todos", body: .json(todo)))
        let sent = try #require(transport.requests.first)
        #expect(sent.header("Content-Type") == "application/json")
        #expect(sent.bodyText == #"{"assignee_ids":[7],"content":"Ship","due_on":"2024-05-01T10:00:00Z"}"#)
    }

    @Test("Default keys and fractional seconds can be chosen")
    func codingOptions() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport) {
            $0.json = JSONCoding(keys: .useDefaultKeys, dates: .iso8601WithFractionalSeconds)
        }
        let todo = NewTodo(content: "x", dueOn: Date(timeIntervalSince1970: 1_714_557_600.25), assigneeIds: [])
        _ = try await client.send(Endpoint<NoContent>(.post, "todos", body: .json(todo)))
        #expect(
            transport.requests.first?.bodyText
                == #"{"assigneeIds":[],"content":"x","dueOn":"2024-05-01T10:00:00.250Z"}"#
        )
    }

    @Test("A JSONValue literal is sent exactly as written")
    func literalJSON() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport)
        _ = try await client.send(
            Endpoint<NoContent>(.put, "x", body: .json(["due_on": nil, "subscriberIds": [1, 2], "ok": true]))
        )
        #expect(transport.requests.first?.bodyText == #"{"due_on":null,"ok":true,"subscriberIds":[1,2]}"#)
    }

    @Test("Form bodies are urlencoded with the form content type")
    func form() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport)
        _ = try await client.send(
            Endpoint<NoContent>(.post, "login", body: .form(["user": "ada l", "pass": "p+w&d", "none": nil]))
        )
        let sent = try #require(transport.requests.first)
        #expect(sent.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent.bodyText == "user=ada+l&pass=p%2Bw%26d")
    }

    @Test("Raw bytes keep their content type")
    func rawBytes() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport)
        let bytes = Data([0, 1, 2, 255])
        _ = try await client.send(Endpoint<NoContent>(.post, "upload", body: .bytes(bytes, contentType: "image/png")))
        #expect(transport.requests.first?.body == bytes)
        #expect(transport.requests.first?.header("Content-Type") == "image/png")
    }

    @Test("Multipart bodies carry fields and files between boundaries")
    func multipart() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport)
        var form = MultipartForm(boundary: "XyZ")
        form.append(field: "title", value: "Logo")
        form.append(file: "logo", filename: "logo.png", contentType: "image/png", data: Data("PNG".utf8))
        _ = try await client.send(Endpoint<NoContent>(.put, "account/logo", body: .multipart(form)))
        let sent = try #require(transport.requests.first)
        #expect(sent.header("Content-Type") == "multipart/form-data; boundary=XyZ")
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nLogo\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"logo.png\"\r\n"
            + "Content-Type: image/png\r\n\r\nPNG\r\n--XyZ--\r\n"
        #expect(sent.bodyText == expected)
    }

    @Test("A body that cannot be encoded is a usage error and nothing is sent")
    func unencodable() async throws {
        struct Bad: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "nope"))
            }
        }
        let transport = ScriptedTransport()
        let client = try makeClient(transport)
        let error = await caughtAPIError {
            _ = try await client.send(Endpoint<NoContent>(.post, "x", body: .json(Bad())))
        }
        #expect(error?.code == .usage)
        #expect(transport.requests.isEmpty)
    }

    @Test("Endpoint headers override defaults; User-Agent and Accept are set")
    func headers() async throws {
        let transport = ScriptedTransport([.status(204)])
        let client = try makeClient(transport) {
            $0.defaultHeaders = [header("X-Team"): "core", .accept: "text/plain"]
            $0.userAgent = "MyApp/1.0"
        }
        _ = try await client.send(Endpoint<NoContent>(.get, "x", headers: [header("X-Team"): "sdk"]))
        let sent = try #require(transport.requests.first)
        #expect(sent.header("X-Team") == "sdk")
        #expect(sent.request.headerFields[values: header("X-Team")].count == 1)
        #expect(sent.header("User-Agent") == "MyApp/1.0")
        #expect(sent.header("Accept") == "text/plain")
    }
}

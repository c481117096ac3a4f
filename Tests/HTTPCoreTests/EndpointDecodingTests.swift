import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Endpoint.decoding")
struct EndpointDecodingTests {
    @Test("The same request with another decoder: method, path, query, headers, body, operation and deadline kept")
    func keepsTheRequest() throws {
        var endpoint = Endpoint<PageItem>(
            .put,
            "items/1",
            query: ["a": "1"],
            headers: [.accept: "application/json"],
            body: .json(["id": 1]),
            operation: OperationMetadata(name: "PutItem", idempotent: true)
        )
        endpoint.deadline = .seconds(7)
        let bytes = endpoint.decoding(.bytes)
        #expect(bytes.method == .put)
        #expect(bytes.path == "items/1")
        #expect(bytes.query == endpoint.query)
        #expect(bytes.headers == endpoint.headers)
        let (request, sent) = try makeClient(ScriptedTransport([])).makeRequest(for: bytes)
        #expect(request.method == .put)
        #expect(sent == Data(#"{"id":1}"#.utf8))
        #expect(bytes.operation == endpoint.operation)
        #expect(bytes.deadline == .seconds(7))
        let body = Data(#"{"id":1}"#.utf8)
        let response = HTTPResponse(status: .ok)
        #expect(try bytes.decoder.decode(body, response, JSONDecoder()) == body)
    }
}

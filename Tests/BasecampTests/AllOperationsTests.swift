import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import HTTPTypes
import Testing

@Suite("Every operation in the Spec")
struct AllOperationsTests {
    @Test("The catalog lists the Spec's 250 operations in 53 services")
    func catalogMatchesSpec() throws {
        let spec = try #require(SpecSamples.shared)
        let paths = try #require(spec.document["paths"]?.objectValue)
        var specOperations: [String: (method: String, path: String)] = [:]
        for (path, item) in paths {
            for (method, operation) in item.objectValue ?? [:] {
                if let id = operation["operationId"]?.stringValue { specOperations[id] = (method.uppercased(), path) }
            }
        }
        #expect(specOperations.count == 250)
        #expect(OperationCatalog.all.count == 250)
        #expect(Set(OperationCatalog.all.map(\.service)).count == 53)
        #expect(OperationCatalog.services.count == 53)
        #expect(spec.schemas.count == 235)
        for operation in OperationCatalog.all {
            let entry = try #require(specOperations[operation.id], "\(operation.id) is not in the Spec")
            #expect(entry.method == operation.method.rawValue, "\(operation.id)")
            #expect(entry.path == operation.pathTemplate, "\(operation.id)")
        }
        #expect(OperationCatalog.operation(id: "GetTodo")?.service == "todos")
        #expect(OperationCatalog.operations(service: "todos").count == 8)
    }

    @Test("path(_:) fills every template by parameter name, percent-encoding values; the closure form agrees")
    func pathsFilled() throws {
        for operation in OperationCatalog.all {
            var values: [String: String] = [:]
            var expected = operation.pathTemplate
            for (place, parameter) in operation.pathParameters.enumerated() {
                let numeric = parameter.name == "accountId" || parameter.kind == .integer
                values[parameter.name] = numeric ? "\(place + 1)0" : "a b/\(place)é"
                let encoded = numeric ? "\(place + 1)0" : "a%20b%2F\(place)%C3%A9"
                expected = expected.replacingOccurrences(of: "{\(parameter.name)}", with: encoded)
            }
            #expect(try operation.path(values) == expected, "\(operation.id)")
            #expect(!expected.contains("{"), "\(operation.id)")
            let byPlace = operation.path { place, parameter in "<\(place) \(parameter.name)>" }
            let byName = operation.pathParameters.enumerated().reduce(operation.pathTemplate) { path, entry in
                path.replacingOccurrences(
                    of: "{\(entry.element.name)}",
                    with: "<\(entry.offset) \(entry.element.name)>"
                )
            }
            #expect(byPlace == byName, "\(operation.id)")
        }
    }

    @Test("path(_:) goes by name: parameters listed out of the template's order, a stray `{` kept as written")
    func pathByName() throws {
        let operation = BasecampOperation(
            id: "Custom",
            service: "custom",
            swiftName: "custom",
            method: .get,
            pathTemplate: "/{accountId}/things/{thingId}/{unknown}/x{y.json",
            pathParameters: [
                .init(name: "thingId", swiftName: "thingID", kind: .integer, isRequired: true),
                .init(name: "accountId", swiftName: "accountID", kind: .string, isRequired: true),
            ],
            summary: "A hand-made operation.",
            successStatus: 200,
            isReadOnly: true,
            isIdempotent: true,
            retry: .none
        )
        #expect(try operation.path(["accountId": "9", "thingId": "42"]) == "/9/things/42/{unknown}/x{y.json")
        #expect(operation.path { place, _ in "<\(place)>" } == "/<1>/things/<0>/{unknown}/x{y.json")
    }

    @Test("Each generated method sends the Spec's method, path, query and body", arguments: OperationCatalog.all)
    func operationRoundTrip(_ operation: BasecampOperation) async throws {
        let spec = try #require(SpecSamples.shared)
        let samples = OperationSamples(operation: operation, spec: spec)
        let responseBody = spec.responseBody(for: operation)
        let transport = ScriptedTransport { request in
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            fields[.xRequestID] = "req-\(operation.id)"
            return TransportResponse(
                response: HTTPResponse(status: .init(code: operation.successStatus), headerFields: fields),
                body: responseBody?.encoded() ?? Data(),
                url: request.url
            )
        }
        let recorder = OperationRecorder()
        let account = try makeBasecamp(transport, hooks: recorder).forAccount("999")

        let known = try await invokeOperation(operation.id, on: account, samples: samples)
        #expect(known, "no generated invocation for \(operation.id)")

        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.request.method == operation.method)
        #expect(request.url.host == "3.basecampapi.com")
        #expect(request.url.path == samples.expectedPath)
        let query = request.queryItems.map { "\($0.name)=\($0.value ?? "")" }
        #expect(query == samples.expectedQuery)
        #expect(request.header("Authorization") == "Bearer \(testToken)")
        #expect(request.header("User-Agent") == "BasecampTests (tests@example.com)")

        switch operation.bodyKind {
        case .json:
            #expect(request.header("Content-Type") == "application/json")
            let sent = try JSONValue(parsing: try #require(request.body))
            #expect(sent == samples.body, "the body must carry every field of \(operation.bodySchema ?? "?")")
        case .octetStream:
            #expect(request.body == samples.bytes)
            #expect(request.header("Content-Type") == "application/octet-stream")
        case .multipart:
            #expect(request.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
            #expect(request.bodyText?.contains("name=\"logo\"; filename=\"logo.png\"") == true)
        case nil:
            #expect(request.body == nil)
        }

        let metadata = try #require(recorder.started.first)
        #expect(metadata.name == operation.id)
        #expect(metadata.service == operation.service)
        #expect(metadata == operation.metadata)
    }

    @Test("Retry and idempotency metadata follow the Spec")
    func metadataFollowsSpec() throws {
        for operation in OperationCatalog.all {
            let retry = try #require(operation.metadata.retry)
            #expect(retry.retryableStatuses == [429, 503])
            #expect(retry.maxAttempts == 2 || retry.maxAttempts == 3)
            if operation.method == .get { #expect(operation.metadata.idempotent == true) }
            #expect(operation.isPaginated == (operation.metadata.pagination != nil))
        }
        let createTodo = try #require(OperationCatalog.operation(id: "CreateTodo"))
        #expect(createTodo.metadata.idempotent == false)
        let completeTodo = try #require(OperationCatalog.operation(id: "CompleteTodo"))
        #expect(completeTodo.metadata.idempotent == true)
        let attachment = try #require(OperationCatalog.operation(id: "CreateAttachment"))
        #expect(attachment.metadata.retry?.baseDelay == .seconds(2))
        let progress = try #require(OperationCatalog.operation(id: "GetPersonProgress"))
        #expect(progress.metadata.pagination?.itemsKey == "events")
        #expect(OperationCatalog.all.filter(\.replacesWholeRecord).count == 6)
        #expect(OperationCatalog.all.filter(\.isPaginated).count == 61)
    }

    @Test("Each operation's metadata is what its Spec entry says: name, service, idempotency, retry, pages")
    func metadataMatchesEachSpecEntry() throws {
        let spec = try #require(SpecSamples.shared)
        let paths = try #require(spec.document["paths"]?.objectValue)
        var checked = 0
        for item in paths.values {
            for entry in (item.objectValue ?? [:]).values {
                guard let id = entry["operationId"]?.stringValue else { continue }
                let metadata = try #require(OperationCatalog.operation(id: id)).metadata
                let readOnly = entry["x-basecamp-readonly"]?.boolValue == true
                let retry = try #require(entry["x-basecamp-retry"]?.objectValue)
                let expectedRetry = RetryPolicy(
                    maxAttempts: try #require(retry["maxAttempts"]?.intValue),
                    baseDelay: .milliseconds(try #require(retry["baseDelayMs"]?.intValue)),
                    backoff: try #require(retry["backoff"]?.stringValue) == "exponential" ? .exponential : .linear,
                    retryableStatuses: Set(try #require(retry["retryOn"]?.arrayValue).compactMap(\.intValue))
                )
                let pages = entry["x-basecamp-pagination"]?.objectValue
                #expect(metadata.name == id)
                #expect(metadata.service == entry["x-basecamp-service"]?.stringValue)
                #expect(metadata.idempotent == (readOnly || entry["x-basecamp-idempotent"]?.boolValue == true), "\(id)")
                #expect(metadata.retry == expectedRetry, "\(id)")
                #expect(metadata.pagination?.pageSize == pages?["pageSize"]?.intValue, "\(id)")
                #expect(metadata.pagination?.itemsKey == pages?["itemsKey"]?.stringValue, "\(id)")
                #expect((metadata.pagination == nil) == (pages == nil), "\(id)")
                checked += 1
            }
        }
        #expect(checked == 250)
    }
}

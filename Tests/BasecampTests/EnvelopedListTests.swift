import Basecamp
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

@Suite("Lists sent inside an object")
struct EnvelopedListTests {
    static let progressURL = "https://3.basecampapi.com/999/reports/users/progress/7.json"

    /// A page of a person's progress: the person, then the events with these ids.
    func progressPage(_ eventIDs: [Int]) throws -> JSONValue {
        let samples = try #require(SpecSamples.shared)
        let events = try eventIDs.map { id in
            var event = try #require(samples.sample(schema: "TimelineEvent").objectValue)
            event["id"] = .integer(id)
            return JSONValue.object(event)
        }
        return .object(["person": try example("Person"), "events": .array(events)])
    }

    func pages() throws -> [ScriptedTransport.Step] {
        [
            jsonResponse(
                try progressPage([1, 2]),
                headers: ["Link": "<\(Self.progressURL)?page=2>; rel=\"next\"", "X-Total-Count": "5"]
            ),
            jsonResponse(
                try progressPage([3, 4]),
                headers: ["Link": "<\(Self.progressURL)?page=3>; rel=\"next\"", "X-Total-Count": "5"]
            ),
            jsonResponse(try progressPage([5]), headers: ["X-Total-Count": "5"]),
        ]
    }

    @Test("A person's progress keeps the person and collects the events of every page")
    func everyPage() async throws {
        let transport = ScriptedTransport(try pages())
        let account = try makeBasecamp(transport).forAccount("999")
        let progress = try await account.reports.getPersonProgress(personID: 7)
        #expect(progress.value.person.name == "Victor Cooper")
        #expect(progress.value.events.map(\.id) == [1, 2, 3, 4, 5])
        #expect(progress.meta == ListMeta(totalCount: 5, truncated: false, pageCount: 3))
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                Self.progressURL, Self.progressURL + "?page=2", Self.progressURL + "?page=3",
            ]
        )
    }

    @Test("maxItems counts events, not pages, and says the list was cut")
    func maxItemsCountsEvents() async throws {
        let transport = ScriptedTransport(try pages())
        let account = try makeBasecamp(transport).forAccount("999")
        let progress = try await account.reports.getPersonProgress(personID: 7, maxItems: 3)
        #expect(progress.value.events.map(\.id) == [1, 2, 3])
        #expect(progress.meta.truncated)
        #expect(progress.meta.totalCount == 5)
        #expect(transport.requests.count == 2)
    }

    @Test("maxItems 0 still reads the first page for the person, and keeps no event")
    func maxItemsZero() async throws {
        let transport = ScriptedTransport(try pages())
        let progress = try await makeBasecamp(transport).forAccount("999").reports.getPersonProgress(
            personID: 7,
            maxItems: 0
        )
        #expect(progress.value.person.name == "Victor Cooper")
        #expect(progress.value.events.isEmpty)
        #expect(progress.meta.truncated)
        #expect(transport.requests.count == 1)
    }

    @Test("A page that fails after the first throws its error with the person and the events fetched so far")
    func partialOnFailure() async throws {
        let transport = ScriptedTransport([
            try pages()[0],
            jsonResponse(["error": "Not found"], status: 404),
        ])
        let account = try makeBasecamp(transport).forAccount("999")
        let error = try await #require(throws: APIError.self) {
            _ = try await account.reports.getPersonProgress(personID: 7)
        }
        #expect(error.exitCode == APIError.notFound(APIError.Details(message: "")).exitCode)
        let partial = try #require(error.partialEnvelope(of: GetPersonProgressResponse.self))
        #expect(partial.value.person.name == "Victor Cooper")
        #expect(partial.value.events.map(\.id) == [1, 2])
        #expect(partial.meta.truncated)
        #expect(partial.meta.pageCount == 1)
    }

    @Test("By id, the object comes back as JSON with every page's events under its own key")
    func performEnvelopedByID() async throws {
        let transport = ScriptedTransport(try pages())
        let account = try makeBasecamp(transport).forAccount("999")
        let operation = try #require(OperationCatalog.operation(id: "GetPersonProgress"))
        #expect(operation.listsInsideObject)
        let progress = try await account.performEnveloped(
            operation,
            pathParameters: ["personId": "7"],
            options: PaginationOptions(maxPages: 2)
        )
        #expect(progress.value["person"]?["name"] == "Victor Cooper")
        #expect(progress.value["events"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 2, 3, 4])
        #expect(progress.meta.truncated)

        let listTodos = try #require(OperationCatalog.operation(id: "ListTodos"))
        #expect(!listTodos.listsInsideObject)
        let refused = try await #require(throws: APIError.self) {
            _ = try await account.performEnveloped(listTodos, pathParameters: ["todolistId": "1"])
        }
        #expect(refused.code == .usage)
        #expect(refused.message == "ListTodos does not send its list inside an object.")
    }

    @Test("By id with a filter: the filter is applied before the limit, and the server's total no longer applies")
    func performEnvelopedFiltered() async throws {
        let transport = ScriptedTransport(try pages())
        let account = try makeBasecamp(transport).forAccount("999")
        let operation = try #require(OperationCatalog.operation(id: "GetPersonProgress"))
        let odd = try await account.performEnveloped(
            operation,
            pathParameters: ["personId": "7"],
            options: PaginationOptions(maxItems: 2)
        ) { ($0["id"]?.intValue ?? 0) % 2 == 1 }
        #expect(odd.value["events"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 3])
        #expect(odd.value["person"]?["name"] == "Victor Cooper")
        #expect(odd.meta.totalCount == nil)
        #expect(odd.meta.truncated)
        #expect(transport.requests.count == 2)
    }
}

import APISandbox
import Basecamp
import Foundation
import HTTPCore
import Testing

@testable import BasecampSandbox

@Suite("Every operation of the Spec answers in the sandbox")
struct EveryOperationTests {
    @Test("Each embedded example decodes with its SDK model")
    func examplesDecode() throws {
        let schemas = Set(
            OperationCatalog.all.compactMap(\.responseSchema).map {
                $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0
            }
        )
        #expect(schemas.count > 50)
        for schema in schemas.sorted() {
            let text = try #require(BasecampExamples.json(schema: schema), "no example for \(schema)")
            #expect(try decodeExample(schema: schema, Data(text.utf8)), "no model for \(schema)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("All 250 operations answer with their success status and a body the SDK decodes")
    func everyOperation() async throws {
        try await withSandboxAccount(retry: false, rateLimited: false) { account, _ in
            let kickoff = String(BasecampSandboxSeed.kickoffMessageID)
            let comments = try await account.performPaginated(
                try #require(OperationCatalog.operation(id: "ListComments")),
                pathParameters: ["recordingId": kickoff]
            ).collect()
            let commentID = try #require(comments.items.first?["id"]?.intValue)
            // The deletes come before the gets: each deletes a record of its own, not the seeded one.
            let doomed = try await Doomed(on: account)
            var answered = 0
            for operation in OperationCatalog.all {
                try await call(operation, on: account, commentID: commentID, doomed: doomed)
                answered += 1
            }
            #expect(answered == 250)
        }
    }

    private func call(
        _ operation: BasecampOperation,
        on account: AccountClient,
        commentID: Int,
        doomed: Doomed
    ) async throws {
        let path = pathValues(operation, commentID: commentID, doomed: doomed)
        let query = operation.queryParameters.filter(\.isRequired).map { ($0.name, sampleQueryValue($0)) }
        if operation.isPaginated {
            let first = try await account.perform(operation, pathParameters: path, query: query)
            expectCannedMark(first, operation)
            let list = try await account.performPaginated(operation, pathParameters: path, query: query).collect()
            for item in list.items { try expectDecodes(item, as: operation.responseSchema, operation) }
            return
        }
        let response = try await account.perform(operation, pathParameters: path, query: query, body: body(operation))
        #expect(response.status.code == operation.successStatus, "\(operation.id)")
        expectCannedMark(response, operation)
        #expect(response.requestID?.hasPrefix("basecamp-") == true, "\(operation.id) has no X-Request-Id")
        guard let schema = operation.responseSchema else {
            #expect(response.body.isEmpty, "\(operation.id) should answer without a body")
            return
        }
        if schema.hasPrefix("["), case .array(let items) = response.value {
            for item in items { try expectDecodes(item, as: schema, operation) }
        } else {
            #expect(try decodeExample(schema: schema, response.body), "\(operation.id)")
        }
    }

    /// An answer carries `X-Sandbox-Example` exactly when its operation is listed as canned.
    private func expectCannedMark<Value>(_ response: Response<Value>, _ operation: BasecampOperation) {
        let marked = response.headers.contains { $0.name.canonicalName == "x-sandbox-example" && $0.value == "true" }
        let listed = BasecampSandboxModule.cannedOperations.contains(operation.id)
        #expect(marked == listed, "\(operation.id): marked \(marked), listed as canned \(listed)")
    }

    @Test("Fewer than half the operations answer a fixed example, and the number only goes down")
    func cannedCount() {
        // Lower this when an operation starts keeping state; it must never rise.
        #expect(BasecampSandboxModule.cannedOperations.count <= 137)
        #expect(BasecampSandboxModule.cannedOperations.contains("GetCard") == false)
        #expect(BasecampSandboxModule.cannedOperations.contains("GetCalendar"))
    }

    @Test("docs/command-line.md lists exactly the canned operations")
    func cannedListInDocs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appending(path: "docs/command-line.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## basecamp: what the sandbox keeps").last)
        let block = try #require(
            section.components(separatedBy: "```text\n").last?.components(separatedBy: "```").first
        )
        let listed = block.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(listed == BasecampSandboxModule.cannedOperations)
        #expect(
            section.contains("These \(listed.count)\noperations")
                || section.contains("These \(listed.count) operations")
        )
    }

    private func expectDecodes(_ item: JSONValue, as schema: String?, _ operation: BasecampOperation) throws {
        guard let schema else { return }
        let itemSchema = schema.hasPrefix("[") ? String(schema.dropFirst().dropLast()) : schema
        // Lists kept inside an object (GetPersonProgress) decode as their own item type elsewhere.
        guard !operation.isPaginated || schema.hasPrefix("[") else { return }
        do {
            _ = try decodeExample(schema: itemSchema, item.encoded())
        } catch {
            Issue.record("\(operation.id): an item does not decode as \(itemSchema): \(error)")
        }
    }

    private func pathValues(_ operation: BasecampOperation, commentID: Int, doomed: Doomed) -> [String: String] {
        var values: [String: String] = [:]
        for parameter in operation.pathParameters where parameter.name != "accountId" {
            let id: Int
            switch parameter.name {
            case "projectId", "bucketId": id = BasecampSandboxSeed.letoLaptopProjectID
            case "todolistId", "id": id = BasecampSandboxSeed.hardwareTodolistID
            case "todoId", "recordingId": id = BasecampSandboxSeed.fluxCapacitorTodoID
            case "todosetId": id = BasecampSandboxSeed.letoLaptopTodosetID
            case "boardId": id = BasecampSandboxSeed.letoLaptopMessageBoardID
            case "messageId": id = BasecampSandboxSeed.kickoffMessageID
            case "personId": id = BasecampSandboxSeed.ownerID
            case "commentId": id = commentID
            case "vaultId": id = BasecampSandboxSeed.letoLaptopVaultID
            case "uploadId": id = BasecampSandboxSeed.companyLogoUploadID
            case "documentId": id = BasecampSandboxSeed.releaseNotesDocumentID
            case "cardTableId": id = BasecampSandboxSeed.letoLaptopCardTableID
            case "columnId": id = BasecampSandboxSeed.inProgressColumnID
            case "cardId": id = BasecampSandboxSeed.laptopCaseCardID
            case "stepId": id = BasecampSandboxSeed.measureLidStepID
            case "scheduleId": id = BasecampSandboxSeed.letoLaptopScheduleID
            case "entryId": id = BasecampSandboxSeed.designReviewEntryID
            case "campfireId": id = BasecampSandboxSeed.letoLaptopCampfireID
            case "lineId": id = operation.id == "DeleteCampfireLine" ? doomed.line : BasecampSandboxSeed.morningLineID
            case "questionnaireId": id = BasecampSandboxSeed.letoLaptopQuestionnaireID
            case "questionId": id = BasecampSandboxSeed.workedOnQuestionID
            case "answerId": id = BasecampSandboxSeed.workedOnAnswerID
            case "typeId":
                id = operation.id == "DeleteMessageType" ? doomed.type : BasecampSandboxSeed.announcementTypeID
            case "boostId": id = operation.id == "DeleteBoost" ? doomed.boost : BasecampSandboxSeed.kickoffBoostID
            case "webhookId":
                id = operation.id == "DeleteWebhook" ? doomed.webhook : BasecampSandboxSeed.pausedWebhookID
            default: id = 42
            }
            values[parameter.name] = parameter.kind == .integer ? String(id) : "sample-\(id)"
        }
        return values
    }

    private func sampleQueryValue(_ parameter: BasecampOperation.Parameter) -> String {
        switch parameter.kind {
        case .integer, .integerList: return "1"
        case .boolean: return "true"
        case .date: return "2026-02-06"
        case .string: return parameter.name == "type" ? "Todo" : "sample"
        case .stringList: return parameter.name == "type_names[]" ? "Todo" : "sample"
        }
    }

    private func body(_ operation: BasecampOperation) -> RequestBody? {
        switch operation.bodyKind {
        case .json?:
            let required = BasecampExamples.body(schema: operation.bodySchema ?? "").required
            var members: [String: JSONValue] = [:]
            for field in required {
                switch field {
                case "position": members[field] = 1
                case "attachable_sgid": members[field] = .string(BasecampSandboxSeed.companyLogoAttachmentSGID)
                case "payload_url": members[field] = "https://example.com/hooks"
                case "types": members[field] = ["Todo"]
                case "starts_at", "ends_at": members[field] = "2026-02-10T09:00:00Z"
                case "column_id": members[field] = .integer(BasecampSandboxSeed.inProgressColumnID)
                case "schedule": members[field] = ["frequency": "every_day", "hour": 9, "minute": 0]
                default: members[field] = "Sample"
                }
            }
            return .json(.object(members))
        case .octetStream?:
            return .bytes(Data("file".utf8))
        case .multipart?:
            var form = MultipartForm()
            form.append(file: "logo", filename: "logo.png", contentType: "image/png", data: Data("png".utf8))
            return .multipart(form)
        case nil:
            return nil
        }
    }
}

/// Records made for the delete operations, so that the seeded ones stay for the gets after them.
private struct Doomed {
    var webhook: Int
    var line: Int
    var type: Int
    var boost: Int

    init(on account: AccountClient) async throws {
        func create(_ operationID: String, _ path: [String: String], _ body: JSONValue) async throws -> Int {
            let operation = try #require(OperationCatalog.operation(id: operationID))
            let response = try await account.perform(operation, pathParameters: path, body: .json(body))
            return try #require(response.value["id"]?.intValue)
        }
        let project = String(BasecampSandboxSeed.letoLaptopProjectID)
        webhook = try await create(
            "CreateWebhook",
            ["bucketId": project],
            ["payload_url": "https://example.com/doomed", "types": [], "active": false]
        )
        line = try await create(
            "CreateCampfireLine",
            ["campfireId": String(BasecampSandboxSeed.letoLaptopCampfireID)],
            ["content": "Doomed"]
        )
        type = try await create("CreateMessageType", ["bucketId": project], ["name": "Doomed", "icon": "x"])
        boost = try await create(
            "CreateRecordingBoost",
            ["recordingId": String(BasecampSandboxSeed.kickoffMessageID)],
            ["content": "x"]
        )
    }
}

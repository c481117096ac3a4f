import APISandbox
import Basecamp
import BasecampSandbox
import Foundation
import HTTPCore
import HTTPCoreTesting
import Testing

/// The sandbox keeps what the SDK writes: each kind created through the SDK reads back by get,
/// list and search, status changes hide it from lists, and the project timeline shows the changes.
@Suite("A sandbox that remembers")
struct RememberingSandboxTests {
    private static let project = Int64(BasecampSandboxSeed.letoLaptopProjectID)

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("One of each kept kind, created through the SDK, is found by get, list and search")
    func createThenFind() async throws {
        try await withSandboxAccount(retry: false) { account, _ in
            let seed = BasecampSandboxSeed.self

            let column = try await account.cardColumns.create(
                cardTableID: Int64(seed.letoLaptopCardTableID),
                CreateCardColumnRequest(title: "Zircon column")
            )
            #expect(try await account.cardColumns.get(columnID: column.id).title == "Zircon column")
            let table = try await account.cardTables.get(cardTableID: Int64(seed.letoLaptopCardTableID))
            #expect(table.lists?.contains { $0.id == column.id } == true)

            let card = try await account.cards.create(
                columnID: column.id,
                CreateCardRequest(title: "Zircon card", content: "Polish the zircon")
            )
            #expect(try await account.cards.get(cardID: card.id).content == "Polish the zircon")
            #expect(try await account.cards.list(columnID: column.id).items.map(\.id) == [card.id])

            let step = try await account.cardSteps.create(cardID: card.id, CreateCardStepRequest(title: "Zircon step"))
            #expect(try await account.cardSteps.get(stepID: step.id).title == "Zircon step")
            #expect(try await account.cards.get(cardID: card.id).steps?.map(\.id) == [step.id])

            let entry = try await account.schedules.createEntry(
                scheduleID: Int64(seed.letoLaptopScheduleID),
                CreateScheduleEntryRequest(
                    endsAt: "2026-03-02T11:00:00Z",
                    startsAt: "2026-03-02T10:00:00Z",
                    summary: "Zircon review"
                )
            )
            #expect(try await account.schedules.getEntry(entryID: entry.id).summary == "Zircon review")
            let entries = try await account.schedules.listEntries(scheduleID: Int64(seed.letoLaptopScheduleID))
            #expect(entries.items.contains { $0.id == entry.id })

            let campfire = Int64(seed.letoLaptopCampfireID)
            let line = try await account.campfires.createLine(
                campfireID: campfire,
                CreateCampfireLineRequest(content: "Zircon line")
            )
            #expect(try await account.campfires.getLine(campfireID: campfire, lineID: line.id).content == "Zircon line")
            #expect(try await account.campfires.listLines(campfireID: campfire).items.contains { $0.id == line.id })

            let questionnaire = Int64(seed.letoLaptopQuestionnaireID)
            let question = try await account.checkins.createQuestion(
                questionnaireID: questionnaire,
                CreateQuestionRequest(schedule: QuestionSchedule(frequency: "every_day"), title: "Zircon question?")
            )
            #expect(try await account.checkins.getQuestion(questionID: question.id).title == "Zircon question?")
            let questions = try await account.checkins.listQuestions(questionnaireID: questionnaire)
            #expect(questions.items.contains { $0.id == question.id })
            let answer = try await account.checkins.createAnswer(
                questionID: question.id,
                QuestionAnswerPayload(content: "Zircon answer")
            )
            #expect(try await account.checkins.getAnswer(answerID: answer.id).content == "Zircon answer")
            #expect(try await account.checkins.listAnswers(questionID: question.id).items.map(\.id) == [answer.id])

            let type = try await account.messageTypes.create(
                bucketID: Self.project,
                CreateMessageTypeRequest(icon: "💎", name: "Zircon")
            )
            #expect(try await account.messageTypes.get(bucketID: Self.project, typeID: type.id).name == "Zircon")
            #expect(try await account.messageTypes.list(bucketID: Self.project).items.contains { $0.id == type.id })

            let boost = try await account.boosts.createForRecording(
                recordingID: card.id,
                CreateRecordingBoostRequest(content: "💎")
            )
            #expect(try await account.boosts.get(boostID: boost.id).content == "💎")
            #expect(try await account.boosts.listForRecording(recordingID: card.id).items.map(\.id) == [boost.id])

            let rootVault = Int64(seed.letoLaptopVaultID)
            let vault = try await account.vaults.create(vaultID: rootVault, CreateVaultRequest(title: "Zircon folder"))
            #expect(try await account.vaults.get(vaultID: vault.id).title == "Zircon folder")
            #expect(try await account.vaults.list(vaultID: rootVault).items.contains { $0.id == vault.id })
            let document = try await account.documents.create(
                vaultID: vault.id,
                CreateDocumentRequest(title: "Zircon notes", content: "Facets")
            )
            #expect(try await account.documents.get(documentID: document.id).content == "Facets")
            #expect(try await account.documents.list(vaultID: vault.id).items.map(\.id) == [document.id])

            let found = try await account.search.search(q: "zircon").items.compactMap(\.id)
            for id in [column.id, card.id, step.id, entry.id, line.id, question.id, answer.id, document.id] {
                #expect(found.contains(id), "search misses \(id)")
            }
            let cards = try await account.recordings.list(type: "Kanban::Card", bucket: String(Self.project))
            #expect(cards.items.contains { $0.id == card.id })
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A test reads what its code wrote through recordings()")
    func readBack() async throws {
        let module = BasecampSandboxModule()
        try await withBasecampSandbox(module: module) { sandbox in
            let account = try sandbox.account(retry: false)
            let line = try await account.campfires.createLine(
                campfireID: Int64(BasecampSandboxSeed.letoLaptopCampfireID),
                CreateCampfireLineRequest(content: "Read me back")
            )
            let kept = module.recordings().first { $0.id == Int(line.id) }
            #expect(kept?.type == "Chat::Lines::Text")
            #expect(kept?.title == "Read me back")
            #expect(kept?.projectID == BasecampSandboxSeed.letoLaptopProjectID)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("The state file keeps the kept kinds for the next sandbox")
    func stateFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "remembering-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        var cardID: Int64 = 0
        try await withBasecampSandbox(module: try BasecampSandboxModule(stateFile: file)) { sandbox in
            let account = try sandbox.account(retry: false)
            let card = try await account.cards.create(
                columnID: Int64(BasecampSandboxSeed.inProgressColumnID),
                CreateCardRequest(title: "Kept across runs")
            )
            _ = try await account.bookmarks.create(recordingID: card.id)
            cardID = card.id
        }
        try await withBasecampSandbox(module: try BasecampSandboxModule(stateFile: file)) { sandbox in
            let account = try sandbox.account(retry: false)
            #expect(try await account.cards.get(cardID: cardID).title == "Kept across runs")
            #expect(try await account.bookmarks.get(recordingID: cardID).bookmarked)
            #expect(try await account.events.list(recordingID: cardID).items.map(\.action) == ["created"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Trash and archive hide a record from its list; unarchive brings it back")
    func statusChanges() async throws {
        try await withSandboxAccount(retry: false) { account, _ in
            let column = Int64(BasecampSandboxSeed.inProgressColumnID)
            let card = Int64(BasecampSandboxSeed.laptopCaseCardID)
            try await account.recordings.archive(recordingID: card)
            #expect(try await account.cards.list(columnID: column).items.isEmpty)
            #expect(try await account.search.search(q: "laptop case").items.isEmpty)
            try await account.recordings.unarchive(recordingID: card)
            #expect(try await account.cards.list(columnID: column).items.map(\.id) == [card])
            try await account.recordings.trash(recordingID: card)
            #expect(try await account.cards.list(columnID: column).items.isEmpty)
            #expect(try await account.cards.get(cardID: card).status == "trashed")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Search narrows by type, project and creator lists and exclude_chat; a trashed project is not searched")
    func searchFilters() async throws {
        try await withSandboxAccount(retry: false) { account, _ in
            let todo = try await account.todos.create(
                todolistID: Int64(BasecampSandboxSeed.hardwareTodolistID),
                CreateTodoRequest(content: "Order quartz feet")
            )
            let message = try await account.messages.create(
                boardID: Int64(BasecampSandboxSeed.letoLaptopMessageBoardID),
                CreateMessageRequest(subject: "Quartz or rubber?", status: .active)
            )
            let line = try await account.campfires.createLine(
                campfireID: Int64(BasecampSandboxSeed.letoLaptopCampfireID),
                CreateCampfireLineRequest(content: "quartz it is")
            )
            func found(
                typeNames: [String]? = nil,
                bucketIDs: [Int64]? = nil,
                creatorIDs: [Int64]? = nil,
                excludeChat: Bool? = nil
            ) async throws -> Set<Int64> {
                let results = try await account.search.search(
                    q: "quartz",
                    typeNames: typeNames,
                    bucketIDs: bucketIDs,
                    creatorIDs: creatorIDs,
                    excludeChat: excludeChat
                )
                return Set(results.items.compactMap(\.id))
            }
            let website = Int64(BasecampSandboxSeed.websiteProjectID)
            #expect(try await found() == [todo.id, message.id, line.id])
            #expect(try await found(typeNames: ["Todo", "Message"]) == [todo.id, message.id])
            #expect(try await found(excludeChat: true) == [todo.id, message.id])
            #expect(try await found(bucketIDs: [website]).isEmpty)
            #expect(try await found(bucketIDs: [website, Self.project]).count == 3)
            #expect(try await found(creatorIDs: [Int64(BasecampSandboxSeed.ownerID)]).count == 3)
            #expect(try await found(creatorIDs: [Int64(BasecampSandboxSeed.ownerID) + 99]).isEmpty)

            try await account.projects.trash(projectID: Self.project)
            #expect(try await found().isEmpty)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Events and the project timeline record real changes, newest first")
    func eventsAndTimeline() async throws {
        try await withSandboxAccount(retry: false) { account, _ in
            let card = try await account.cards.create(
                columnID: Int64(BasecampSandboxSeed.inProgressColumnID),
                CreateCardRequest(title: "Timeline card")
            )
            _ = try await account.cards.update(cardID: card.id, UpdateCardRequest(title: "Timeline card, renamed"))
            let events = try await account.events.list(recordingID: card.id).items.map(\.action)
            #expect(events == ["content_changed", "created"])
            let timeline = try await account.timeline.getProjectTimeline(projectID: Self.project).items
            #expect(timeline.first?.kind == "kanban_card_content_changed")
            #expect(timeline.first?.title == "Timeline card, renamed")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Bookmarks and subscriptions are kept per recording")
    func following() async throws {
        try await withSandboxAccount(retry: false) { account, _ in
            let message = Int64(BasecampSandboxSeed.kickoffMessageID)
            #expect(try await account.bookmarks.get(recordingID: message).bookmarked == false)
            _ = try await account.bookmarks.create(recordingID: message)
            #expect(try await account.bookmarks.get(recordingID: message).bookmarked)
            #expect(try await account.bookmarks.list().items.count == 1)
            try await account.bookmarks.delete(recordingID: message)
            #expect(try await account.bookmarks.list().items.isEmpty)

            #expect(try await account.subscriptions.get(recordingID: message).subscribed)
            try await account.subscriptions.unsubscribe(recordingID: message)
            #expect(try await account.subscriptions.get(recordingID: message).subscribed == false)
            #expect(try await account.subscriptions.subscribe(recordingID: message).subscribed)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A value of the wrong shape is a 422 naming the field, and nothing is stored; an all-day date is a time")
    func wrongShape() async throws {
        try await withSandboxAccount(retry: false) { account, _ in
            let operation = try #require(OperationCatalog.operation(id: "CreateScheduleEntry"))
            let error = await caughtAPIError {
                _ = try await account.perform(
                    operation,
                    pathParameters: ["scheduleId": String(BasecampSandboxSeed.letoLaptopScheduleID)],
                    body: .json(["summary": "Bad", "starts_at": "soon", "ends_at": "2026-03-02T11:00:00Z"])
                )
            }
            #expect(error?.httpStatus == 422)
            #expect(error.map { String(describing: $0) }?.contains("starts_at") == true)
            let entries = try await account.schedules.listEntries(
                scheduleID: Int64(BasecampSandboxSeed.letoLaptopScheduleID)
            )
            #expect(entries.items.map(\.summary) == ["Design review"])
            let allDay = try await account.perform(
                operation,
                pathParameters: ["scheduleId": String(BasecampSandboxSeed.letoLaptopScheduleID)],
                body: .json(["summary": "Offsite", "starts_at": "2026-03-02", "ends_at": "2026-03-03", "all_day": true])
            )
            #expect(allDay.status.code == 201)
            #expect(allDay.value["starts_at"] == "2026-03-02")
        }
    }
}

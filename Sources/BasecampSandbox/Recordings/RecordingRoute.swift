/// What an operation on a kept kind does, and which path parameter names the record (or, for
/// create and list, what holds it).
struct RecordingRoute {
    enum Action {
        case create
        case list
        case get
        case update
        case delete
        /// A card to another column.
        case move
    }

    var kind: RecordingKind
    var action: Action
    var parameter: String

    init(_ kind: RecordingKind, _ action: Action, _ parameter: String) {
        self.kind = kind
        self.action = action
        self.parameter = parameter
    }

    /// Every operation the kept kinds answer, by operation id.
    static let table: [String: RecordingRoute] = [
        "CreateCardColumn": .init(.cardColumn, .create, "cardTableId"),
        "GetCardColumn": .init(.cardColumn, .get, "columnId"),
        "UpdateCardColumn": .init(.cardColumn, .update, "columnId"),
        "SetCardColumnColor": .init(.cardColumn, .update, "columnId"),
        "CreateCard": .init(.card, .create, "columnId"),
        "ListCards": .init(.card, .list, "columnId"),
        "GetCard": .init(.card, .get, "cardId"),
        "UpdateCard": .init(.card, .update, "cardId"),
        "MoveCard": .init(.card, .move, "cardId"),
        "CreateCardStep": .init(.cardStep, .create, "cardId"),
        "GetCardStep": .init(.cardStep, .get, "stepId"),
        "UpdateCardStep": .init(.cardStep, .update, "stepId"),
        "SetCardStepCompletion": .init(.cardStep, .update, "stepId"),
        "CreateScheduleEntry": .init(.scheduleEntry, .create, "scheduleId"),
        "ListScheduleEntries": .init(.scheduleEntry, .list, "scheduleId"),
        "GetScheduleEntry": .init(.scheduleEntry, .get, "entryId"),
        "ReplaceScheduleEntry": .init(.scheduleEntry, .update, "entryId"),
        "CreateCampfireLine": .init(.campfireLine, .create, "campfireId"),
        "ListCampfireLines": .init(.campfireLine, .list, "campfireId"),
        "GetCampfireLine": .init(.campfireLine, .get, "lineId"),
        "UpdateCampfireLine": .init(.campfireLine, .update, "lineId"),
        "DeleteCampfireLine": .init(.campfireLine, .delete, "lineId"),
        "CreateQuestion": .init(.question, .create, "questionnaireId"),
        "ListQuestions": .init(.question, .list, "questionnaireId"),
        "GetQuestion": .init(.question, .get, "questionId"),
        "UpdateQuestion": .init(.question, .update, "questionId"),
        "CreateAnswer": .init(.answer, .create, "questionId"),
        "ListAnswers": .init(.answer, .list, "questionId"),
        "GetAnswer": .init(.answer, .get, "answerId"),
        "UpdateAnswer": .init(.answer, .update, "answerId"),
        "CreateMessageType": .init(.messageType, .create, "bucketId"),
        "ListMessageTypes": .init(.messageType, .list, "bucketId"),
        "GetMessageType": .init(.messageType, .get, "typeId"),
        "UpdateMessageType": .init(.messageType, .update, "typeId"),
        "DeleteMessageType": .init(.messageType, .delete, "typeId"),
        "CreateRecordingBoost": .init(.boost, .create, "recordingId"),
        "ListRecordingBoosts": .init(.boost, .list, "recordingId"),
        "GetBoost": .init(.boost, .get, "boostId"),
        "DeleteBoost": .init(.boost, .delete, "boostId"),
    ]
}

import Foundation
import HTTPCore

// Six Basecamp updates replace the whole record and clear any field the request leaves out.
// The generated `modify…` helpers read the record once, build the request below from it, let the
// caller change it, and send the full state once. These initialisers say how a record's fields map
// back to its request; fields Basecamp keeps when omitted are left `nil`.

extension ReplaceTodoRequest {
    /// The request that would save `current` unchanged.
    public init(current: Todo) {
        self.init(
            content: current.content,
            assigneeIDs: current.assignees?.map(\.id),
            completionSubscriberIDs: current.completionSubscribers?.map(\.id),
            description: current.description,
            dueOn: current.dueOn,
            startsOn: current.startsOn
        )
    }
}

extension ReplaceDocumentRequest {
    /// The request that would save `current` unchanged.
    public init(current: Document) {
        self.init(content: current.content, title: current.title)
    }
}

extension ReplaceScheduleEntryRequest {
    /// The request that would save `current` unchanged. `participant_ids`, `url` and
    /// `highlighted` stay `nil`: Basecamp keeps them when they are left out.
    public init(current: ScheduleEntry) {
        self.init(
            endsAt: Self.wireTime(current.endsAt, allDay: current.allDay),
            startsAt: Self.wireTime(current.startsAt, allDay: current.allDay),
            allDay: current.allDay,
            description: current.description,
            summary: current.summary
        )
    }

    /// All-day entries travel as bare dates, others as timestamps.
    private static func wireTime(_ date: Date, allDay: Bool) -> String {
        allDay
            ? CalendarDate(date, in: TimeZone(identifier: "UTC") ?? .current).description
            : WireFormat.string(from: date)
    }
}

extension UpdateTodolistOrGroupRequest {
    /// The request that would save `current` unchanged.
    public init(current: Todolist) {
        self.init(name: current.name, description: current.description)
    }
}

extension UpdateCloudFileRequest {
    /// The request that would save `current` unchanged, except `url`: the record does not
    /// carry the linked file's address, so `url` starts empty and must be set by the caller
    /// (the Spec says so with `callerSupplies`, and `modify` checks it).
    public init(current: CloudFile) {
        self.init(service: current.service.code, url: "", description: current.description, title: current.title)
    }
}

extension UpdateGoogleDocumentRequest {
    /// The request that would save `current` unchanged, except `url`: the record does not
    /// carry the document's Google address, so `url` starts empty and must be set by the caller
    /// (the Spec says so with `callerSupplies`, and `modify` checks it).
    public init(current: GoogleDocument) {
        let status = Status(rawValue: current.status)
        self.init(
            documentType: current.documentType,
            url: "",
            description: current.description,
            status: status == .active || status == .drafted ? status : nil,
            title: current.title
        )
    }
}

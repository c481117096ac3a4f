import Foundation
import HTTPCore

// Six Basecamp updates replace the whole record and clear any field the request leaves out.
// The generated `modify…` helpers read the record, build the request below from it, let the
// caller change it, check it, and send the full state. These initialisers say how a record's
// fields map back to its request; fields Basecamp keeps when omitted are left `nil`.

extension ReplaceTodoRequest: WholeRecordRequest {
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

extension ReplaceDocumentRequest: WholeRecordRequest {
    /// The request that would save `current` unchanged.
    public init(current: Document) {
        self.init(content: current.content, title: current.title)
    }
}

extension ReplaceScheduleEntryRequest: WholeRecordRequest {
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

extension UpdateTodolistOrGroupRequest: WholeRecordRequest {
    /// The request that would save `current` unchanged.
    public init(current: Todolist) {
        self.init(name: current.name, description: current.description)
    }
}

extension UpdateCloudFileRequest: WholeRecordRequest {
    /// The request that would save `current` unchanged, except `url`: the record does not
    /// carry the linked file's address, so `url` starts empty and must be set by the caller.
    public init(current: CloudFile) {
        self.init(service: current.service.code, url: "", description: current.description, title: current.title)
    }

    func checkComplete() throws {
        try requireURL(url, "UpdateCloudFile", naming: "the linked file's url", record: "cloud file")
    }
}

extension UpdateGoogleDocumentRequest: WholeRecordRequest {
    /// The request that would save `current` unchanged, except `url`: the record does not
    /// carry the document's Google address, so `url` starts empty and must be set by the caller.
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

    func checkComplete() throws {
        try requireURL(url, "UpdateGoogleDocument", naming: "the document's url", record: "Google document")
    }
}

/// A request that replaces the whole record, which a generated `modify…` helper checks before
/// sending it.
protocol WholeRecordRequest {
    /// Throws a usage error when the request would clear something the record could not supply.
    func checkComplete() throws
}

extension WholeRecordRequest {
    /// Most such requests are complete as built from the record.
    func checkComplete() throws {}

    /// A usage error unless `url` is set: the `record` record does not carry it, so a request
    /// built from it starts without one.
    func requireURL(_ url: String, _ operation: String, naming what: String, record: String) throws {
        guard url.isEmpty else { return }
        throw APIError.usage(
            APIError.Details(
                message: "\(operation) replaces the whole record and needs \(what).",
                hint: "Set request.url in the change closure; the \(record) record does not include it."
            )
        )
    }
}

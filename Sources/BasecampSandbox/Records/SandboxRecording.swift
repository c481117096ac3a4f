/// A recording as the sandbox holds it, for tests that check what their code wrote.
public struct SandboxRecording: Sendable, Hashable {
    /// Its id.
    public var id: Int
    /// Basecamp's type: `Todo`, `Message`, `Kanban::Card`, `Schedule::Entry`…
    public var type: String
    /// The project (bucket) it is in.
    public var projectID: Int
    /// What holds it: a to-do's list, a message's board, a comment's recording, a card's column…
    public var parentID: Int
    /// Its title: a to-do's content, a message's subject, a card's title, a line's text…
    public var title: String
    /// The rest of its text (description or content), as search reads it.
    public var text: String
    /// Whether it is completed (a to-do, card or card step); `false` for kinds that never are.
    public var completed: Bool
    /// `active`, `archived`, `trashed` or `drafted`.
    public var status: String

    /// Creates a recording, for tests that compare against one.
    public init(
        id: Int,
        type: String,
        projectID: Int,
        parentID: Int,
        title: String,
        text: String = "",
        completed: Bool = false,
        status: String = "active"
    ) {
        self.id = id
        self.type = type
        self.projectID = projectID
        self.parentID = parentID
        self.title = title
        self.text = text
        self.completed = completed
        self.status = status
    }

    init(_ record: Record) {
        self.init(
            id: record.id,
            type: record.kind.type,
            projectID: record.projectID,
            parentID: record.parentID,
            title: record.title,
            text: record.text,
            completed: record.fields["completed"]?.boolValue ?? false,
            status: record.status
        )
    }
}

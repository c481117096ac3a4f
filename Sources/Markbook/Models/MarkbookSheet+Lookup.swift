import HTTPCore

extension MarkbookSheet {
    /// The listed student with `key`, for a write that must name a real student.
    ///
    /// - Throws: ``HTTPCore/APIError/notFound(_:)`` whose `cause` is a ``MarkbookItemNotFound``;
    ///   a deleted student is not listed (restore them with
    ///   ``MarkbookClient/updateStudentClass(markbookKey:studentKey:sid:classKey:)`` first).
    public func requireStudent(key studentKey: Int) throws -> MarkbookStudent {
        guard let student = student(key: studentKey) else {
            throw notFound(
                .student,
                studentKey,
                message: "Markbook \(key) lists no student \(studentKey).",
                hint: "A deleted student is not listed; updateStudentClass(markbookKey:studentKey:sid:classKey:) "
                    + "restores one."
            )
        }
        return student
    }

    /// The task with `key`.
    ///
    /// - Throws: ``HTTPCore/APIError/notFound(_:)`` whose `cause` is a ``MarkbookItemNotFound`` and
    ///   whose hint lists the markbook's tasks.
    public func requireTask(key taskKey: Int) throws -> MarkbookTask {
        guard let task = task(key: taskKey) else {
            throw notFound(.task, taskKey, listing: "Tasks", tasks.map { ($0.key, $0.name) })
        }
        return task
    }

    /// The class with `key`.
    ///
    /// - Throws: ``HTTPCore/APIError/notFound(_:)`` whose `cause` is a ``MarkbookItemNotFound`` and
    ///   whose hint lists the markbook's classes.
    public func requireClass(key classKey: Int) throws -> MarkbookClass {
        guard let found = markbookClass(key: classKey) else {
            throw notFound(.schoolClass, classKey, listing: "Classes", classes.map { ($0.key, $0.name) })
        }
        return found
    }

    private func notFound(
        _ kind: MarkbookItemNotFound.Kind,
        _ itemKey: Int,
        listing heading: String,
        _ choices: [(key: Int, name: String)]
    ) -> APIError {
        let listed = choices.isEmpty ? "none" : choices.map { "\($0.key) \($0.name)" }.joined(separator: ", ")
        return notFound(
            kind,
            itemKey,
            message: "Markbook \(key) has no \(kind.rawValue) \(itemKey).",
            hint: "\(heading): \(listed)."
        )
    }

    private func notFound(_ kind: MarkbookItemNotFound.Kind, _ itemKey: Int, message: String, hint: String) -> APIError
    {
        APIError.notFound(
            APIError.Details(
                message: message,
                hint: hint,
                cause: MarkbookItemNotFound(kind: kind, key: itemKey, markbookKey: key)
            )
        )
    }
}

/// What a lookup in a markbook did not find: the `cause` of the `not_found` errors that
/// ``MarkbookSheet/requireStudent(key:)`` and its siblings throw (and the client's methods that
/// read a markbook before writing), so a caller can word its own hint.
public struct MarkbookItemNotFound: Error, Sendable, Hashable {
    /// What kind of item.
    public enum Kind: String, Sendable, Hashable {
        /// A student, by student key.
        case student
        /// A task, by task key.
        case task
        /// A class, by class key.
        case schoolClass = "class"
    }

    /// What kind of item.
    public var kind: Kind
    /// The key that named nothing.
    public var key: Int
    /// The markbook looked in.
    public var markbookKey: Int

    /// Creates a description of a failed lookup.
    public init(kind: Kind, key: Int, markbookKey: Int) {
        self.kind = kind
        self.key = key
        self.markbookKey = markbookKey
    }
}

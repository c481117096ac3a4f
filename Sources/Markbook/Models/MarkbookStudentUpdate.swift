/// New names for a student, for ``MarkbookClient/updateStudent(markbookKey:studentKey:_:)``: a
/// `nil` name keeps the current one. The API does not report gender, so it is always given.
public struct MarkbookStudentUpdate: Sendable, Hashable {
    /// The student's gender, sent with every update.
    public var gender: Gender
    /// A new family name, or `nil` to keep it.
    public var familyName: String?
    /// A new given name, or `nil` to keep it.
    public var givenName: String?
    /// A new preferred name (`""` removes it), or `nil` to keep it.
    public var preferredName: String?

    /// Creates an update.
    public init(gender: Gender, familyName: String? = nil, givenName: String? = nil, preferredName: String? = nil) {
        self.gender = gender
        self.familyName = familyName
        self.givenName = givenName
        self.preferredName = preferredName
    }

    /// `student` with the names this update gives.
    public func applied(to student: MarkbookStudent) -> MarkbookStudent {
        var updated = student
        updated.familyName = familyName ?? student.familyName
        updated.givenName = givenName ?? student.givenName
        updated.preferredName = preferredName ?? student.preferredName
        return updated
    }
}

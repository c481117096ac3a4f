/// Every operation of the Markbook Online API v1.5.
///
/// ``MarkbookClient`` is the real implementation; apps depend on this protocol so their tests
/// can substitute a double. Every method throws ``HTTPCore/APIError``: `usage` for bad input
/// (before any request), `auth_required` for rejected credentials, `not_found` for an unknown
/// markbook, student, class or task, `validation` for values the API refused, `ambiguous` when
/// a create may or may not have been applied, and HTTPCore's codes for HTTP and network
/// failures. See ``MarkbookStatus`` for the status table.
public protocol MarkbookClientProtocol: Sendable {
    /// `markbooklist`: the school's markbooks.
    func markbookList() async throws -> [MarkbookSummary]

    /// `userlist`: the school's users, whose keys are markbook owners and shares.
    func userList() async throws -> [MarkbookUser]

    /// `getmarkbook`: one markbook with its results joined to tasks and students.
    func getMarkbook(key: Int) async throws -> MarkbookSheet

    /// `getmarkbookalt`: the same markbook from the flat-list format; the result is the same.
    func getMarkbookAlt(key: Int) async throws -> MarkbookSheet

    /// `getoutcomes`: one markbook's outcomes with each student's levels joined.
    func getOutcomes(key: Int) async throws -> MarkbookOutcomes

    /// `getoutcomesalt`: the same outcomes from the flat-list format.
    func getOutcomesAlt(key: Int) async throws -> MarkbookOutcomes

    /// `putstudentresult`: sets a student's result for a task. Safe to repeat: it sets an
    /// absolute value.
    ///
    /// - Parameters:
    ///   - sid: The student's school id, which must match `studentKey`.
    ///   - taskName: The task's name, which must match `taskKey`.
    ///   - result: The result text, e.g. `"67.5"`; empty clears it.
    func putStudentResult(
        markbookKey: Int,
        studentKey: Int,
        sid: String,
        taskKey: Int,
        taskName: String,
        result: String
    ) async throws

    /// `createstudent`: adds a student to a class and returns the new student's key. Never
    /// repeated automatically: a lost answer is `ambiguous`.
    func createStudent(
        markbookKey: Int,
        sid: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender,
        classKey: Int
    ) async throws -> Int

    /// `updatestudent`: replaces a student's names and gender; every name is sent, even when
    /// unchanged. `sid` identifies the student and cannot be changed.
    func updateStudent(
        markbookKey: Int,
        studentKey: Int,
        sid: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender
    ) async throws

    /// `updatestudentclass`: moves a student to a class; also restores a deleted student.
    func updateStudentClass(markbookKey: Int, studentKey: Int, sid: String, classKey: Int) async throws

    /// `deletestudent`: soft-deletes a student (``updateStudentClass(markbookKey:studentKey:sid:classKey:)``
    /// restores them with their results).
    func deleteStudent(markbookKey: Int, studentKey: Int, sid: String) async throws

    /// `createclass`: adds a class (names are unique within a markbook) and returns its key.
    /// Never repeated automatically: a lost answer is `ambiguous`.
    func createClass(
        markbookKey: Int,
        name: String,
        teacherFamilyName: String,
        teacherGivenName: String
    ) async throws -> Int

    /// `schedulebackup`: asks for a backup of the markbooks whose names match `matching`
    /// (at least 2 characters), built overnight. A second call the same day replaces the first.
    func scheduleBackup(matching: String) async throws

    /// `getbackupurl`: the scheduled backup's status and, once it is ready, its URL.
    func getBackupURL() async throws -> BackupURL

    /// `createmarkbook`: creates a whole markbook. The server renames it (`-1`, `-2`, …) when
    /// the name is taken; ``CreatedMarkbook/name`` is the name used. Never repeated
    /// automatically: a lost answer is `ambiguous`.
    func createMarkbook(_ markbook: NewMarkbook) async throws -> CreatedMarkbook
}

extension MarkbookClientProtocol {
    /// Sets a result using a student and task as fetched with `getMarkbook(key:)`, so the
    /// student id and task name sent always belong to the keys.
    public func putStudentResult(
        markbookKey: Int,
        student: MarkbookStudent,
        task: MarkbookTask,
        result: String
    ) async throws {
        try await putStudentResult(
            markbookKey: markbookKey,
            studentKey: student.key,
            sid: student.studentID,
            taskKey: task.key,
            taskName: task.name,
            result: result
        )
    }
}

import Foundation
import HTTPCore

extension MarkbookClient {
    /// `putstudentresult`: sets one result. Retried when safe: it sets an absolute value.
    ///
    /// The value is sent as given (trimmed); ``setResult(markbookKey:studentKey:taskKey:to:rules:)``
    /// looks the student and task up and checks the value first.
    ///
    /// - Parameters:
    ///   - sid: The student's school id, which must match `studentKey`.
    ///   - taskName: The task's name, which must match `taskKey`.
    ///   - result: The result text, e.g. `"67.5"`; empty clears it.
    /// - Throws: ``HTTPCore/APIError``; `usage` for bad input, `not_found` for an unknown
    ///   markbook, student or task.
    public func putStudentResult(
        markbookKey: Int,
        studentKey: Int,
        sid: String,
        taskKey: Int,
        taskName: String,
        result: String
    ) async throws {
        let student = try MarkbookInput.student(markbookKey: markbookKey, studentKey: studentKey, sid: sid)
        try MarkbookInput.requireKey(taskKey, "taskKey")
        try MarkbookInput.requireText(taskName, "taskName")
        try MarkbookInput.requireText(result, "result", allowEmpty: true)
        let values = student.merging([
            "taskkey": String(taskKey), "taskname": taskName, "result": result.trimmingCharacters(in: .whitespaces),
        ]) { first, _ in first }
        try await send(.putStudentResult, values) { _, _ in }
    }

    /// `createstudent`: adds a student; returns the new key. Never retried once sent.
    ///
    /// - Throws: ``HTTPCore/APIError``; `ambiguous` when the answer was lost after sending.
    public func createStudent(
        markbookKey: Int,
        sid: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender,
        classKey: Int
    ) async throws -> Int {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireText(sid, "sid")
        let names = try MarkbookInput.studentNames(
            familyName: familyName,
            givenName: givenName,
            preferredName: preferredName,
            gender: gender
        )
        try MarkbookInput.requireKey(classKey, "classKey")
        let placement = ["key": String(markbookKey), "sid": sid, "classkey": String(classKey)]
        let values = names.merging(placement) { first, _ in first }
        return try await send(.createStudent, values) { reader, status in
            try Self.createdKey(reader, "studentkey", action: .createStudent, httpStatus: status)
        }
    }

    /// `updatestudent`: replaces a student's names and gender.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook or student.
    public func updateStudent(
        markbookKey: Int,
        studentKey: Int,
        sid: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        gender: Gender
    ) async throws {
        let student = try MarkbookInput.student(markbookKey: markbookKey, studentKey: studentKey, sid: sid)
        let names = try MarkbookInput.studentNames(
            familyName: familyName,
            givenName: givenName,
            preferredName: preferredName,
            gender: gender
        )
        try await send(.updateStudent, student.merging(names) { first, _ in first }) { _, _ in }
    }

    /// `updatestudentclass`: moves a student to a class, restoring them if deleted.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook, student or class.
    public func updateStudentClass(markbookKey: Int, studentKey: Int, sid: String, classKey: Int) async throws {
        let student = try MarkbookInput.student(markbookKey: markbookKey, studentKey: studentKey, sid: sid)
        try MarkbookInput.requireKey(classKey, "classKey")
        let values = student.merging(["classkey": String(classKey)]) { first, _ in first }
        try await send(.updateStudentClass, values) { _, _ in }
    }

    /// `deletestudent`: soft-deletes a student.
    ///
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook or student.
    public func deleteStudent(markbookKey: Int, studentKey: Int, sid: String) async throws {
        let values = try MarkbookInput.student(markbookKey: markbookKey, studentKey: studentKey, sid: sid)
        try await send(.deleteStudent, values) { _, _ in }
    }

    /// `createclass`: adds a class; returns its key. Never retried once sent.
    ///
    /// - Parameters:
    ///   - teacherFamilyName: Sent as `family`; shown as the class's `teachername2`.
    ///   - teacherGivenName: Sent as `given`; shown as `teachername1` (title and given name by
    ///     convention, e.g. `"Mr Tom"`).
    /// - Throws: ``HTTPCore/APIError``; `validation` when the name is taken, `ambiguous` when
    ///   the answer was lost after sending.
    public func createClass(
        markbookKey: Int,
        name: String,
        teacherFamilyName: String,
        teacherGivenName: String
    ) async throws -> Int {
        try MarkbookInput.requireKey(markbookKey, "markbookKey")
        try MarkbookInput.requireText(name, "name")
        try MarkbookInput.requireText(teacherFamilyName, "teacherFamilyName", allowEmpty: true)
        try MarkbookInput.requireText(teacherGivenName, "teacherGivenName", allowEmpty: true)
        let values = ["key": String(markbookKey), "name": name, "family": teacherFamilyName, "given": teacherGivenName]
        return try await send(.createClass, values) { reader, status in
            try Self.createdKey(reader, "classkey", action: .createClass, httpStatus: status)
        }
    }

    /// `schedulebackup`: asks for a backup of matching markbooks, built overnight.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` before any request when `matching` has fewer
    ///   than 2 characters; otherwise ``HTTPCore/APIError``.
    public func scheduleBackup(matching: String) async throws {
        let trimmed = matching.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= MarkbookInput.minimumMatchingLength else {
            throw APIError.usage(
                "matching must have at least \(MarkbookInput.minimumMatchingLength) characters; got \(trimmed.count).",
                hint: "Give part of the markbook names to back up, e.g. \"10MAT\"."
            )
        }
        try MarkbookInput.requireText(trimmed, "matching")
        try await send(.scheduleBackup, ["matching": trimmed]) { _, _ in }
    }

    /// `getbackupurl`: the backup's status and URL (``readyBackupURL()`` for a download).
    ///
    /// `ERROR:pending`, `ERROR:no backup` and other backup statuses are returned as
    /// ``BackupStatus``, not thrown; a rejected session is still `auth_required`.
    ///
    /// - Throws: ``HTTPCore/APIError``.
    public func getBackupURL() async throws -> BackupURL {
        let client = try readyClient()
        let secrets = secrets
        let action = MarkbookAction.getBackupURL
        let endpoint = Endpoint<BackupURL>(
            .get,
            "",
            query: try Self.query(action, [:]),
            operation: action.operation,
            decoder: ResponseDecoder { body, response, _ in
                let code = response.status.code
                let reader = try MarkbookDecoding.envelope(body, action: action, httpStatus: code)
                let status = try MarkbookDecoding.reading(action, httpStatus: code) { try reader.string("status") }
                if MarkbookStatus.isInvalidSession(status) {
                    throw MarkbookStatus.error(for: status, action: action, scrub: secrets.scrub)
                }
                guard status == MarkbookStatus.okay else {
                    return BackupURL(status: BackupStatus(status: secrets.scrub(status)), url: nil)
                }
                let text = try MarkbookDecoding.reading(action, httpStatus: code) { try reader.string("url") }
                guard let url = URL(string: text), url.scheme != nil else {
                    throw MarkbookDecoding.malformed(
                        WireError(path: "url", expected: "a URL"),
                        action: action,
                        httpStatus: code
                    )
                }
                return BackupURL(status: .okay, url: url)
            }
        )
        return try await client.send(endpoint)
    }

    /// `createmarkbook`: creates a whole markbook from `markbook`. Never retried once sent.
    ///
    /// The payload is checked first (``NewMarkbook/validate()``). When it has no school name and
    /// the client has not learnt one yet, the client calls `userlist` first to learn it.
    ///
    /// - Throws: ``HTTPCore/APIError``; `usage` for an invalid payload, `ambiguous` when the
    ///   answer was lost after sending.
    public func createMarkbook(_ markbook: NewMarkbook) async throws -> CreatedMarkbook {
        try markbook.validate()
        let client = try readyClient()
        var school = markbook.schoolName ?? schoolName
        if school == nil {
            _ = try await userList()
            school = schoolName
        }
        let payload = markbook.wirePayload(api: baseURL.absoluteString, schoolName: school ?? "")
        let action = MarkbookAction.createMarkbook
        var form = QueryParameters()
        form.append("apiaction", action.rawValue)
        form.append("jsondata", String(decoding: payload.encoded(), as: UTF8.self))
        let endpoint = Endpoint<CreatedMarkbook>(
            .post,
            "post.lc",
            body: .form(form),
            operation: action.operation,
            decoder: decoder(action) { reader, status in
                let key = try Self.createdKey(reader, "markbookkey", action: action, httpStatus: status)
                let name = (try? reader.string("markbookname")).flatMap { $0.isEmpty ? nil : $0 }
                return CreatedMarkbook(
                    key: key,
                    name: name ?? markbook.name,
                    requestedName: markbook.name,
                    classCount: (try? reader.optionalInt("classcount")).flatMap { $0 } ?? 0,
                    studentCount: (try? reader.optionalInt("studentcount")).flatMap { $0 } ?? 0,
                    shareCount: (try? reader.optionalInt("sharecount")).flatMap { $0 } ?? 0
                )
            }
        )
        return try await Self.send(endpoint, for: action, on: client)
    }
}

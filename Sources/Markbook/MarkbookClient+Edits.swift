import HTTPCore

extension MarkbookClient {
    /// Changes a student's names: reads the markbook, merges `update` into the student as listed,
    /// and sends `updatestudent` with every name (the API replaces them all at once, so names not
    /// given are sent unchanged).
    ///
    /// ```swift
    /// let student = try await client.updateStudent(
    ///     markbookKey: 1000001, studentKey: 5004, MarkbookStudentUpdate(gender: .female, preferredName: "Sophie")
    /// )
    /// ```
    ///
    /// - Returns: The student as updated.
    /// - Throws: ``HTTPCore/APIError``; `not_found` for an unknown markbook or a student it does not
    ///   list (cause ``MarkbookItemNotFound``), `usage` for names the API cannot take; nothing is
    ///   written then.
    public func updateStudent(
        markbookKey: Int,
        studentKey: Int,
        _ update: MarkbookStudentUpdate
    ) async throws -> MarkbookStudent {
        let current = try await getMarkbook(key: markbookKey).requireStudent(key: studentKey)
        let updated = update.applied(to: current)
        try await updateStudent(
            markbookKey: markbookKey,
            studentKey: current.key,
            sid: current.studentID,
            familyName: updated.familyName,
            givenName: updated.givenName,
            preferredName: updated.preferredName,
            gender: update.gender
        )
        return updated
    }

    /// Sets one result, checked first: reads the markbook, looks the student and task up by key
    /// (so the sid and task name sent belong to them), checks `value` with `rules`, and writes it
    /// in its shortest form (`"042.50"` → `"42.5"`). An empty value clears the result.
    ///
    /// - Returns: The student, task, previous result and the text written.
    /// - Throws: ``HTTPCore/APIError``, with nothing written when the check fails: `not_found`
    ///   for an unknown markbook, student or task (cause ``MarkbookItemNotFound``), `usage` for a
    ///   value the rules refuse (cause ``MarkbookValueProblem``); then the write's own errors.
    public func setResult(
        markbookKey: Int,
        studentKey: Int,
        taskKey: Int,
        to value: String,
        rules: MarkbookResultRules = MarkbookResultRules()
    ) async throws -> MarkbookResultChange {
        let sheet = try await getMarkbook(key: markbookKey)
        let student = try sheet.requireStudent(key: studentKey)
        let task = try sheet.requireTask(key: taskKey)
        let written = try Self.checked(value, for: task, rules: rules)
        let previous = sheet.result(studentKey: student.key, taskKey: task.key)
        try await putStudentResult(markbookKey: markbookKey, student: student, task: task, result: written)
        return MarkbookResultChange(
            markbookKey: markbookKey,
            student: student,
            task: task,
            previous: previous,
            result: written
        )
    }

    /// Sets a result using a student and task as fetched with ``getMarkbook(key:)``, so the student
    /// id and task name sent always belong to the keys. The value is sent as given; see
    /// ``setResult(markbookKey:studentKey:taskKey:to:rules:)`` for a checked write.
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

    /// The text to write for `value`, or the `usage` error that refuses it.
    private static func checked(_ value: String, for task: MarkbookTask, rules: MarkbookResultRules) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return "" }
        switch rules.check(trimmed, for: task) {
        case .success(let text):
            return text
        case .failure(let problem):
            let message: String
            if case .outOfRange(let maximum) = problem {
                message = "\(trimmed) is outside 0…\(maximum), the range of \(task.name)."
            } else {
                message = "\"\(trimmed.prefix(40))\" cannot be a result of \(task.name): \(problem)."
            }
            throw APIError.usage(
                APIError.Details(
                    message: message,
                    hint: "Check the value; MarkbookResultRules says what a result may be.",
                    cause: problem
                )
            )
        }
    }
}

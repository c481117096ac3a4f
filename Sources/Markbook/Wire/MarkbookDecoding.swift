import Foundation
import HTTPCore

/// Turns response bodies into the SDK's values: checks the envelope's `status` first, then reads
/// the action's keys.
enum MarkbookDecoding {
    /// Parses the body and returns its object when `status` is `OKAY`; throws the mapped error
    /// otherwise.
    static func okayBody(
        _ body: Data,
        action: MarkbookAction,
        httpStatus: Int,
        scrub: (String) -> String
    ) throws -> WireReader {
        let reader = try envelope(body, action: action, httpStatus: httpStatus)
        let status = try reader.string("status")
        guard status == MarkbookStatus.okay else {
            throw MarkbookStatus.error(for: status, action: action, scrub: scrub)
        }
        return reader
    }

    /// Parses the body as an envelope with a `status`, whatever the status says.
    static func envelope(_ body: Data, action: MarkbookAction, httpStatus: Int) throws -> WireReader {
        guard let value = try? JSONValue(parsing: body) else {
            throw APIError.apiError(
                APIError.Details(
                    message: "Markbook answered \(action.rawValue) with a body that is not JSON.",
                    httpStatus: httpStatus
                )
            )
        }
        let reader: WireReader
        do {
            reader = try WireReader(value)
        } catch {
            throw malformed(error, action: action, httpStatus: httpStatus)
        }
        guard reader.has("status") else {
            throw APIError.apiError(
                APIError.Details(
                    message: "Markbook answered \(action.rawValue) without a status.",
                    httpStatus: httpStatus
                )
            )
        }
        return reader
    }

    /// Runs `read`, reporting a shape problem as `api_error` naming the key path.
    static func reading<Value>(
        _ action: MarkbookAction,
        httpStatus: Int,
        _ read: () throws -> Value
    ) throws -> Value {
        do {
            return try read()
        } catch let error as APIError {
            throw error
        } catch {
            throw malformed(error, action: action, httpStatus: httpStatus)
        }
    }

    static func malformed(_ error: any Error, action: MarkbookAction, httpStatus: Int) -> APIError {
        let what = (error as? WireError)?.description ?? "not in the documented shape"
        return APIError.apiError(
            APIError.Details(
                message: "Markbook's \(action.rawValue) response is malformed: \(what).",
                hint: "The API may have changed; nothing was read from this response.",
                httpStatus: httpStatus
            )
        )
    }

    // MARK: Shapes

    static func summaries(_ reader: WireReader) throws -> [MarkbookSummary] {
        try reader.objects("list").map {
            MarkbookSummary(
                key: try $0.int("key"),
                name: try $0.string("name"),
                owner: try $0.string("owner"),
                year: try $0.string("year"),
                course: try $0.string("course")
            )
        }
    }

    static func users(_ reader: WireReader) throws -> [MarkbookUser] {
        try reader.objects("list").map {
            MarkbookUser(
                key: try $0.int("key"),
                name: try $0.string("name"),
                loginID: try $0.string("loginid"),
                email: try $0.string("email")
            )
        }
    }

    static func classes(_ reader: WireReader) throws -> [MarkbookClass] {
        try reader.objects("classlist").map {
            MarkbookClass(
                key: try $0.int("key"),
                name: try $0.string("name"),
                teacherName1: try $0.string("teachername1"),
                teacherName2: try $0.string("teachername2")
            )
        }
    }

    static func tasks(_ reader: WireReader) throws -> [MarkbookTask] {
        try reader.objects("tasklist").map {
            MarkbookTask(
                key: try $0.int("key"),
                name: try $0.string("name"),
                maximum: try $0.int("maximum"),
                decimalPlaces: try $0.optionalInt("decimalplaces") ?? 0
            )
        }
    }

    static func student(_ reader: WireReader) throws -> MarkbookStudent {
        MarkbookStudent(
            key: try reader.int("key"),
            studentID: try reader.string("studentid"),
            familyName: try reader.string("familyname"),
            givenName: try reader.string("givename"),
            preferredName: try reader.string("preferredname"),
            classKey: try reader.int("classkey"),
            className: try reader.string("classname")
        )
    }

    /// `getmarkbook` and `getmarkbookalt`: both become a ``MarkbookSheet`` with joined results.
    ///
    /// In the array format, a student's `rawresults` and `roundedresults` must have exactly one
    /// entry per task: a shorter or longer array cannot be matched to tasks without guessing,
    /// and guessing would put marks against the wrong task, so it is an error.
    static func sheet(_ reader: WireReader, alternate: Bool) throws -> MarkbookSheet {
        let tasks = try tasks(reader)
        let studentReaders = try reader.objects("studentlist")
        let students = try studentReaders.map(student)
        var results: [Int: [Int: MarkbookResult]] = [:]
        if alternate {
            for entry in try reader.objects("resultlist") {
                let result = MarkbookResult(
                    raw: try entry.string("rawresult"),
                    rounded: try entry.string("roundedresult")
                )
                guard !result.isEmpty else { continue }
                results[try entry.int("studentkey"), default: [:]][try entry.int("taskkey")] = result
            }
        } else {
            for (student, studentReader) in zip(students, studentReaders) {
                let raw = try studentReader.strings("rawresults")
                let rounded = try studentReader.strings("roundedresults")
                guard raw.count == tasks.count, rounded.count == tasks.count else {
                    throw WireError(
                        path: "\(studentReader.path).rawresults",
                        expected:
                            "one result per task (\(tasks.count) tasks, \(raw.count) raw and \(rounded.count) rounded results)"
                    )
                }
                for (index, task) in tasks.enumerated() {
                    let result = MarkbookResult(raw: raw[index], rounded: rounded[index])
                    if !result.isEmpty { results[student.key, default: [:]][task.key] = result }
                }
            }
        }
        return MarkbookSheet(
            key: try reader.int("markbookkey"),
            name: try reader.string("markbookname"),
            year: try reader.string("markbookyear"),
            course: try reader.string("markbookcourse"),
            ownerKey: try reader.int("ownerkey"),
            shareList: reader.has("sharelist") ? try reader.ints("sharelist") : [],
            classes: try classes(reader),
            tasks: tasks,
            students: students,
            results: results
        )
    }

    /// `getoutcomes` and `getoutcomesalt`: both become ``MarkbookOutcomes`` with joined levels.
    static func outcomes(_ reader: WireReader, markbookKey: Int, alternate: Bool) throws -> MarkbookOutcomes {
        let outcomes = try reader.objects("outcomelist").map {
            MarkbookOutcome(
                key: try $0.int("key"),
                code: try $0.string("code"),
                name: try $0.string("name"),
                outcome: try $0.string("outcome"),
                taskKeys: $0.has("tasklist") ? try $0.ints("tasklist") : []
            )
        }
        let studentReaders = try reader.objects("studentlist")
        let students = try studentReaders.map(student)
        var levels: [Int: [Int: OutcomeLevel]] = [:]
        if alternate {
            for entry in try reader.objects("levellist") {
                let level = OutcomeLevel(try entry.string("outcomelevel"))
                guard !level.isEmpty else { continue }
                levels[try entry.int("studentkey"), default: [:]][try entry.int("outcomekey")] = level
            }
        } else {
            for (student, studentReader) in zip(students, studentReaders) {
                let texts = try studentReader.strings("outcomelevels")
                guard texts.count == outcomes.count else {
                    throw WireError(
                        path: "\(studentReader.path).outcomelevels",
                        expected: "one level per outcome (\(outcomes.count) outcomes, \(texts.count) levels)"
                    )
                }
                for (index, outcome) in outcomes.enumerated() {
                    let level = OutcomeLevel(texts[index])
                    if !level.isEmpty { levels[student.key, default: [:]][outcome.key] = level }
                }
            }
        }
        return MarkbookOutcomes(
            markbookKey: markbookKey,
            classes: try classes(reader),
            outcomes: outcomes,
            students: students,
            levels: levels
        )
    }
}

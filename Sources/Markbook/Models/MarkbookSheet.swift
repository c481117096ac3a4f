import Foundation

/// One markbook: its header, classes, tasks, students and every result, joined.
///
/// `getmarkbook` sends results as arrays in task order on each student; `getmarkbookalt` sends
/// a flat list of `{studentkey, taskkey, …}`. Both become the same ``results`` lookup, so code
/// reading marks does not care which call fetched them:
///
/// ```swift
/// let sheet = try await client.getMarkbook(key: 1000001)
/// for student in sheet.students {
///     let mark = sheet.result(studentKey: student.key, taskKey: sheet.tasks[0].key)?.roundedValue
/// }
/// ```
///
/// Students the API no longer lists (deleted ones) have no entry; empty results are left out.
public struct MarkbookSheet: Sendable, Hashable, Codable {
    /// The markbook's key.
    public var key: Int
    /// Its name.
    public var name: String
    /// Its year.
    public var year: String
    /// Its course.
    public var course: String
    /// The owner's user key.
    public var ownerKey: Int
    /// The user keys it is shared with.
    public var shareList: [Int]
    /// Its classes.
    public var classes: [MarkbookClass]
    /// Its tasks, in the API's order.
    public var tasks: [MarkbookTask]
    /// Its students, in the API's order.
    public var students: [MarkbookStudent]
    /// Every non-empty result: `results[studentKey][taskKey]`.
    public var results: [Int: [Int: MarkbookResult]]

    /// Creates a markbook.
    public init(
        key: Int,
        name: String,
        year: String,
        course: String,
        ownerKey: Int,
        shareList: [Int],
        classes: [MarkbookClass],
        tasks: [MarkbookTask],
        students: [MarkbookStudent],
        results: [Int: [Int: MarkbookResult]]
    ) {
        self.key = key
        self.name = name
        self.year = year
        self.course = course
        self.ownerKey = ownerKey
        self.shareList = shareList
        self.classes = classes
        self.tasks = tasks
        self.students = students
        self.results = results
    }

    /// A student's result for a task, or `nil` when there is none.
    public func result(studentKey: Int, taskKey: Int) -> MarkbookResult? {
        results[studentKey]?[taskKey]
    }

    /// The student with `key`, if listed.
    public func student(key: Int) -> MarkbookStudent? {
        students.first { $0.key == key }
    }

    /// The student with the school's student id `sid`, if listed.
    public func student(sid: String) -> MarkbookStudent? {
        students.first { $0.studentID == sid }
    }

    /// The task with `key`.
    public func task(key: Int) -> MarkbookTask? {
        tasks.first { $0.key == key }
    }

    /// The class with `key`.
    public func markbookClass(key: Int) -> MarkbookClass? {
        classes.first { $0.key == key }
    }
}

/// One markbook's outcomes and each student's level in them, joined.
///
/// `getoutcomes` sends levels as arrays in outcome order; `getoutcomesalt` as a flat list. Both
/// become the same ``levels`` lookup. Empty levels are left out.
public struct MarkbookOutcomes: Sendable, Hashable, Codable {
    /// The markbook the outcomes belong to (from the request; the API does not repeat it).
    public var markbookKey: Int
    /// Its classes.
    public var classes: [MarkbookClass]
    /// Its outcomes, in the API's order.
    public var outcomes: [MarkbookOutcome]
    /// Its students.
    public var students: [MarkbookStudent]
    /// Every non-empty level: `levels[studentKey][outcomeKey]`.
    public var levels: [Int: [Int: OutcomeLevel]]

    /// Creates outcomes.
    public init(
        markbookKey: Int,
        classes: [MarkbookClass],
        outcomes: [MarkbookOutcome],
        students: [MarkbookStudent],
        levels: [Int: [Int: OutcomeLevel]]
    ) {
        self.markbookKey = markbookKey
        self.classes = classes
        self.outcomes = outcomes
        self.students = students
        self.levels = levels
    }

    /// A student's level in an outcome, or `nil` when not assessed.
    public func level(studentKey: Int, outcomeKey: Int) -> OutcomeLevel? {
        levels[studentKey]?[outcomeKey]
    }
}

/// A learning outcome of a markbook and the tasks that assess it.
public struct MarkbookOutcome: Sendable, Hashable, Codable {
    /// The outcome's key.
    public var key: Int
    /// Its code, e.g. `MA5-ALG-C-01`; may be empty.
    public var code: String
    /// Its short name.
    public var name: String
    /// Its full text.
    public var outcome: String
    /// The keys of the tasks that assess it.
    public var taskKeys: [Int]

    /// Creates an outcome.
    public init(key: Int, code: String, name: String, outcome: String, taskKeys: [Int]) {
        self.key = key
        self.code = code
        self.name = name
        self.outcome = outcome
        self.taskKeys = taskKeys
    }

    /// The code, or the name when there is no code: a short column heading.
    public var label: String {
        code.trimmingCharacters(in: .whitespaces).isEmpty ? name : code
    }
}

extension MarkbookSheet {
    /// Decodes a `getmarkbook` answer (or, with `alternate`, a `getmarkbookalt` answer) the way
    /// ``MarkbookClient`` does, for answers stored or received by other means.
    ///
    /// - Throws: ``HTTPCore/APIError``: the mapped error when the status is not `OKAY`, or
    ///   `api_error` naming the key path when the body has the wrong shape.
    public static func decode(from body: Data, alternate: Bool = false) throws -> MarkbookSheet {
        let action: MarkbookAction = alternate ? .getMarkbookAlt : .getMarkbook
        let reader = try MarkbookDecoding.okayBody(body, action: action, httpStatus: 200, scrub: { $0 })
        return try MarkbookDecoding.reading(action, httpStatus: 200) {
            try MarkbookDecoding.sheet(reader, alternate: alternate)
        }
    }
}

import Foundation
import HTTPCore

/// Runs one action against a copy of the world; the module keeps the copy only when the action
/// succeeds, so a refused write changes nothing.
///
/// Where the wire facts are silent, the sandbox behaves as documented in `Spec/Markbook/README.md`:
/// `sid` must belong to `studentkey` and `taskname` to `taskkey` (a mark is never written against
/// the wrong student or task), deleted students are left out of every list, and writes that set
/// absolute values answer `OKAY` when repeated.
struct ActionHandler {
    var world: SandboxWorld
    let now: Date
    let timeZone: TimeZone
    let apiAddress: String
    /// Whether the action changed markbook data (not just bookkeeping such as a backup's first
    /// download).
    var changedData = false

    init(world: SandboxWorld, now: Date, timeZone: TimeZone, apiAddress: String = "") {
        self.world = world
        self.now = now
        self.timeZone = timeZone
        self.apiAddress = apiAddress
    }

    static let genders: Set<String> = ["male", "female", "other"]

    mutating func run(_ action: String, _ query: Parameters) throws(StatusError) -> [String: JSONValue] {
        switch action {
        case "markbooklist": return ["list": .array(world.markbooks.sorted { $0.key < $1.key }.map(summary))]
        case "userlist": return ["list": .array(world.users.map(user))]
        case "getmarkbook": return try sheet(query, alternate: false)
        case "getmarkbookalt": return try sheet(query, alternate: true)
        case "getoutcomes": return try outcomes(query, alternate: false)
        case "getoutcomesalt": return try outcomes(query, alternate: true)
        case "putstudentresult": return try putStudentResult(query)
        case "createstudent": return try createStudent(query)
        case "updatestudent": return try updateStudent(query)
        case "updatestudentclass": return try updateStudentClass(query)
        case "deletestudent": return try deleteStudent(query)
        case "createclass": return try createClass(query)
        case "schedulebackup": return try scheduleBackup(query)
        case "getbackupurl": return try backupURL()
        default: throw StatusError("invalid action")
        }
    }

    // MARK: Lookups

    func markbookIndex(_ query: Parameters) throws(StatusError) -> Int {
        let key = try query.key("key", entity: "markbook")
        guard let index = world.markbookIndex(key) else { throw StatusError("invalid markbook") }
        return index
    }

    /// The student named by `studentkey` and `sid`; both must agree.
    func studentIndex(
        _ query: Parameters,
        in book: SandboxWorld.Markbook,
        includingDeleted: Bool
    ) throws(StatusError) -> Int {
        let key = try query.key("studentkey", entity: "student")
        let sid = try query.require("sid")
        guard let index = book.students.firstIndex(where: { $0.key == key }),
            book.students[index].sid == sid.trimmingCharacters(in: .whitespaces),
            includingDeleted || !book.students[index].deleted
        else { throw StatusError("invalid student") }
        return index
    }

    func classKey(_ query: Parameters, in book: SandboxWorld.Markbook) throws(StatusError) -> Int {
        let key = try query.key("classkey", entity: "class")
        guard book.schoolClass(key) != nil else { throw StatusError("invalid class") }
        return key
    }

    /// The names and gender that `createstudent` and `updatestudent` both send.
    struct StudentNames {
        var family: String
        var given: String
        var preferred: String
        var gender: String

        init(_ query: Parameters) throws(StatusError) {
            family = try query.require("family")
            given = try query.require("given")
            preferred = try query.require("preferred", allowEmpty: true)
            gender = try query.require("gender").trimmingCharacters(in: .whitespaces)
            guard ActionHandler.genders.contains(gender) else { throw StatusError("invalid gender") }
        }

        func apply(to student: inout SandboxWorld.Student) {
            student.familyName = family
            student.givenName = given
            student.preferredName = preferred
            student.gender = gender
        }
    }

    // MARK: Shapes

    private func summary(_ book: SandboxWorld.Markbook) -> JSONValue {
        [
            "key": .integer(book.key), "name": .string(book.name),
            "owner": .string(world.users.first { $0.key == book.ownerKey }?.name ?? ""),
            "year": .string(book.year), "course": .string(book.course),
        ]
    }

    func user(_ user: SandboxWorld.User) -> JSONValue {
        [
            "key": .integer(user.key), "name": .string(user.name), "loginid": .string(user.loginID),
            "email": .string(user.email),
        ]
    }

    private func schoolClass(_ item: SandboxWorld.SchoolClass) -> JSONValue {
        [
            "key": .integer(item.key), "name": .string(item.name),
            "teachername1": .string(item.teacherName1), "teachername2": .string(item.teacherName2),
        ]
    }

    func task(_ task: SandboxWorld.Task) -> JSONValue {
        [
            "key": .integer(task.key), "name": .string(task.name),
            "maximum": .integer(task.maximum), "decimalplaces": .integer(task.decimalPlaces),
        ]
    }

    func student(_ student: SandboxWorld.Student, in book: SandboxWorld.Markbook) -> [String: JSONValue] {
        [
            "key": .integer(student.key), "studentid": .string(student.sid),
            "familyname": .string(student.familyName), "givename": .string(student.givenName),
            "preferredname": .string(student.preferredName), "classkey": .integer(student.classKey),
            "classname": .string(book.schoolClass(student.classKey)?.name ?? ""),
        ]
    }

    private func outcome(_ outcome: SandboxWorld.Outcome) -> JSONValue {
        [
            "key": .integer(outcome.key), "code": .string(outcome.code), "name": .string(outcome.name),
            "outcome": .string(outcome.text), "tasklist": .array(outcome.taskKeys.map(JSONValue.integer)),
        ]
    }

    // MARK: Reads

    private func sheet(_ query: Parameters, alternate: Bool) throws(StatusError) -> [String: JSONValue] {
        let book = world.markbooks[try markbookIndex(query)]
        let (students, resultList) = studentList(book, book.tasks, book.results, alternate: alternate) { cells in
            [
                "rawresults": .array(cells.map { .string(SandboxFormat.raw($1)) }),
                "roundedresults": .array(
                    cells.map { .string(SandboxFormat.rounded($1, decimalPlaces: $0.decimalPlaces)) }
                ),
            ]
        } flat: { task, text in
            [
                "taskkey": .integer(task.key), "rawresult": .string(SandboxFormat.raw(text)),
                "roundedresult": .string(SandboxFormat.rounded(text, decimalPlaces: task.decimalPlaces)),
            ]
        }
        var answer: [String: JSONValue] = [
            "markbookkey": .integer(book.key), "markbookname": .string(book.name),
            "markbookyear": .string(book.year), "markbookcourse": .string(book.course),
            "ownerkey": .integer(book.ownerKey), "sharelist": .array(book.shareList.map(JSONValue.integer)),
            "classlist": .array(book.classes.map(schoolClass)), "tasklist": .array(book.tasks.map(task)),
            "studentlist": students,
        ]
        if alternate { answer["resultlist"] = resultList }
        return answer
    }

    func outcomes(_ query: Parameters, alternate: Bool) throws(StatusError) -> [String: JSONValue] {
        let book = world.markbooks[try markbookIndex(query)]
        let (students, levelList) = studentList(book, book.outcomes, book.levels, alternate: alternate) { cells in
            ["outcomelevels": .array(cells.map { .string($1) })]
        } flat: { outcome, level in
            ["outcomekey": .integer(outcome.key), "outcomelevel": .string(level)]
        }
        var answer: [String: JSONValue] = [
            "classlist": .array(book.classes.map(schoolClass)), "outcomelist": .array(book.outcomes.map(outcome)),
            "studentlist": students,
        ]
        if alternate { answer["levellist"] = levelList }
        return answer
    }

    /// The active students of a joined read and their texts in `columns` (tasks or outcomes):
    /// `inline` members on each student, or for the `…alt` actions one `flat` entry per
    /// non-empty text instead.
    private func studentList<Column: SandboxWorld.Keyed>(
        _ book: SandboxWorld.Markbook,
        _ columns: [Column],
        _ texts: [Int: [Int: String]],
        alternate: Bool,
        inline: ([(Column, String)]) -> [String: JSONValue],
        flat: (Column, String) -> [String: JSONValue]
    ) -> (students: JSONValue, flatList: JSONValue) {
        var students: [JSONValue] = []
        var flatList: [JSONValue] = []
        for item in book.activeStudents {
            let cells = columns.map { ($0, texts[item.key]?[$0.key] ?? "") }
            var members = student(item, in: book)
            if alternate {
                for (column, text) in cells where !text.isEmpty {
                    flatList.append(.object(flat(column, text).merging(["studentkey": .integer(item.key)]) { $1 }))
                }
            } else {
                members.merge(inline(cells)) { $1 }
            }
            students.append(.object(members))
        }
        return (.array(students), .array(flatList))
    }
}

import APISandbox
import Foundation

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
    private(set) var changedData = false

    init(world: SandboxWorld, now: Date, timeZone: TimeZone, apiAddress: String = "") {
        self.world = world
        self.now = now
        self.timeZone = timeZone
        self.apiAddress = apiAddress
    }

    static let genders: Set<String> = ["male", "female", "other"]

    mutating func run(_ action: String, _ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
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

    private func markbookIndex(_ query: Parameters) throws(StatusError) -> Int {
        let key = try query.key("key", entity: "markbook")
        guard let index = world.markbookIndex(key) else { throw StatusError("invalid markbook") }
        return index
    }

    /// The student named by `studentkey` and `sid`; both must agree.
    private func studentIndex(
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

    private func classKey(_ query: Parameters, in book: SandboxWorld.Markbook) throws(StatusError) -> Int {
        let key = try query.key("classkey", entity: "class")
        guard book.schoolClass(key) != nil else { throw StatusError("invalid class") }
        return key
    }

    private func gender(_ query: Parameters) throws(StatusError) -> String {
        let gender = try query.require("gender").trimmingCharacters(in: .whitespaces)
        guard Self.genders.contains(gender) else { throw StatusError("invalid gender") }
        return gender
    }

    // MARK: Shapes

    private func summary(_ book: SandboxWorld.Markbook) -> SandboxJSON {
        [
            "key": .integer(book.key), "name": .string(book.name),
            "owner": .string(world.users.first { $0.key == book.ownerKey }?.name ?? ""),
            "year": .string(book.year), "course": .string(book.course),
        ]
    }

    private func user(_ user: SandboxWorld.User) -> SandboxJSON {
        [
            "key": .integer(user.key), "name": .string(user.name), "loginid": .string(user.loginID),
            "email": .string(user.email),
        ]
    }

    private func schoolClass(_ item: SandboxWorld.SchoolClass) -> SandboxJSON {
        [
            "key": .integer(item.key), "name": .string(item.name),
            "teachername1": .string(item.teacherName1), "teachername2": .string(item.teacherName2),
        ]
    }

    private func task(_ task: SandboxWorld.Task) -> SandboxJSON {
        [
            "key": .integer(task.key), "name": .string(task.name),
            "maximum": .integer(task.maximum), "decimalplaces": .integer(task.decimalPlaces),
        ]
    }

    private func student(_ student: SandboxWorld.Student, in book: SandboxWorld.Markbook) -> [String: SandboxJSON] {
        [
            "key": .integer(student.key), "studentid": .string(student.sid),
            "familyname": .string(student.familyName), "givename": .string(student.givenName),
            "preferredname": .string(student.preferredName), "classkey": .integer(student.classKey),
            "classname": .string(book.schoolClass(student.classKey)?.name ?? ""),
        ]
    }

    private func outcome(_ outcome: SandboxWorld.Outcome) -> SandboxJSON {
        [
            "key": .integer(outcome.key), "code": .string(outcome.code), "name": .string(outcome.name),
            "outcome": .string(outcome.text), "tasklist": .array(outcome.taskKeys.map(SandboxJSON.integer)),
        ]
    }

    // MARK: Reads

    private func sheet(_ query: Parameters, alternate: Bool) throws(StatusError) -> [String: SandboxJSON] {
        let book = world.markbooks[try markbookIndex(query)]
        var students: [SandboxJSON] = []
        var resultList: [SandboxJSON] = []
        for item in book.activeStudents {
            var members = student(item, in: book)
            let texts = book.tasks.map { book.results[item.key]?[$0.key] ?? "" }
            if alternate {
                for (task, text) in zip(book.tasks, texts) where !text.isEmpty {
                    resultList.append([
                        "studentkey": .integer(item.key), "taskkey": .integer(task.key),
                        "rawresult": .string(SandboxFormat.raw(text)),
                        "roundedresult": .string(SandboxFormat.rounded(text, decimalPlaces: task.decimalPlaces)),
                    ])
                }
            } else {
                members["rawresults"] = .array(texts.map { .string(SandboxFormat.raw($0)) })
                members["roundedresults"] = .array(
                    zip(book.tasks, texts).map { .string(SandboxFormat.rounded($1, decimalPlaces: $0.decimalPlaces)) }
                )
            }
            students.append(.object(members))
        }
        var answer: [String: SandboxJSON] = [
            "markbookkey": .integer(book.key), "markbookname": .string(book.name),
            "markbookyear": .string(book.year), "markbookcourse": .string(book.course),
            "ownerkey": .integer(book.ownerKey), "sharelist": .array(book.shareList.map(SandboxJSON.integer)),
            "classlist": .array(book.classes.map(schoolClass)), "tasklist": .array(book.tasks.map(task)),
            "studentlist": .array(students),
        ]
        if alternate { answer["resultlist"] = .array(resultList) }
        return answer
    }

    private func outcomes(_ query: Parameters, alternate: Bool) throws(StatusError) -> [String: SandboxJSON] {
        let book = world.markbooks[try markbookIndex(query)]
        var students: [SandboxJSON] = []
        var levelList: [SandboxJSON] = []
        for item in book.activeStudents {
            var members = student(item, in: book)
            let levels = book.outcomes.map { book.levels[item.key]?[$0.key] ?? "" }
            if alternate {
                for (outcome, level) in zip(book.outcomes, levels) where !level.isEmpty {
                    levelList.append([
                        "studentkey": .integer(item.key), "outcomekey": .integer(outcome.key),
                        "outcomelevel": .string(level),
                    ])
                }
            } else {
                members["outcomelevels"] = .array(levels.map(SandboxJSON.string))
            }
            students.append(.object(members))
        }
        var answer: [String: SandboxJSON] = [
            "classlist": .array(book.classes.map(schoolClass)), "outcomelist": .array(book.outcomes.map(outcome)),
            "studentlist": .array(students),
        ]
        if alternate { answer["levellist"] = .array(levelList) }
        return answer
    }

    // MARK: Writes

    private mutating func putStudentResult(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let bookIndex = try markbookIndex(query)
        let book = world.markbooks[bookIndex]
        let studentKey = book.students[try studentIndex(query, in: book, includingDeleted: false)].key
        let taskKey = try query.key("taskkey", entity: "task")
        let taskName = try query.require("taskname")
        guard let task = book.tasks.first(where: { $0.key == taskKey }), Self.sameName(task.name, taskName) else {
            throw StatusError("invalid task")
        }
        let result = try query.require("result", allowEmpty: true).trimmingCharacters(in: .whitespaces)
        if result.isEmpty {
            world.markbooks[bookIndex].results[studentKey]?[task.key] = nil
        } else {
            world.markbooks[bookIndex].results[studentKey, default: [:]][task.key] = result
        }
        changedData = true
        return [:]
    }

    private mutating func createStudent(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let bookIndex = try markbookIndex(query)
        let book = world.markbooks[bookIndex]
        let sid = try query.require("sid").trimmingCharacters(in: .whitespaces)
        let family = try query.require("family")
        let given = try query.require("given")
        let preferred = try query.require("preferred", allowEmpty: true)
        let gender = try gender(query)
        let classKey = try classKey(query, in: book)
        guard !book.students.contains(where: { $0.sid == sid }) else { throw StatusError("duplicate student id") }
        let key = world.nextStudentKey
        world.markbooks[bookIndex].students.append(
            SandboxWorld.Student(
                key: key,
                sid: sid,
                familyName: family,
                givenName: given,
                preferredName: preferred,
                gender: gender,
                classKey: classKey,
                deleted: false
            )
        )
        changedData = true
        return ["studentkey": .integer(key)]
    }

    private mutating func updateStudent(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let bookIndex = try markbookIndex(query)
        let index = try studentIndex(query, in: world.markbooks[bookIndex], includingDeleted: false)
        let family = try query.require("family")
        let given = try query.require("given")
        let preferred = try query.require("preferred", allowEmpty: true)
        let gender = try gender(query)
        world.markbooks[bookIndex].students[index].familyName = family
        world.markbooks[bookIndex].students[index].givenName = given
        world.markbooks[bookIndex].students[index].preferredName = preferred
        world.markbooks[bookIndex].students[index].gender = gender
        changedData = true
        return [:]
    }

    private mutating func updateStudentClass(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let bookIndex = try markbookIndex(query)
        let book = world.markbooks[bookIndex]
        let index = try studentIndex(query, in: book, includingDeleted: true)
        let classKey = try classKey(query, in: book)
        world.markbooks[bookIndex].students[index].classKey = classKey
        world.markbooks[bookIndex].students[index].deleted = false
        changedData = true
        return [:]
    }

    private mutating func deleteStudent(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let bookIndex = try markbookIndex(query)
        let index = try studentIndex(query, in: world.markbooks[bookIndex], includingDeleted: true)
        changedData = !world.markbooks[bookIndex].students[index].deleted
        world.markbooks[bookIndex].students[index].deleted = true
        return [:]
    }

    private mutating func createClass(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let bookIndex = try markbookIndex(query)
        let name = try query.require("name").trimmingCharacters(in: .whitespaces)
        let family = try query.require("family", allowEmpty: true)
        let given = try query.require("given", allowEmpty: true)
        guard !world.markbooks[bookIndex].classes.contains(where: { Self.sameName($0.name, name) }) else {
            throw StatusError("duplicate class name")
        }
        let key = world.nextClassKey
        world.markbooks[bookIndex].classes.append(
            SandboxWorld.SchoolClass(key: key, name: name, teacherName1: given, teacherName2: family)
        )
        changedData = true
        return ["classkey": .integer(key)]
    }

    // MARK: Backups

    private mutating func scheduleBackup(_ query: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let matching = try query.require("matching").trimmingCharacters(in: .whitespaces)
        guard matching.count >= 2 else { throw StatusError("invalid matching") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: today) ?? today.addingTimeInterval(86_400)
        let readyAt = calendar.date(byAdding: .hour, value: 1, to: tomorrow) ?? tomorrow.addingTimeInterval(3600)
        world.backup = SandboxWorld.Backup(
            matching: matching,
            scheduledAt: now,
            readyAt: readyAt,
            fileName: "markbook-backup-\(SandboxFormat.utcStamp(readyAt)).zip",
            firstReturnedAt: nil
        )
        changedData = true
        return [:]
    }

    private mutating func backupURL() throws(StatusError) -> [String: SandboxJSON] {
        guard var backup = world.backup else { throw StatusError("no backup") }
        guard now >= backup.readyAt else { throw StatusError("pending") }
        if let first = backup.firstReturnedAt {
            guard now.timeIntervalSince(first) <= MarkbookSandboxModule.backupRetention else {
                throw StatusError("no backup")
            }
        } else {
            backup.firstReturnedAt = now
            world.backup = backup
        }
        return ["url": .string("\(apiAddress)/backups/\(backup.fileName)")]
    }

    // MARK: createmarkbook

    mutating func createMarkbook(_ form: Parameters) throws(StatusError) -> [String: SandboxJSON] {
        let text = try form.require("jsondata")
        guard let payload = try? JSONDecoder().decode(SandboxJSON.self, from: Data(text.utf8)),
            case .object = payload
        else { throw StatusError("invalid jsondata") }
        guard let requestedName = payload["markbookname"]?.stringValue?.trimmingCharacters(in: .whitespaces),
            !requestedName.isEmpty
        else { throw StatusError("missing markbookname") }
        guard let ownerKey = payload["ownerkey"]?.intValue, let classList = payload["classlist"]?.arrayValue,
            let studentList = payload["studentlist"]?.arrayValue
        else { throw StatusError("invalid jsondata") }
        let userKeys = Set(world.users.map(\.key))
        guard userKeys.contains(ownerKey) else { throw StatusError("invalid user") }
        var shareList: [Int] = []
        for item in payload["sharelist"]?.arrayValue ?? [] {
            guard let key = item.intValue else { throw StatusError("invalid jsondata") }
            guard userKeys.contains(key) else { throw StatusError("invalid user") }
            shareList.append(key)
        }

        var nextClassKey = world.nextClassKey
        var classKeys: [Int: Int] = [:]
        var classes: [SandboxWorld.SchoolClass] = []
        for item in classList {
            guard let localKey = item["key"]?.intValue, classKeys[localKey] == nil,
                let name = item["name"]?.stringValue?.trimmingCharacters(in: .whitespaces), !name.isEmpty
            else { throw StatusError("invalid jsondata") }
            guard !classes.contains(where: { Self.sameName($0.name, name) }) else {
                throw StatusError("duplicate class name")
            }
            classKeys[localKey] = nextClassKey
            classes.append(
                SandboxWorld.SchoolClass(
                    key: nextClassKey,
                    name: name,
                    teacherName1: item["teachername1"]?.stringValue ?? "",
                    teacherName2: item["teachername2"]?.stringValue ?? ""
                )
            )
            nextClassKey += 1
        }
        var nextStudentKey = world.nextStudentKey
        var students: [SandboxWorld.Student] = []
        for item in studentList {
            guard let sid = item["studentid"]?.stringValue?.trimmingCharacters(in: .whitespaces), !sid.isEmpty,
                let family = item["familyname"]?.stringValue, !family.isEmpty,
                let given = item["givename"]?.stringValue, !given.isEmpty,
                let localClass = item["classkey"]?.intValue
            else { throw StatusError("invalid jsondata") }
            guard let classKey = classKeys[localClass] else { throw StatusError("invalid class") }
            guard !students.contains(where: { $0.sid == sid }) else { throw StatusError("duplicate student id") }
            students.append(
                SandboxWorld.Student(
                    key: nextStudentKey,
                    sid: sid,
                    familyName: family,
                    givenName: given,
                    preferredName: item["preferredname"]?.stringValue ?? "",
                    gender: "",
                    classKey: classKey,
                    deleted: false
                )
            )
            nextStudentKey += 1
        }

        var name = requestedName
        var suffix = 1
        while world.markbooks.contains(where: { Self.sameName($0.name, name) }) {
            name = "\(requestedName)-\(suffix)"
            suffix += 1
        }
        let key = world.nextMarkbookKey
        world.markbooks.append(
            SandboxWorld.Markbook(
                key: key,
                name: name,
                year: payload["markbookyear"]?.stringValue ?? "",
                course: payload["markbookcourse"]?.stringValue ?? "",
                ownerKey: ownerKey,
                shareList: shareList,
                classes: classes,
                tasks: [],
                students: students,
                outcomes: [],
                results: [:],
                levels: [:]
            )
        )
        changedData = true
        return [
            "markbookkey": .integer(key), "markbookname": .string(name), "classcount": .integer(classes.count),
            "studentcount": .integer(students.count), "sharecount": .integer(shareList.count),
        ]
    }

    /// Names compare trimmed and case-insensitively, as a person reading the markbook would.
    static func sameName(_ first: String, _ second: String) -> Bool {
        first.trimmingCharacters(in: .whitespaces).lowercased()
            == second.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

import Foundation
import HTTPCore

@available(macOS 14, iOS 17, tvOS 17, *)
extension SandboxWorld {
    /// The school the seed file describes (`Spec/Markbook/sandbox-seed.json`), read from the
    /// API's own lowercase names. A student's `rawresults` and `outcomelevels` follow the
    /// markbook's task and outcome order; empty ones are left out.
    init(seed data: Data) throws {
        let seed = SeedReader(json: try JSONValue(parsing: data))
        self.init(
            schoolName: try seed.string("schoolname"),
            users: try seed.objects("users").map { user in
                User(
                    key: try user.int("key"),
                    name: try user.string("name"),
                    loginID: try user.string("loginid"),
                    email: try user.string("email")
                )
            },
            markbooks: try seed.objects("markbooks").map(Markbook.init(seed:))
        )
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension SandboxWorld.Markbook {
    fileprivate init(seed book: SeedReader) throws {
        let tasks = try book.objects("tasklist").map { task in
            SandboxWorld.Task(
                key: try task.int("key"),
                name: try task.string("name"),
                maximum: try task.int("maximum"),
                decimalPlaces: try task.int("decimalplaces")
            )
        }
        let outcomes = try book.objects("outcomelist").map { outcome in
            SandboxWorld.Outcome(
                key: try outcome.int("key"),
                code: try outcome.string("code"),
                name: try outcome.string("name"),
                text: try outcome.string("outcome"),
                taskKeys: try outcome.list("tasklist", \.wireInt)
            )
        }
        var students: [SandboxWorld.Student] = []
        var results: [Int: [Int: String]] = [:]
        var levels: [Int: [Int: String]] = [:]
        for student in try book.objects("studentlist") {
            let key = try student.int("key")
            students.append(
                SandboxWorld.Student(
                    key: key,
                    sid: try student.string("studentid"),
                    familyName: try student.string("familyname"),
                    givenName: try student.string("givename"),
                    preferredName: try student.string("preferredname"),
                    gender: try student.string("gender"),
                    classKey: try student.int("classkey"),
                    deleted: false
                )
            )
            for (task, raw) in zip(tasks, try student.list("rawresults", \.wireText)) where !raw.isEmpty {
                results[key, default: [:]][task.key] = raw
            }
            let levelTexts =
                student.json["outcomelevels"] == nil ? [] : try student.list("outcomelevels", \.wireText)
            for (outcome, level) in zip(outcomes, levelTexts) where !level.isEmpty {
                levels[key, default: [:]][outcome.key] = level
            }
        }
        self.init(
            key: try book.int("markbookkey"),
            name: try book.string("markbookname"),
            year: try book.string("markbookyear"),
            course: try book.string("markbookcourse"),
            ownerKey: try book.int("ownerkey"),
            shareList: try book.list("sharelist", \.wireInt),
            classes: try book.objects("classlist").map { item in
                SandboxWorld.SchoolClass(
                    key: try item.int("key"),
                    name: try item.string("name"),
                    teacherName1: try item.string("teachername1"),
                    teacherName2: try item.string("teachername2")
                )
            },
            tasks: tasks,
            students: students,
            outcomes: outcomes,
            results: results,
            levels: levels
        )
    }
}

/// One object of the seed file; a member that is missing or of another type is an error that
/// names it.
private struct SeedReader {
    struct MissingMember: Error {
        var key: String
    }

    var json: JSONValue

    func member<Value>(_ key: String, _ read: (JSONValue) -> Value?) throws -> Value {
        guard let value = json[key].flatMap(read) else { throw MissingMember(key: key) }
        return value
    }

    func int(_ key: String) throws -> Int { try member(key, \.wireInt) }

    func string(_ key: String) throws -> String { try member(key, \.wireText) }

    func list<Value>(_ key: String, _ read: (JSONValue) -> Value?) throws -> [Value] {
        try member(key, \.arrayValue).map { item in
            guard let value = read(item) else { throw MissingMember(key: key) }
            return value
        }
    }

    func objects(_ key: String) throws -> [SeedReader] { try list(key) { SeedReader(json: $0) } }
}

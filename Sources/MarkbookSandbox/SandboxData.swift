import Foundation

/// The sandbox's school: users, markbooks and everything in them, sessions and the backup.
///
/// A value type mutated under the module's lock, so each request sees and leaves a consistent
/// state and a test can copy it.
struct SandboxWorld: Sendable, Hashable, Codable {
    struct User: Sendable, Hashable, Codable {
        var key: Int
        var name: String
        var loginID: String
        var email: String
    }

    struct SchoolClass: Sendable, Hashable, Codable {
        var key: Int
        var name: String
        var teacherName1: String
        var teacherName2: String
    }

    struct Task: Sendable, Hashable, Codable {
        var key: Int
        var name: String
        var maximum: Int
        var decimalPlaces: Int
    }

    struct Student: Sendable, Hashable, Codable {
        var key: Int
        var sid: String
        var familyName: String
        var givenName: String
        var preferredName: String
        var gender: String
        var classKey: Int
        var deleted: Bool
    }

    struct Outcome: Sendable, Hashable, Codable {
        var key: Int
        var code: String
        var name: String
        var text: String
        var taskKeys: [Int]
    }

    struct Markbook: Sendable, Hashable, Codable {
        var key: Int
        var name: String
        var year: String
        var course: String
        var ownerKey: Int
        var shareList: [Int]
        var classes: [SchoolClass]
        var tasks: [Task]
        var students: [Student]
        var outcomes: [Outcome]
        /// Raw result texts as written: `results[studentKey][taskKey]`.
        var results: [Int: [Int: String]]
        /// Level texts: `levels[studentKey][outcomeKey]`.
        var levels: [Int: [Int: String]]

        var activeStudents: [Student] { students.filter { !$0.deleted } }

        func schoolClass(_ key: Int) -> SchoolClass? { classes.first { $0.key == key } }
    }

    struct Session: Sendable, Hashable, Codable {
        var key: Int
        var openedAt: Date
    }

    struct Backup: Sendable, Hashable, Codable {
        var matching: String
        var scheduledAt: Date
        var readyAt: Date
        var fileName: String
        var firstReturnedAt: Date?
    }

    var schoolName: String
    var users: [User]
    var markbooks: [Markbook]
    var sessions: [String: Session] = [:]
    var backup: Backup?

    /// Sessions are not kept in a state file: like a server restart, a new process starts
    /// without them.
    private enum CodingKeys: String, CodingKey {
        case schoolName, users, markbooks, backup
    }

    func markbookIndex(_ key: Int) -> Int? {
        markbooks.firstIndex { $0.key == key }
    }

    /// The next key of a kind: one more than the highest in use anywhere. Nothing is ever
    /// removed (student deletion is soft), so a key never names two things.
    func nextKey(_ keys: (Markbook) -> [Int], floor: Int) -> Int {
        max(markbooks.flatMap(keys).max() ?? floor, floor) + 1
    }

    var nextMarkbookKey: Int { max(markbooks.map(\.key).max() ?? 1_000_000, 1_000_000) + 1 }
    var nextClassKey: Int { nextKey({ $0.classes.map(\.key) }, floor: 3000) }
    var nextStudentKey: Int { nextKey({ $0.students.map(\.key) }, floor: 5000) }
}

// MARK: Seed

/// The seed file's shape (`Spec/Markbook/sandbox-seed.json`).
struct SeedFile: Decodable {
    struct User: Decodable {
        var key: Int
        var name: String
        var loginid: String
        var email: String
    }

    struct SchoolClass: Decodable {
        var key: Int
        var name: String
        var teachername1: String
        var teachername2: String
    }

    struct Task: Decodable {
        var key: Int
        var name: String
        var maximum: Int
        var decimalplaces: Int
    }

    struct Student: Decodable {
        var key: Int
        var studentid: String
        var familyname: String
        var givename: String
        var preferredname: String
        var gender: String
        var classkey: Int
        var rawresults: [String]
        var outcomelevels: [String]?
    }

    struct Outcome: Decodable {
        var key: Int
        var code: String
        var name: String
        var outcome: String
        var tasklist: [Int]
    }

    struct Markbook: Decodable {
        var markbookkey: Int
        var markbookname: String
        var markbookyear: String
        var markbookcourse: String
        var ownerkey: Int
        var sharelist: [Int]
        var classlist: [SchoolClass]
        var tasklist: [Task]
        var studentlist: [Student]
        var outcomelist: [Outcome]
    }

    var schoolname: String
    var users: [User]
    var markbooks: [Markbook]

    var world: SandboxWorld {
        let markbooks = markbooks.map { book -> SandboxWorld.Markbook in
            var results: [Int: [Int: String]] = [:]
            var levels: [Int: [Int: String]] = [:]
            for student in book.studentlist {
                for (task, raw) in zip(book.tasklist, student.rawresults) where !raw.isEmpty {
                    results[student.key, default: [:]][task.key] = raw
                }
                for (outcome, level) in zip(book.outcomelist, student.outcomelevels ?? []) where !level.isEmpty {
                    levels[student.key, default: [:]][outcome.key] = level
                }
            }
            return SandboxWorld.Markbook(
                key: book.markbookkey,
                name: book.markbookname,
                year: book.markbookyear,
                course: book.markbookcourse,
                ownerKey: book.ownerkey,
                shareList: book.sharelist,
                classes: book.classlist.map {
                    .init(key: $0.key, name: $0.name, teacherName1: $0.teachername1, teacherName2: $0.teachername2)
                },
                tasks: book.tasklist.map {
                    .init(key: $0.key, name: $0.name, maximum: $0.maximum, decimalPlaces: $0.decimalplaces)
                },
                students: book.studentlist.map {
                    .init(
                        key: $0.key,
                        sid: $0.studentid,
                        familyName: $0.familyname,
                        givenName: $0.givename,
                        preferredName: $0.preferredname,
                        gender: $0.gender,
                        classKey: $0.classkey,
                        deleted: false
                    )
                },
                outcomes: book.outcomelist.map {
                    .init(key: $0.key, code: $0.code, name: $0.name, text: $0.outcome, taskKeys: $0.tasklist)
                },
                results: results,
                levels: levels
            )
        }
        return SandboxWorld(
            schoolName: schoolname,
            users: users.map { .init(key: $0.key, name: $0.name, loginID: $0.loginid, email: $0.email) },
            markbooks: markbooks
        )
    }
}

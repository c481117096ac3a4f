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

    /// A task or an outcome: a column of a joined read.
    protocol Keyed {
        var key: Int { get }
    }

    struct Task: Sendable, Hashable, Codable, Keyed {
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

    struct Outcome: Sendable, Hashable, Codable, Keyed {
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

import Foundation
import HTTPCore

extension ActionHandler {
    mutating func putStudentResult(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
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

    mutating func createStudent(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
        let bookIndex = try markbookIndex(query)
        let book = world.markbooks[bookIndex]
        let sid = try query.require("sid").trimmingCharacters(in: .whitespaces)
        let names = try StudentNames(query)
        let classKey = try classKey(query, in: book)
        guard !book.students.contains(where: { $0.sid == sid }) else { throw StatusError("duplicate student id") }
        let key = world.nextStudentKey
        world.markbooks[bookIndex].students.append(
            SandboxWorld.Student(
                key: key,
                sid: sid,
                familyName: names.family,
                givenName: names.given,
                preferredName: names.preferred,
                gender: names.gender,
                classKey: classKey,
                deleted: false
            )
        )
        changedData = true
        return ["studentkey": .integer(key)]
    }

    mutating func updateStudent(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
        let bookIndex = try markbookIndex(query)
        let index = try studentIndex(query, in: world.markbooks[bookIndex], includingDeleted: false)
        try StudentNames(query).apply(to: &world.markbooks[bookIndex].students[index])
        changedData = true
        return [:]
    }

    mutating func updateStudentClass(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
        let bookIndex = try markbookIndex(query)
        let book = world.markbooks[bookIndex]
        let index = try studentIndex(query, in: book, includingDeleted: true)
        let classKey = try classKey(query, in: book)
        world.markbooks[bookIndex].students[index].classKey = classKey
        world.markbooks[bookIndex].students[index].deleted = false
        changedData = true
        return [:]
    }

    mutating func deleteStudent(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
        let bookIndex = try markbookIndex(query)
        let index = try studentIndex(query, in: world.markbooks[bookIndex], includingDeleted: true)
        changedData = !world.markbooks[bookIndex].students[index].deleted
        world.markbooks[bookIndex].students[index].deleted = true
        return [:]
    }

    mutating func createClass(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
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

    mutating func scheduleBackup(_ query: Parameters) throws(StatusError) -> [String: JSONValue] {
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
            fileName: "markbook-backup-\(readyAt.formatted(.compactUTCTimestamp)).zip",
            firstReturnedAt: nil
        )
        changedData = true
        return [:]
    }

    mutating func backupURL() throws(StatusError) -> [String: JSONValue] {
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
}

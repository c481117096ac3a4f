import Foundation
import HTTPCore

extension ActionHandler {
    mutating func createMarkbook(_ form: Parameters) throws(StatusError) -> [String: JSONValue] {
        let text = try form.require("jsondata")
        guard let payload = try? JSONValue(parsing: Data(text.utf8)),
            case .object = payload,
            // Members the reference lists for every payload (empty ones included): one without them
            // is not what the API takes.
            payload["action"]?.wireText == "createmarkbook", payload["api"]?.wireText != nil,
            payload["schoolname"]?.wireText != nil, payload["markbookyear"]?.wireText != nil,
            payload["markbookcourse"]?.wireText != nil, payload["sharelist"]?.arrayValue != nil
        else { throw StatusError("invalid jsondata") }
        guard let requestedName = payload["markbookname"]?.wireText?.trimmingCharacters(in: .whitespaces),
            !requestedName.isEmpty
        else { throw StatusError("missing markbookname") }
        guard let ownerKey = payload["ownerkey"]?.wireInt, let classList = payload["classlist"]?.arrayValue,
            let studentList = payload["studentlist"]?.arrayValue
        else { throw StatusError("invalid jsondata") }
        let userKeys = Set(world.users.map(\.key))
        guard userKeys.contains(ownerKey) else { throw StatusError("invalid user") }
        var shareList: [Int] = []
        for item in payload["sharelist"]?.arrayValue ?? [] {
            guard let key = item.wireInt else { throw StatusError("invalid jsondata") }
            guard userKeys.contains(key) else { throw StatusError("invalid user") }
            shareList.append(key)
        }

        var nextClassKey = world.nextClassKey
        var classKeys: [Int: Int] = [:]
        var classes: [SandboxWorld.SchoolClass] = []
        for item in classList {
            guard let localKey = item["key"]?.wireInt, classKeys[localKey] == nil,
                let name = item["name"]?.wireText?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
                let teacher1 = item["teachername1"]?.wireText, let teacher2 = item["teachername2"]?.wireText
            else { throw StatusError("invalid jsondata") }
            guard !classes.contains(where: { Self.sameName($0.name, name) }) else {
                throw StatusError("duplicate class name")
            }
            classKeys[localKey] = nextClassKey
            classes.append(
                SandboxWorld.SchoolClass(
                    key: nextClassKey,
                    name: name,
                    teacherName1: teacher1,
                    teacherName2: teacher2
                )
            )
            nextClassKey += 1
        }
        var nextStudentKey = world.nextStudentKey
        var students: [SandboxWorld.Student] = []
        for item in studentList {
            guard let sid = item["studentid"]?.wireText?.trimmingCharacters(in: .whitespaces), !sid.isEmpty,
                let family = item["familyname"]?.wireText, !family.isEmpty,
                let given = item["givename"]?.wireText, !given.isEmpty,
                let localClass = item["classkey"]?.wireInt, item["key"]?.wireInt != nil,
                item["classname"]?.wireText != nil, let preferred = item["preferredname"]?.wireText
            else { throw StatusError("invalid jsondata") }
            guard let classKey = classKeys[localClass] else { throw StatusError("invalid class") }
            guard !students.contains(where: { $0.sid == sid }) else { throw StatusError("duplicate student id") }
            students.append(
                SandboxWorld.Student(
                    key: nextStudentKey,
                    sid: sid,
                    familyName: family,
                    givenName: given,
                    preferredName: preferred,
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
                year: payload["markbookyear"]?.wireText ?? "",
                course: payload["markbookcourse"]?.wireText ?? "",
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

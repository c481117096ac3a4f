import Foundation
import HTTPCore

/// The zip a sandbox backup serves: the markbooks whose names match the backup's `matching`
/// (all of them for an empty one), each as JSON and as CSV, and a manifest.
///
/// ```
/// manifest.json                       school, matching, build time (UTC), one entry per markbook
/// markbooks/1000001-10MAT1-Mathematics.json   the markbook as getmarkbook answers it, plus
///                                             deleted students and outcome levels
/// markbooks/1000001-10MAT1-Mathematics.csv    sid, names, class, one column per task (raw results)
/// ```
///
/// The real API's backup format is not documented; this one is small, readable and checkable.
@available(macOS 14, iOS 17, tvOS 17, *)
enum BackupArchive {
    static func zip(of world: SandboxWorld, backup: SandboxWorld.Backup, timeZone: TimeZone) -> [UInt8] {
        let books = world.markbooks.sorted { $0.key < $1.key }.filter { matches($0.name, backup.matching) }
        var archive = StoredZip(modified: backup.readyAt)
        var listed: [JSONValue] = []
        for book in books {
            let stem = "markbooks/\(book.key)-\(fileSafe(book.name))"
            archive.entries.append(.init(name: stem + ".json", bytes: json(book, world: world, timeZone: timeZone)))
            archive.entries.append(.init(name: stem + ".csv", bytes: csv(book)))
            listed.append([
                "key": .integer(book.key), "name": .string(book.name), "json": .string(stem + ".json"),
                "csv": .string(stem + ".csv"), "students": .integer(book.activeStudents.count),
                "tasks": .integer(book.tasks.count),
            ])
        }
        let manifest: JSONValue = [
            "source": "Markbook Online (sandbox)", "school": .string(world.schoolName),
            "matching": .string(backup.matching), "built": .string(backup.readyAt.formatted(.compactUTCTimestamp)),
            "markbooks": .array(listed),
        ]
        archive.entries.insert(.init(name: "manifest.json", bytes: Array(manifest.encoded())), at: 0)
        return archive.archive()
    }

    /// Whether a markbook's name matches a backup's `matching`: contains it, case-insensitively.
    static func matches(_ name: String, _ matching: String) -> Bool {
        matching.isEmpty || name.lowercased().contains(matching.lowercased())
    }

    /// The markbook in `getmarkbook`'s shape, plus what a backup must not lose: deleted students
    /// (with their results) and outcome levels.
    private static func json(_ book: SandboxWorld.Markbook, world: SandboxWorld, timeZone: TimeZone) -> [UInt8] {
        var handler = ActionHandler(world: world, now: Date(), timeZone: timeZone)
        var members =
            (try? handler.run("getmarkbook", Parameters([.init("key", String(book.key))]))) ?? [:]
        members["deletedstudents"] = .array(
            book.students.filter(\.deleted).map { student in
                [
                    "key": .integer(student.key), "studentid": .string(student.sid),
                    "familyname": .string(student.familyName), "givename": .string(student.givenName),
                    "preferredname": .string(student.preferredName), "classkey": .integer(student.classKey),
                    "rawresults": .array(book.tasks.map { .string(book.results[student.key]?[$0.key] ?? "") }),
                ]
            }
        )
        members["levellist"] = .array(
            book.levels.keys.sorted().flatMap { studentKey in
                (book.levels[studentKey] ?? [:]).keys.sorted().map { outcomeKey -> JSONValue in
                    [
                        "studentkey": .integer(studentKey), "outcomekey": .integer(outcomeKey),
                        "outcomelevel": .string(book.levels[studentKey]?[outcomeKey] ?? ""),
                    ]
                }
            }
        )
        return Array(JSONValue.object(members).encoded())
    }

    /// The results grid as RFC 4180 CSV (CRLF, fields quoted when needed).
    private static func csv(_ book: SandboxWorld.Markbook) -> [UInt8] {
        var lines = [["sid", "family name", "given name", "preferred name", "class"] + book.tasks.map(\.name)]
        for student in book.activeStudents {
            let className = book.schoolClass(student.classKey)?.name ?? ""
            lines.append(
                [student.sid, student.familyName, student.givenName, student.preferredName, className]
                    + book.tasks.map { book.results[student.key]?[$0.key] ?? "" }
            )
        }
        let text = lines.map { DelimitedField.record($0, delimiter: ",") + "\r\n" }.joined()
        return Array(text.utf8)
    }

    /// A name usable in a file name on any system: letters, digits, `-`, `_` and `.` kept,
    /// anything else a `-`.
    private static func fileSafe(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "-"
        }
        return String(kept)
    }
}

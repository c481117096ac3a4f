import Foundation

/// Payloads for the decode workload, built in memory so the benchmark needs no files at run time
/// beyond the package's own `Spec/` examples.
enum DecodeFixtures {
    /// A 50-item Basecamp todo page: the spec's `Todo.json` example repeated with distinct ids
    /// and titles, as `GET …/todolists/{id}/todos.json` returns it.
    static func basecampTodoPage(count: Int = 50) throws -> Data {
        let example = repositoryRoot.appending(path: "Spec/Basecamp/examples/Todo.json")
        let data = try Data(contentsOf: example)
        guard let todo = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BenchError("Spec/Basecamp/examples/Todo.json is not a JSON object")
        }
        var page: [[String: Any]] = []
        for index in 0..<count {
            var item = todo
            item["id"] = 1_069_479_395 + index
            item["title"] = "Todo \(index + 1): \(todo["title"] as? String ?? "")"
            item["position"] = index + 1
            page.append(item)
        }
        return try JSONSerialization.data(withJSONObject: page, options: [.sortedKeys])
    }

    /// The repository's root (Scripts/Benchmarks/Sources/Benchmarks/ is four folders below it),
    /// found from this file's path so the benchmark runs from any directory.
    static var repositoryRoot: URL {
        var root = URL(filePath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        return root
    }

    /// A Markbook `getmarkbook` answer for `students` students and `tasks` tasks in three
    /// classes, shaped as Markbook API v1.5 sends it: envelope, markbook header, `classlist`,
    /// `tasklist`, and `studentlist` with `rawresults`/`roundedresults` in `tasklist` order.
    static func markbookSheet(students: Int = 30, tasks: Int = 20) throws -> Data {
        let classes: [[String: Any]] = (1...3).map { key in
            ["key": 500 + key, "name": "10\(key)", "teachername1": "Mr Tom", "teachername2": "Reynolds"]
        }
        let taskList: [[String: Any]] = (1...max(tasks, 1)).map { key in
            ["key": 9000 + key, "name": "Task \(key)", "maximum": 100, "decimalplaces": 1]
        }
        let studentList: [[String: Any]] = (1...max(students, 1)).map { key in
            let raw = (1...max(tasks, 1)).map { String(format: "%.6f", Double((key * 7 + $0 * 13) % 1000) / 10) }
            let rounded = raw.map { String(Int((Double($0) ?? 0).rounded())) }
            return [
                "key": 70_000 + key, "studentid": String(format: "S%06d", key), "familyname": "Family\(key)",
                "givename": "Given\(key)", "preferredname": "Pref\(key)", "classkey": 501 + key % 3,
                "classname": "10\(1 + key % 3)", "rawresults": raw, "roundedresults": rounded,
            ]
        }
        let sheet: [String: Any] = [
            "source": "Markbook Online", "api": "https://smpcsonline.com.au/markbook/api/v1.5",
            "seconds": 1_718_333_912, "date": "Fri, 14 Jun 2024 12:58:32 +1000", "schoolname": "Sample School",
            "action": "getmarkbook", "status": "OKAY", "markbookkey": 1234, "markbookname": "Year 10 Science",
            "markbookyear": "2024", "markbookcourse": "Science", "ownerkey": 12, "sharelist": [13, 14],
            "classlist": classes, "tasklist": taskList, "studentlist": studentList,
        ]
        return try JSONSerialization.data(withJSONObject: sheet, options: [.sortedKeys])
    }
}

/// A benchmark setup failure, with a message for the console.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

import Foundation

/// A markbook as `markbooklist` lists it.
public struct MarkbookSummary: Sendable, Hashable, Codable {
    /// The markbook's key, used by every call about it.
    public var key: Int
    /// Its name.
    public var name: String
    /// Its owner's name.
    public var owner: String
    /// Its year, as the school writes it (e.g. `2024`).
    public var year: String
    /// Its course.
    public var course: String

    /// Creates a summary.
    public init(key: Int, name: String, owner: String, year: String, course: String) {
        self.key = key
        self.name = name
        self.owner = owner
        self.year = year
        self.course = course
    }
}

/// A user of the school, as `userlist` lists them; their key is what a markbook's owner and
/// share list hold.
public struct MarkbookUser: Sendable, Hashable, Codable {
    /// The user's key.
    public var key: Int
    /// Their name.
    public var name: String
    /// Their login id.
    public var loginID: String
    /// Their email address.
    public var email: String

    /// Creates a user.
    public init(key: Int, name: String, loginID: String, email: String) {
        self.key = key
        self.name = name
        self.loginID = loginID
        self.email = email
    }
}

/// A class of a markbook.
public struct MarkbookClass: Sendable, Hashable, Codable {
    /// The class's key.
    public var key: Int
    /// Its name, unique within the markbook.
    public var name: String
    /// The first part of the teacher's name; by convention title and given name (`"Mr Tom"`).
    public var teacherName1: String
    /// The second part of the teacher's name; by convention the family name (`"Reynolds"`).
    public var teacherName2: String

    /// Creates a class.
    public init(key: Int, name: String, teacherName1: String, teacherName2: String) {
        self.key = key
        self.name = name
        self.teacherName1 = teacherName1
        self.teacherName2 = teacherName2
    }

    /// Both parts of the teacher's name, e.g. `"Mr Tom Reynolds"`.
    public var teacherName: String {
        [teacherName1, teacherName2].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

/// An assessment task of a markbook: a column of results.
public struct MarkbookTask: Sendable, Hashable, Codable {
    /// The task's key.
    public var key: Int
    /// Its name.
    public var name: String
    /// The highest result.
    public var maximum: Int
    /// How many decimal places rounded results keep.
    public var decimalPlaces: Int

    /// Creates a task.
    public init(key: Int, name: String, maximum: Int, decimalPlaces: Int) {
        self.key = key
        self.name = name
        self.maximum = maximum
        self.decimalPlaces = decimalPlaces
    }
}

/// A student of a markbook.
public struct MarkbookStudent: Sendable, Hashable, Codable {
    /// The student's key within the markbook.
    public var key: Int
    /// The school's student id (`sid` in write calls); it identifies the student and cannot change.
    public var studentID: String
    /// Family name.
    public var familyName: String
    /// Given name (the API spells the key `givename`).
    public var givenName: String
    /// Preferred name; may be empty.
    public var preferredName: String
    /// The key of the student's class.
    public var classKey: Int
    /// The name of the student's class.
    public var className: String

    /// Creates a student.
    public init(
        key: Int,
        studentID: String,
        familyName: String,
        givenName: String,
        preferredName: String,
        classKey: Int,
        className: String
    ) {
        self.key = key
        self.studentID = studentID
        self.familyName = familyName
        self.givenName = givenName
        self.preferredName = preferredName
        self.classKey = classKey
        self.className = className
    }

    /// `Family, Preferred` (or the given name when there is no preferred one), for sorted lists.
    public var sortName: String {
        let first = preferredName.trimmingCharacters(in: .whitespaces).isEmpty ? givenName : preferredName
        return first.isEmpty ? familyName : "\(familyName), \(first)"
    }
}

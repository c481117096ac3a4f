import Foundation
import HTTPCore

/// A whole markbook to create with ``MarkbookClient/createMarkbook(_:)``: header, classes and
/// students.
///
/// Class and student keys here are local to the payload (they may start from 1) and only link
/// students to classes; the server assigns real keys. `Codable` uses the API's own `jsondata`
/// shape (`markbookname`, `classlist`, `givename`, …), so a file written for the API can be read
/// as it is:
///
/// ```swift
/// let payload = try JSONDecoder().decode(NewMarkbook.self, from: Data(contentsOf: file))
/// let created = try await client.createMarkbook(payload)
/// ```
public struct NewMarkbook: Sendable, Hashable, Codable {
    /// A class of the new markbook.
    public struct Class: Sendable, Hashable, Codable {
        /// A key local to the payload, which students refer to.
        public var key: Int
        /// The class name; unique within the markbook.
        public var name: String
        /// First part of the teacher's name (title and given name by convention).
        public var teacherName1: String
        /// Second part of the teacher's name (family name by convention).
        public var teacherName2: String

        /// Creates a class.
        public init(key: Int, name: String, teacherName1: String = "", teacherName2: String = "") {
            self.key = key
            self.name = name
            self.teacherName1 = teacherName1
            self.teacherName2 = teacherName2
        }

        private enum CodingKeys: String, CodingKey {
            case key, name
            case teacherName1 = "teachername1"
            case teacherName2 = "teachername2"
        }

        /// Reads the API's shape; the teacher names may be missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            key = try container.decodeFlexibleInt(.key)
            name = try container.decodeFlexibleText(.name)
            teacherName1 = try container.decodeFlexibleTextIfPresent(.teacherName1) ?? ""
            teacherName2 = try container.decodeFlexibleTextIfPresent(.teacherName2) ?? ""
        }
    }

    /// A student of the new markbook.
    public struct Student: Sendable, Hashable, Codable {
        /// A key local to the payload.
        public var key: Int
        /// The school's student id.
        public var studentID: String
        /// Family name.
        public var familyName: String
        /// Given name.
        public var givenName: String
        /// Preferred name; may be empty.
        public var preferredName: String
        /// The local key of the student's class in ``NewMarkbook/classes``.
        public var classKey: Int

        /// Creates a student.
        public init(
            key: Int,
            studentID: String,
            familyName: String,
            givenName: String,
            preferredName: String = "",
            classKey: Int
        ) {
            self.key = key
            self.studentID = studentID
            self.familyName = familyName
            self.givenName = givenName
            self.preferredName = preferredName
            self.classKey = classKey
        }

        private enum CodingKeys: String, CodingKey {
            case key
            case studentID = "studentid"
            case familyName = "familyname"
            case givenName = "givename"
            case preferredName = "preferredname"
            case classKey = "classkey"
        }

        /// Reads the API's shape; `preferredname` may be missing and `classname` is not read (the
        /// class is found by its key, and the payload writes the name from it).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            key = try container.decodeFlexibleInt(.key)
            studentID = try container.decodeFlexibleText(.studentID)
            familyName = try container.decodeFlexibleText(.familyName)
            givenName = try container.decodeFlexibleText(.givenName)
            preferredName = try container.decodeFlexibleTextIfPresent(.preferredName) ?? ""
            classKey = try container.decodeFlexibleInt(.classKey)
        }
    }

    /// The markbook's name; the server appends `-1`, `-2`, … when it is taken.
    public var name: String
    /// Its year, e.g. `2024`.
    public var year: String
    /// Its course.
    public var course: String
    /// The owner's user key (from ``MarkbookClient/userList()``).
    public var ownerKey: Int
    /// User keys to share it with.
    public var shareList: [Int]
    /// Its classes.
    public var classes: [Class]
    /// Its students.
    public var students: [Student]
    /// The school's name for the payload; `nil` uses the name the API reported.
    public var schoolName: String?

    /// Creates a payload.
    public init(
        name: String,
        year: String,
        course: String,
        ownerKey: Int,
        shareList: [Int] = [],
        classes: [Class],
        students: [Student],
        schoolName: String? = nil
    ) {
        self.name = name
        self.year = year
        self.course = course
        self.ownerKey = ownerKey
        self.shareList = shareList
        self.classes = classes
        self.students = students
        self.schoolName = schoolName
    }

    private enum CodingKeys: String, CodingKey {
        case name = "markbookname"
        case year = "markbookyear"
        case course = "markbookcourse"
        case ownerKey = "ownerkey"
        case shareList = "sharelist"
        case classes = "classlist"
        case students = "studentlist"
        case schoolName = "schoolname"
    }

    /// Reads the API's `jsondata` shape; `api` and `action` are ignored (the client sets them),
    /// `sharelist` and `schoolname` may be missing, and numbers may be written as strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeFlexibleText(.name)
        year = try container.decodeFlexibleText(.year)
        course = try container.decodeFlexibleTextIfPresent(.course) ?? ""
        ownerKey = try container.decodeFlexibleInt(.ownerKey)
        shareList = try container.decodeIfPresent([FlexibleInt].self, forKey: .shareList)?.map(\.value) ?? []
        classes = try container.decode([Class].self, forKey: .classes)
        students = try container.decode([Student].self, forKey: .students)
        schoolName = try container.decodeFlexibleTextIfPresent(.schoolName)
    }

    /// Checks what the server would otherwise refuse, or worse, half-apply: a name, an owner,
    /// unique class keys and names, unique student keys and ids, and every student's class in
    /// the payload.
    ///
    /// - Throws: ``HTTPCore/APIError/usage(_:)`` naming the first problem.
    public func validate() throws {
        try MarkbookInput.requireText(name, "markbookname")
        try MarkbookInput.requireText(year, "markbookyear", allowEmpty: true)
        try MarkbookInput.requireText(course, "markbookcourse", allowEmpty: true)
        try MarkbookInput.requireKey(ownerKey, "ownerkey")
        for key in shareList { try MarkbookInput.requireKey(key, "sharelist") }
        var classKeys = Set<Int>()
        var classNames = Set<String>()
        for item in classes {
            try MarkbookInput.requireText(item.name, "classlist name")
            try MarkbookInput.requireText(item.teacherName1, "teachername1", allowEmpty: true)
            try MarkbookInput.requireText(item.teacherName2, "teachername2", allowEmpty: true)
            guard classKeys.insert(item.key).inserted else {
                throw APIError.usage("The payload has two classes with key \(item.key).")
            }
            guard classNames.insert(MarkbookInput.uniquenessKey(item.name)).inserted else {
                throw APIError.usage(
                    "The payload has two classes named \"\(item.name)\"; class names must be unique in a markbook."
                )
            }
        }
        var studentKeys = Set<Int>()
        var studentIDs = Set<String>()
        for student in students {
            try MarkbookInput.requireText(student.studentID, "studentid")
            try MarkbookInput.requireText(student.familyName, "familyname")
            try MarkbookInput.requireText(student.givenName, "givename")
            try MarkbookInput.requireText(student.preferredName, "preferredname", allowEmpty: true)
            guard studentKeys.insert(student.key).inserted else {
                throw APIError.usage("The payload has two students with key \(student.key).")
            }
            guard studentIDs.insert(student.studentID).inserted else {
                throw APIError.usage("The payload has two students with student id \"\(student.studentID)\".")
            }
            guard classKeys.contains(student.classKey) else {
                throw APIError.usage(
                    "Student \(student.studentID) is in class \(student.classKey), which is not in the payload's classlist."
                )
            }
        }
    }

    /// The `jsondata` value sent to `post.lc`: the payload plus `api`, `schoolname` and
    /// `action`, and each student's `classname` taken from its class.
    func wirePayload(api: String, schoolName: String) -> JSONValue {
        let classNames = Dictionary(classes.map { ($0.key, $0.name) }) { first, _ in first }
        return .object([
            "api": .string(api),
            "schoolname": .string(self.schoolName ?? schoolName),
            "action": "createmarkbook",
            "markbookname": .string(name),
            "markbookyear": .string(year),
            "markbookcourse": .string(course),
            "ownerkey": .integer(ownerKey),
            "sharelist": .array(shareList.map(JSONValue.integer)),
            "classlist": .array(
                classes.map {
                    [
                        "key": .integer($0.key), "name": .string($0.name),
                        "teachername1": .string($0.teacherName1), "teachername2": .string($0.teacherName2),
                    ]
                }
            ),
            "studentlist": .array(
                students.map {
                    [
                        "key": .integer($0.key), "studentid": .string($0.studentID),
                        "familyname": .string($0.familyName), "givename": .string($0.givenName),
                        "preferredname": .string($0.preferredName), "classkey": .integer($0.classKey),
                        "classname": .string(classNames[$0.classKey] ?? ""),
                    ]
                }
            ),
        ])
    }
}

/// What `createmarkbook` answered.
public struct CreatedMarkbook: Sendable, Hashable, Codable {
    /// The new markbook's key.
    public var key: Int
    /// The name actually used: the requested one, or it with `-1`, `-2`, … appended when taken.
    public var name: String
    /// The name that was asked for.
    public var requestedName: String
    /// Classes created.
    public var classCount: Int
    /// Students created.
    public var studentCount: Int
    /// Users it was shared with.
    public var shareCount: Int

    /// Creates a result.
    public init(key: Int, name: String, requestedName: String, classCount: Int, studentCount: Int, shareCount: Int) {
        self.key = key
        self.name = name
        self.requestedName = requestedName
        self.classCount = classCount
        self.studentCount = studentCount
        self.shareCount = shareCount
    }

    /// Whether the server changed the name because it was taken.
    public var wasRenamed: Bool { name != requestedName }
}

/// An integer written as a number or as digits in a string.
struct FlexibleInt: Decodable {
    var value: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self), let number = Int(text) {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a whole number.")
        }
    }
}

extension KeyedDecodingContainer {
    func decodeFlexibleInt(_ key: Key) throws -> Int {
        try decode(FlexibleInt.self, forKey: key).value
    }

    func decodeFlexibleText(_ key: Key) throws -> String {
        if let number = try? decode(Int.self, forKey: key) { return String(number) }
        return try decode(String.self, forKey: key)
    }

    func decodeFlexibleTextIfPresent(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeFlexibleText(key)
    }
}

public import HTTPCore

/// Every action of the Markbook Online API v1.5, with what the client needs to send it safely.
///
/// The API keys its operations by a query parameter (`action`, or `apiaction` for the one POST)
/// rather than by path and method, and nearly every action is a GET, including the ones that
/// change marks. HTTP semantics therefore say nothing about which calls may be repeated: each
/// action declares it in ``isIdempotent``, and the client's retry policy follows that flag,
/// never the method. The table is checked against `Spec/Markbook/markbook.contract.json` by the
/// test suite, so a change to one without the other fails CI.
public enum MarkbookAction: String, Sendable, Hashable, CaseIterable {
    /// `markbooklist`: the markbooks the API key's school holds.
    case markbookList = "markbooklist"
    /// `userlist`: the school's users.
    case userList = "userlist"
    /// `getmarkbook`: one markbook with results as arrays in task order.
    case getMarkbook = "getmarkbook"
    /// `getmarkbookalt`: one markbook with results as a flat list.
    case getMarkbookAlt = "getmarkbookalt"
    /// `getoutcomes`: one markbook's outcomes with levels as arrays in outcome order.
    case getOutcomes = "getoutcomes"
    /// `getoutcomesalt`: one markbook's outcomes with levels as a flat list.
    case getOutcomesAlt = "getoutcomesalt"
    /// `putstudentresult`: sets one student's result for one task.
    case putStudentResult = "putstudentresult"
    /// `createstudent`: adds a student to a markbook.
    case createStudent = "createstudent"
    /// `updatestudent`: replaces a student's names and gender.
    case updateStudent = "updatestudent"
    /// `updatestudentclass`: moves a student to a class, restoring a deleted one.
    case updateStudentClass = "updatestudentclass"
    /// `deletestudent`: soft-deletes a student.
    case deleteStudent = "deletestudent"
    /// `createclass`: adds a class to a markbook.
    case createClass = "createclass"
    /// `schedulebackup`: asks for a backup of matching markbooks, built overnight.
    case scheduleBackup = "schedulebackup"
    /// `getbackupurl`: where the scheduled backup can be downloaded, once it is ready.
    case getBackupURL = "getbackupurl"
    /// `createmarkbook`: creates a whole markbook from a JSON payload (`POST post.lc`).
    case createMarkbook = "createmarkbook"

    /// Where an action is sent.
    public enum EntryPoint: String, Sendable, Hashable {
        /// `GET {base}?action=…&…` with the session values in the query.
        case query
        /// `POST {base}/post.lc` with a form body of `apiaction`, `jsondata` and the session values.
        case post
    }

    /// Where this action is sent.
    public var entryPoint: EntryPoint {
        self == .createMarkbook ? .post : .query
    }

    /// The action's own parameters, in the order they are sent (the session values follow).
    ///
    /// For ``createMarkbook`` these are form fields; for every other action, query parameters
    /// after `action`.
    public var parameters: [String] {
        switch self {
        case .markbookList, .userList, .getBackupURL: return []
        case .getMarkbook, .getMarkbookAlt, .getOutcomes, .getOutcomesAlt: return ["key"]
        case .putStudentResult: return ["key", "studentkey", "sid", "taskkey", "taskname", "result"]
        case .createStudent: return ["key", "sid", "family", "given", "preferred", "gender", "classkey"]
        case .updateStudent: return ["key", "studentkey", "sid", "family", "given", "preferred", "gender"]
        case .updateStudentClass: return ["key", "studentkey", "sid", "classkey"]
        case .deleteStudent: return ["key", "studentkey", "sid"]
        case .createClass: return ["key", "name", "family", "given"]
        case .scheduleBackup: return ["matching"]
        case .createMarkbook: return ["apiaction", "jsondata"]
        }
    }

    /// Whether the action changes data on the server.
    public var changesData: Bool {
        switch self {
        case .markbookList, .userList, .getMarkbook, .getMarkbookAlt, .getOutcomes, .getOutcomesAlt, .getBackupURL:
            return false
        default:
            return true
        }
    }

    /// Whether sending the action twice has the same effect as sending it once, so the client
    /// may repeat it after a lost connection or a 503.
    ///
    /// Reads are. `putstudentresult`, `updatestudent`, `updatestudentclass` and `deletestudent`
    /// set absolute values (a result, names, a class, a deleted flag), so a repeat changes
    /// nothing. `schedulebackup` replaces the day's request with the same one. `createstudent`,
    /// `createclass` and `createmarkbook` are not: a repeat after a lost answer may create a
    /// second student, class or markbook, so the client never repeats them once they may have
    /// reached the server and reports `ambiguous` instead.
    public var isIdempotent: Bool {
        switch self {
        case .createStudent, .createClass, .createMarkbook: return false
        default: return true
        }
    }

    /// The Swift method that sends the action, e.g. `getMarkbook`; also the operation name in
    /// hook events and metrics.
    public var operationName: String {
        switch self {
        case .markbookList: return "markbookList"
        case .userList: return "userList"
        case .getMarkbook: return "getMarkbook"
        case .getMarkbookAlt: return "getMarkbookAlt"
        case .getOutcomes: return "getOutcomes"
        case .getOutcomesAlt: return "getOutcomesAlt"
        case .putStudentResult: return "putStudentResult"
        case .createStudent: return "createStudent"
        case .updateStudent: return "updateStudent"
        case .updateStudentClass: return "updateStudentClass"
        case .deleteStudent: return "deleteStudent"
        case .createClass: return "createClass"
        case .scheduleBackup: return "scheduleBackup"
        case .getBackupURL: return "getBackupURL"
        case .createMarkbook: return "createMarkbook"
        }
    }

    /// The response keys the action adds to the envelope on success.
    public var responseKeys: [String] {
        switch self {
        case .markbookList, .userList: return ["list"]
        case .getMarkbook:
            return MarkbookAction.headerKeys + ["classlist", "tasklist", "studentlist"]
        case .getMarkbookAlt:
            return MarkbookAction.headerKeys + ["classlist", "tasklist", "studentlist", "resultlist"]
        case .getOutcomes: return ["classlist", "outcomelist", "studentlist"]
        case .getOutcomesAlt: return ["classlist", "outcomelist", "studentlist", "levellist"]
        case .createStudent: return ["studentkey"]
        case .createClass: return ["classkey"]
        case .getBackupURL: return ["url"]
        case .createMarkbook: return ["markbookkey", "markbookname", "classcount", "studentcount", "sharecount"]
        case .putStudentResult, .updateStudent, .updateStudentClass, .deleteStudent, .scheduleBackup: return []
        }
    }

    /// The keys of a markbook's header in `getmarkbook` and `getmarkbookalt`.
    static let headerKeys = ["markbookkey", "markbookname", "markbookyear", "markbookcourse", "ownerkey", "sharelist"]

    /// The operation metadata the client sends the action with: its name, the `markbook`
    /// service, and ``isIdempotent`` and ``changesData`` stated explicitly so retry never falls
    /// back to the method.
    public var operation: OperationMetadata {
        OperationMetadata(name: operationName, service: "markbook", idempotent: isIdempotent, changesData: changesData)
    }
}

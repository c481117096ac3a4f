import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import HTTPCoreTesting
import Markbook
import MarkbookSandbox
import Testing

@testable import MarkbookCLI

@Suite("markbook commands, in-process")
struct CommandTests {
    @Test("list: the school's markbooks as a table")
    func list() async {
        let result = await markbook(["--sandbox", "list"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                    KEY  NAME                YEAR  COURSE               OWNER
                1000001  10MAT1 Mathematics  2024  Year 10 Mathematics  Ms Priya Natarajan
                1000002  11PHY Physics       2024  Year 11 Physics      Dr Mei Chen
                1000003  9SCI Science        2023  Year 9 Science       Mr Tom Reynolds

                """
        )
    }

    @Test("list --json and users --json: arrays with the SDK's names")
    func listJSON() async throws {
        let list = await markbook(["--sandbox", "--json", "list"])
        let summaries = try list.json([MarkbookSummary].self)
        #expect(summaries.count == 3)
        #expect(
            summaries[1]
                == MarkbookSummary(
                    key: 1_000_002,
                    name: "11PHY Physics",
                    owner: "Dr Mei Chen",
                    year: "2024",
                    course: "Year 11 Physics"
                )
        )
        let users = try await markbook(["users", "--json", "--sandbox"]).json([MarkbookUser].self)
        #expect(users.map(\.loginID).contains("sandbox.admin"))
        let table = await markbook(["--sandbox", "users"])
        #expect(
            table.stdout.hasPrefix(
                " KEY  NAME                   LOGIN          EMAIL\n2001  Ms Priya Natarajan     pnatarajan"
            )
        )
        #expect(
            table.stdout.contains("2004  Sandbox Administrator  sandbox.admin  admin@sandbox-college.example.edu.au\n")
        )
    }

    @Test("show: the markbook as a students × tasks grid, the same from --alt")
    func show() async {
        let result = await markbook(["--sandbox", "show", "1000001"])
        #expect(result.exitCode == 0)
        #expect(
            result.stdout == """
                10MAT1 Mathematics (1000001) · 2024 · Year 10 Mathematics
                Classes: 10MAT1-A [3001] Ms Priya Natarajan · 10MAT1-B [3002] Mr Tom Reynolds

                TASK  NAME                      MAX  DP
                4001  Algebra test               50   1
                4002  Geometry assignment        20   0
                4003  Statistics investigation   30   1
                4004  Term 1 exam               100   0
                4005  Homework                   10   1

                 KEY  STUDENT            SID     CLASS     4001  4002  4003  4004  4005
                5001  Adams, Olivia      100234  10MAT1-A  42.5    17  26.0    81   9.5
                5002  Brown, Jack        100251  10MAT1-A  38.0    15  22.5    74   8.0
                5003  Chen, Will         100262  10MAT1-A  47.0    19  28.0    92  10.0
                5004  Dimitriou, Sophie  100277  10MAT1-A  31.5    12     -    63   7.0
                5005  Edwards, Noah      100289  10MAT1-B  44.0    18  27.5    88   9.0
                5006  Fernando, Amelia   100301  10MAT1-B  29.0     -  19.0    58   6.5
                5007  Ngata, Ari         100315  10MAT1-B  40.5    16  24.0    79     -
                5008  O'Brien, Charlie   100322  10MAT1-B  36.0    14  21.0    70   8.5

                """
        )
        let alt = await markbook(["--sandbox", "show", "1000001", "--alt"])
        #expect(alt.stdout == result.stdout)
        let raw = await markbook(["--sandbox", "show", "--raw", "1000001"])
        #expect(raw.stdout.contains("5001  Adams, Olivia      100234  10MAT1-A  42.500000  17.000000"))
    }

    @Test("show --json: students with their results inline, numbers where they parse")
    func showJSON() async throws {
        struct Sheet: Decodable {
            struct Result: Decodable {
                var taskKey: Int
                var raw: String
                var rounded: String
                var value: Double?
            }
            struct Student: Decodable {
                var key: Int
                var studentID: String
                var results: [Result]
            }
            var key: Int
            var students: [Student]
        }
        let sheet = try await markbook(["--sandbox", "--json", "show", "1000001"]).json(Sheet.self)
        #expect(sheet.key == 1_000_001)
        #expect(sheet.students.count == 8)
        let sophie = try #require(sheet.students.first { $0.key == 5004 })
        #expect(sophie.results.map(\.taskKey) == [4001, 4002, 4004, 4005])
        #expect(sophie.results.first?.value == 31.5)
        #expect(sophie.results.first?.rounded == "31.5")
    }

    @Test("outcomes: levels as a grid, the same from --alt; --json")
    func outcomes() async throws {
        let result = await markbook(["--sandbox", "outcomes", "1000001"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("OUTCOME  CODE          NAME                               TASKS\n"))
        #expect(
            result.stdout.contains(
                "   6004  -             Working mathematically             4001, 4002, 4003, 4004, 4005"
            )
        )
        #expect(result.stdout.contains("5006  Fernando, Amelia   100301  10MAT1-B     2     -     2     3"))
        #expect(await markbook(["--sandbox", "outcomes", "--alt", "1000001"]).stdout == result.stdout)
        let none = await markbook(["--sandbox", "outcomes", "1000003"])
        #expect(none.stdout == "Markbook 1000003 has no outcomes.\n")
        struct Outcomes: Decodable {
            struct Student: Decodable {
                struct Level: Decodable {
                    var outcomeKey: Int
                    var level: String
                    var value: Double?
                }
                var key: Int
                var levels: [Level]
            }
            var markbookKey: Int
            var students: [Student]
        }
        let physics = try await markbook(["--sandbox", "--json", "outcomes", "1000002"]).json(Outcomes.self)
        #expect(physics.students.first?.levels.first?.level == "B")
        #expect(physics.students.first?.levels.first?.value == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Writes against one sandbox: results, students (delete and restore), classes")
    func writes() async throws {
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_718_333_912))
        try await withSandbox(clock: clock) { _, module, run in
            let set = await run([
                "result", "set", "1000001", "--student", "5004", "--task", "4003", "--result", "21.25",
            ])
            #expect(set.exitCode == 0, "\(set.stderr)")
            #expect(set.stdout == "Dimitriou, Sophie · Statistics investigation (4003): - -> 21.25 /30\n")
            #expect(module.result(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003) == "21.25")
            let show = await run(["show", "1000001"])
            #expect(show.stdout.contains("5004  Dimitriou, Sophie  100277  10MAT1-A  31.5    12  21.3    63   7.0"))

            let tooHigh = await run([
                "result", "set", "1000001", "--student", "5004", "--task", "4003", "--result", "213",
            ])
            #expect(tooHigh.exitCode == 64)
            #expect(tooHigh.stderr.hasPrefix("Error: 213 is outside 0…30, the range of Statistics investigation."))
            #expect(tooHigh.stderr.contains("Usage: markbook result set <key> --student <key> --task <key>"))
            #expect(module.result(markbookKey: 1_000_001, studentKey: 5004, taskKey: 4003) == "21.25")
            let forced = await run(
                [
                    "result", "set", "1000001", "--student", "5004", "--task", "4003", "--result", "31",
                    "--allow-out-of-range",
                ]
            )
            #expect(forced.exitCode == 0)

            let created = await run([
                "student", "create", "1000001", "--sid", "100399", "--family", "Patel", "--given", "Aanya",
                "--gender", "female", "--class", "3002",
            ])
            #expect(created.stdout == "Created student 5016: Patel, Aanya (100399).\n")
            let again = await run([
                "--json", "student", "create", "1000001", "--sid", "100399", "--family", "Patel", "--given", "Aanya",
                "--gender", "female", "--class", "3002",
            ])
            #expect(again.exitCode == 9)
            let report = try again.errorReport()
            #expect(report.code == "validation")

            let updated = await run([
                "student", "update", "1000001", "5016", "--preferred", "Ani", "--gender", "female",
            ])
            #expect(updated.stdout == "Updated student 5016: Patel, Ani (100399).\n")
            #expect(module.student(markbookKey: 1_000_001, studentKey: 5016)?.givenName == "Aanya")

            let deleted = await run(["student", "delete", "1000001", "5006"])
            #expect(deleted.stdout == "Deleted student 5006: Fernando, Amelia (100301).\n")
            #expect(deleted.stderr == "Restore with: markbook student move 1000001 5006 --sid 100301 --class 3002\n")
            #expect(await run(["show", "1000001"]).stdout.contains("Fernando") == false)
            let unlisted = await run(["student", "move", "1000001", "5006", "--class", "3001"])
            #expect(unlisted.exitCode == 2)
            #expect(unlisted.stderr.contains("pass --sid"))
            let restored = await run(["student", "move", "1000001", "5006", "--sid", "100301", "--class", "3001"])
            #expect(restored.stdout == "Student 5006 (100301) is in 10MAT1-A [3001].\n")
            #expect(await run(["show", "1000001"]).stdout.contains("5006  Fernando, Amelia   100301  10MAT1-A  29.0"))

            let newClass = await run([
                "class", "create", "1000001", "--name", "10MAT1-C", "--teacher-given", "Ms Ada", "--teacher-family",
                "Okafor",
            ])
            #expect(newClass.stdout == "Created class 3005: 10MAT1-C.\n")
            let duplicate = await run(["class", "create", "1000001", "--name", "10mat1-c"])
            #expect(duplicate.exitCode == 9)
            #expect(
                duplicate.stderr.hasPrefix("error: Markbook answered createclass with \"ERROR:duplicate class name\".")
            )
            expectNoSecrets(duplicate, sessions: module.issuedSessionValues())
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("backup schedule, then url: pending today, the URL tomorrow (on the command's clock)")
    func backup() async throws {
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_718_333_912))
        try await withSandbox(clock: clock) { baseURL, _, run in
            let none = await run(["backup", "url"])
            #expect(none.stdout == "No backup is scheduled: run 'markbook backup schedule MATCHING'.\n")
            let short = await run(["backup", "schedule", "x"])
            #expect(short.exitCode == 64)
            let scheduled = await run(["backup", "schedule", "10MAT"])
            #expect(scheduled.stdout == "Scheduled a backup of the markbooks matching \"10MAT\".\n")
            #expect(scheduled.stderr == "It is built at about 1 AM: run 'markbook backup download' tomorrow.\n")
            let pending = await run(["--json", "backup", "url"])
            #expect(pending.stdout.contains("\"status\" : \"pending\""))
            clock.advance(by: .seconds(24 * 3600))
            let ready = await run(["backup", "url"])
            #expect(ready.stdout == "\(baseURL)/backups/markbook-backup-20240614T150000Z.zip\n")
            #expect(ready.stderr.contains("deleted about an hour"))
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("create --file: the payload file; a second time the server renames it")
    func createFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "markbook-\(UUID().uuidString).json")
        try Data(MarkbookSpecPayloads.createMarkbookPayload.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withSandbox { baseURL, module, _ in
            func run(_ arguments: [String]) async -> CommandResult {
                await markbook(["--base-url", baseURL] + arguments, variables: CLIAccount.variables)
            }
            let first = await run(["create", "--file", file.path])
            #expect(
                first.stdout == "Created markbook 1000004 \"12CHM Chemistry\": 2 classes, 4 students, shared with 1.\n"
            )
            let second = await run(["create", "--file", file.path])
            #expect(second.stdout.hasPrefix("Created markbook 1000005 \"12CHM Chemistry-1\""))
            #expect(second.stderr == "\"12CHM Chemistry\" was taken, so Markbook named it \"12CHM Chemistry-1\".\n")
            let json = await run(["--json", "create", "--file", file.path])
            #expect(json.stdout.contains("\"name\" : \"12CHM Chemistry-2\""))
            #expect(module.markbookNames().count == 6)
        }
        let missing = await markbook(["--sandbox", "create", "--file", "/nonexistent/payload.json"])
        #expect(missing.exitCode == 64)
        let notJSON = FileManager.default.temporaryDirectory.appending(path: "markbook-\(UUID().uuidString).json")
        try Data(#"{"markbookname": "X", "classlist": []}"#.utf8).write(to: notJSON)
        defer { try? FileManager.default.removeItem(at: notJSON) }
        let invalid = await markbook(["--sandbox", "create", "--file", notJSON.path])
        #expect(invalid.exitCode == 64)
        #expect(invalid.stderr.contains("markbookyear is missing"))
    }

    // MARK: Failures and exit codes

    @Test("An unknown markbook exits 2 with a hint naming commands")
    func notFound() async throws {
        let human = await markbook(["--sandbox", "show", "42"])
        #expect(human.exitCode == 2)
        #expect(
            human.stderr == """
                error: Markbook answered getmarkbook with "ERROR:invalid markbook".
                hint: See 'markbook list' for markbook keys and 'markbook show KEY' for student, task and class keys.

                """
        )
        let student = await markbook([
            "--sandbox", "result", "set", "1000001", "--student", "9", "--task", "4001", "--result", "1",
        ])
        #expect(student.exitCode == 2)
        let json = await markbook(["--sandbox", "--json", "show", "42"])
        #expect(
            try json.errorReport()
                == ErrorReport(
                    code: "not_found",
                    message: "Markbook answered getmarkbook with \"ERROR:invalid markbook\".",
                    hint:
                        "See 'markbook list' for markbook keys and 'markbook show KEY' for student, task and class keys.",
                    exitCode: 2
                )
        )
    }

    @Test("--sandbox takes any user and any API key of the real keys' 32 characters, and no other key")
    func sandboxKeyShape() async throws {
        let variables = ["MARKBOOK_USERNAME": "someone", "MARKBOOK_PASSWORD": "any-password"]
        let shaped = await markbook(
            ["--sandbox", "list"],
            variables: variables.merging(["MARKBOOK_API_KEY": String(repeating: "k", count: 32)]) { $1 }
        )
        #expect(shaped.exitCode == 0, "\(shaped.stderr)")
        let short = await markbook(
            ["--sandbox", "--json", "list"],
            variables: variables.merging(["MARKBOOK_API_KEY": "sixteen-chars-ok"]) { $1 }
        )
        #expect(short.exitCode == 3)
        #expect(try short.errorReport().message.contains("ERROR:invalid credentials"))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Credentials: none is exit 3 naming the variables; a wrong password is exit 3; neither is ever printed")
    func credentials() async throws {
        try await withSandbox { baseURL, module, _ in
            let none = await markbook(["--base-url", baseURL, "list"])
            #expect(none.exitCode == 3)
            #expect(none.stderr.contains("MARKBOOK_API_KEY"))
            var wrong = CLIAccount.variables
            wrong["MARKBOOK_PASSWORD"] = "nope-\(CLIAccount.password)"
            let refused = await markbook(["--json", "--base-url", baseURL, "list"], variables: wrong)
            #expect(refused.exitCode == 3)
            let report = try refused.errorReport()
            #expect(report.code == "auth_required")
            #expect(module.counters().failedLogins == 1)
            // Flags work too, and their values are scrubbed even from a parsing error.
            let flags = await markbook([
                "--base-url", baseURL, "--api-key", CLIAccount.apiKey, "--username", CLIAccount.username,
                "--password", CLIAccount.password, "list",
            ])
            #expect(flags.exitCode == 0)
            let typo = await markbook(["--api-key", CLIAccount.apiKey, "--password", CLIAccount.password, "lst"])
            #expect(typo.exitCode == 64)
        }
    }

    @Test("No base URL and no --sandbox exits 64; bad arguments exit 64")
    func usage() async {
        let none = await markbook(["list"], variables: CLIAccount.variables)
        #expect(none.exitCode == 64)
        #expect(none.stderr.contains("MARKBOOK_BASE_URL"))
        #expect(await markbook(["--sandbox", "show", "ten"]).exitCode == 64)
        #expect(await markbook(["--sandbox", "student", "create", "1", "--gender", "f"]).exitCode == 64)
    }

    @Test("A create whose answer is lost exits 8 and says how to check")
    func ambiguousCreate() async throws {
        let login = ScriptedTransport.Step.json([
            "status": "OKAY", "sessiontoken": "st-cli-0123456789", "sessionkey": 123_456_789,
            "schoolname": "School",
        ])
        let transport = ScriptedTransport([login, .connectionLost, .json(["status": "OKAY", "classkey": 1])])
        let result = await markbook(
            [
                "--base-url", "https://smpcsonline.com.au/markbook/api/v1.5", "class", "create", "1000001", "--name",
                "X",
            ],
            variables: CLIAccount.variables,
            sessions: ["st-cli-0123456789", "123456789"]
        ) {
            $0.transport = transport
            $0.clock = TestClock()
        }
        #expect(result.exitCode == 8)
        #expect(
            result.stderr.contains(
                "hint: It may or may not have been created: run 'markbook show 1000001' before trying again."
            )
        )
        #expect(transport.requests.count == 2, "sent once, never retried")
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("--verbose: one redacted line per attempt; no secret or session value anywhere")
    func verbose() async throws {
        try await withSandbox { baseURL, module, _ in
            let result = await markbook(
                ["--verbose", "--base-url", baseURL, "show", "1000001"],
                variables: CLIAccount.variables
            )
            #expect(result.exitCode == 0)
            #expect(result.stderr.contains("sessiontoken=[REDACTED]&sessionkey=[REDACTED]&apikey=[REDACTED] -> 200"))
            expectNoSecrets(result, sessions: module.issuedSessionValues())
        }
    }
}

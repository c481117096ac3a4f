import Foundation
import Testing

@testable import MarkbookSandbox

@Suite("The Markbook sandbox's seed, read into its school")
struct SandboxSeedTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Every field of the seed file lands in the school, results and levels joined by task and outcome")
    func seed() throws {
        let world = try SandboxWorld(seed: Data(MarkbookSpecPayloads.seed.utf8))
        #expect(world.schoolName == "Sandbox Secondary College")
        #expect(world.backup == nil && world.sessions.isEmpty)
        #expect(world.users.count == 4)
        #expect(
            world.users.first
                == SandboxWorld.User(
                    key: 2001,
                    name: "Ms Priya Natarajan",
                    loginID: "pnatarajan",
                    email: "p.natarajan@sandbox-college.example.edu.au"
                )
        )
        #expect(world.markbooks.map(\.key) == [1_000_001, 1_000_002, 1_000_003])
        #expect(world.markbooks.map(\.shareList) == [[2002], [], [2001, 2003]])

        let book = try #require(world.markbooks.first)
        #expect([book.name, book.year, book.course] == ["10MAT1 Mathematics", "2024", "Year 10 Mathematics"])
        #expect(book.ownerKey == 2001)
        #expect(
            book.classes.first
                == SandboxWorld.SchoolClass(
                    key: 3001,
                    name: "10MAT1-A",
                    teacherName1: "Ms Priya",
                    teacherName2: "Natarajan"
                )
        )
        #expect(book.tasks.count == 5)
        #expect(
            book.tasks.first == SandboxWorld.Task(key: 4001, name: "Algebra test", maximum: 50, decimalPlaces: 1)
        )
        #expect(book.students.count == 8)
        #expect(
            book.students.first
                == SandboxWorld.Student(
                    key: 5001,
                    sid: "100234",
                    familyName: "Adams",
                    givenName: "Olivia",
                    preferredName: "",
                    gender: "female",
                    classKey: 3001,
                    deleted: false
                )
        )
        #expect(book.outcomes.count == 4)
        #expect(
            book.outcomes.first
                == SandboxWorld.Outcome(
                    key: 6001,
                    code: "MA5-ALG-C-01",
                    name: "Algebraic techniques",
                    text: "Selects and applies algebraic techniques to operate with expressions",
                    taskKeys: [4001, 4004]
                )
        )
        #expect(book.results[5001] == [4001: "42.5", 4002: "17", 4003: "26", 4004: "81", 4005: "9.5"])
        #expect(book.levels[5001] == [6001: "4", 6002: "4", 6003: "3", 6004: "5"])
        #expect(book.results.values.map(\.count).reduce(0, +) == 37, "empty results are left out")
        #expect(book.levels.values.map(\.count).reduce(0, +) == 30, "empty levels are left out")
    }
}

@Suite("The Markbook sandbox's result texts")
struct SandboxResultTextTests {
    @Test(
        "A result is rounded half away from zero on its written digits, with every place written",
        arguments: [
            ("84.5", 0, "85"), ("1.005", 2, "1.01"), ("2.675", 2, "2.68"), ("-2.5", 0, "-3"), ("67.5", 2, "67.50"),
            ("0.0000005", 6, "0.000001"), ("12", 1, "12.0"), ("absent", 2, "absent"), ("-0.4", 0, "0"),
            ("-0.004", 2, "0.00"), ("+5", 1, "5.0"), (".5", 0, "1"), ("5.", 1, "5.0"), ("-.5", 0, "-1"),
            (" 7.25 ", 1, "7.3"),
        ]
    )
    func rounding(text: String, places: Int, rounded: String) {
        #expect(SandboxFormat.rounded(text, decimalPlaces: places) == rounded)
    }

    @Test("The raw result has six places, rounded the same way, so it never contradicts the rounded one")
    func raw() {
        #expect(SandboxFormat.raw("67.5") == "67.500000")
        #expect(SandboxFormat.raw("0.0000005") == "0.000001")
        #expect(SandboxFormat.raw("absent") == "absent")
    }
}

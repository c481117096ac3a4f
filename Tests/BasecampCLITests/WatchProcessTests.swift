import APISandbox
import BasecampSandbox
import CLISupport
import CLISupportTesting
import Foundation
import HTTPCore
import Testing

/// `--watch` as a real process against a sandbox the test owns: it prints what is there, then a
/// change another command makes, and stops cleanly on Ctrl-C.
@Suite("basecamp timeline --watch with the built executable")
struct WatchProcessTests {
    static let leto = String(BasecampSandboxSeed.letoLaptopProjectID)
    static let hardware = String(BasecampSandboxSeed.hardwareTodolistID)

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A new timeline item is printed as it comes; SIGINT ends the watch with exit 0")
    func timeline() async throws {
        try await withBasecampSandbox { sandbox, baseURL in
            let start = ContinuousClock.now
            let watch = try RunningExecutable(
                "basecamp",
                arguments: ["--verbose", "--format", "jsonl", "timeline", Self.leto, "--watch", "--interval", "1"],
                variables: credentials(baseURL)
            )
            let started = try await watch.waitFor("Ctrl-C to stop", in: watch.stderr)
            #expect(started.contains("Watching GetProjectTimeline for new items every 1 s; Ctrl-C to stop."))
            // Every poll after the first is conditional: the unchanged list is answered 304.
            let polled = try await watch.waitFor("timeline.json -> 304", in: watch.stderr)
            #expect(polled.contains("timeline.json -> 304"), "\(polled)")

            let created = await basecamp(
                ["todos", "create", "--todolist", Self.hardware, "--content", "Watched item"],
                variables: credentials(baseURL)
            )
            #expect(created.exitCode == 0, "\(created.stderr)")
            try await watch.waitFor("Watched item", in: watch.stdout)
            let elapsed = ContinuousClock.now - start
            let timeline = "/basecamp/\(BasecampSandboxModule.defaultAccountID)/projects/\(Self.leto)/timeline.json"
            let polls = sandbox.counters().requestsByPath[timeline] ?? 0

            #expect(try await watch.interrupt() == 0)
            let items = try watch.stdout.text.split(separator: "\n").map { try JSONValue(parsing: Data($0.utf8)) }
            #expect(items.count == 1)
            #expect(items.first?["title"] == "Watched item")
            #expect(items.first?["action"] == "created")
            // One poll a second at most (a 304 while nothing changed): far inside 50 requests per 10 s.
            #expect(polls >= 1)
            #expect(polls <= Int(elapsed.components.seconds) + 2, "\(polls) polls in \(elapsed)")
            #expect(!watch.stderr.text.contains("failed"), "\(watch.stderr.text)")
        }
    }
}

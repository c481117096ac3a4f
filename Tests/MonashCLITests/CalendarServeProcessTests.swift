import CLISupport
import CLISupportTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `monash calendar serve` as a calendar app meets it: the built executable on a free loopback
/// port, fetched, fetched again with the validators it gave, and stopped with a signal.
@Suite("The built monash executable: calendar serve")
struct CalendarServeProcessTests {
    /// A client with no cache of its own, so every answer is the server's.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        return URLSession(configuration: configuration)
    }()

    /// Starts `monash --sandbox calendar serve --port 0 …` and returns it with the feed URL it printed.
    static func start(_ arguments: [String] = []) async throws -> (RunningExecutable, URL) {
        let server = try RunningExecutable(
            "monash",
            arguments: ["--sandbox", "calendar", "serve", "--port", "0"] + arguments
        )
        let printed = try await server.waitFor("\n", in: server.stdout)
        let url = try #require(
            URL(string: printed.trimmingCharacters(in: .whitespacesAndNewlines)),
            "\(server.stderr.text)"
        )
        return (server, url)
    }

    static func get(
        _ url: URL,
        method: String = "GET",
        headers: [String: String] = [:]
    ) async throws -> (status: Int, headers: [String: String], body: String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    @Test("A calendar app's GET, then conditional GETs answered 304; SIGINT stops it with exit 0")
    func conditionalGet() async throws {
        let (server, url) = try await Self.start()
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:"))
        #expect(url.path == "/calendar.ics")

        let first = try await Self.get(url)
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "text/calendar; charset=utf-8")
        #expect(first.body.hasPrefix("BEGIN:VCALENDAR\r\n") && first.body.hasSuffix("END:VCALENDAR\r\n"))
        #expect(first.body.contains("\r\nREFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n"))
        #expect(first.body.contains("\r\nSUMMARY:FIT1031 Lecture 01\r\n"))
        let etag = try #require(first.headers["etag"])
        let lastModified = try #require(first.headers["last-modified"])
        #expect(first.headers["cache-control"] == "no-cache")

        let byTag = try await Self.get(url, headers: ["If-None-Match": etag])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        #expect(byTag.headers["etag"] == etag)
        let byDate = try await Self.get(url, headers: ["If-Modified-Since": lastModified])
        #expect(byDate.status == 304)
        #expect(byDate.headers["last-modified"] == lastModified)
        let stale = try await Self.get(url, headers: ["If-None-Match": "\"stale\""])
        #expect(stale.status == 200)
        #expect(stale.body == first.body, "the same calendar, byte for byte, between changes")

        let head = try await Self.get(url, method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == String(first.body.utf8.count))
        let post = try await Self.get(url, method: "POST")
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD")
        let other = try await Self.get(url.deletingLastPathComponent().appending(path: "other.ics"))
        #expect(other.status == 404)

        let status = try await server.interrupt()
        #expect(status == 0, "\(server.stderr.text)")
        let log = server.stderr.text
        #expect(log.contains("Subscribe with webcal://127.0.0.1:"))
        #expect(log.contains("Serving week "))
        #expect(log.contains("GET /calendar.ics 304 Not Modified"))
        #expect(log.hasSuffix("Stopped.\n"))
        #expect(server.stdout.text == url.absoluteString + "\n", "stdout holds only the URL")
    }

    @Test("/ redirects to the feed; --json prints the URLs as JSON; SIGTERM stops it with exit 0")
    func rootAndTerminate() async throws {
        let server = try RunningExecutable(
            "monash",
            arguments: ["--sandbox", "--json", "calendar", "serve", "--port", "0", "--refresh", "1h", "--utc"]
        )
        let printed = try await server.waitFor("}\n", in: server.stdout)
        struct Output: Decodable {
            var url: String
            var webcalURL: String
            var refreshSeconds: Int
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(printed.utf8))
        #expect(output.refreshSeconds == 3600)
        #expect(output.webcalURL == "webcal" + output.url.dropFirst(4))
        let feed = try #require(URL(string: output.url))
        let root = try #require(URL(string: "/", relativeTo: feed)?.absoluteURL)
        let redirected = try await Self.get(root)
        #expect(redirected.status == 200, "URLSession follows the redirect to the feed")
        #expect(redirected.body.contains("\r\nX-PUBLISHED-TTL:PT1H\r\n"))
        #expect(!redirected.body.contains("BEGIN:VTIMEZONE"), "--utc")
        let probed = try await Self.get(root, method: "HEAD")
        #expect(probed.status == 200 && probed.body.isEmpty, "HEAD / redirects as GET does")
        #expect(try await server.terminate() == 0, "\(server.stderr.text)")
    }

    @Test("A port in use is one sentence and exit 1; a bad --port or --refresh is exit 64")
    func portInUse() async throws {
        let (server, url) = try await Self.start()
        let port = try #require(url.port)
        let second = try await BuiltExecutable.run(
            "monash",
            arguments: ["--sandbox", "calendar", "serve", "--port", String(port)]
        )
        #expect(second.exitCode == 1)
        #expect(second.stdout.isEmpty)
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.first == "error: Port \(port) on 127.0.0.1 is already in use.", "\(second.stderr)")
        #expect(lines.count <= 2)
        #expect(try await server.interrupt() == 0)

        for arguments in [["--port", "70000"], ["--refresh", "10s"], ["--refresh", "soon"], ["--refresh", "2d"]] {
            let result = try await BuiltExecutable.run(
                "monash",
                arguments: ["--sandbox", "calendar", "serve"] + arguments
            )
            #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
        }
    }

    @Test("--host beyond loopback warns that anyone who can reach the port can read the timetable")
    func everyNetwork() async throws {
        let (server, _) = try await Self.start(["--host", "0.0.0.0"])
        let log = try await server.waitFor("Subscribe with", in: server.stderr)
        #expect(log.contains("Warning: listening on 0.0.0.0, not only this computer"))
        #expect(log.contains("this computer's network address in place of 0.0.0.0"))
        #expect(try await server.interrupt() == 0)

        let (local, _) = try await Self.start()
        #expect(!(try await local.waitFor("Subscribe with", in: local.stderr)).contains("Warning"))
        #expect(try await local.interrupt() == 0)
    }
}

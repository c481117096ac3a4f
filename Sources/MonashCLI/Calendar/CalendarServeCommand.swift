import ArgumentParser
import CLISupport
import Foundation
import HTTPCore
import MonashSchedule

/// `monash calendar serve`: the timetable as a calendar feed on this computer, for calendar apps
/// to subscribe to.
struct CalendarServeCommand: MonashSubcommand {
    /// Ctrl-C stops the server gracefully, letting the feed requests in flight finish.
    var handlesTerminationSignals: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the timetable as a calendar feed that calendar apps subscribe to.",
        discussion: """
            Serves the week as text/calendar at http://127.0.0.1:PORT/calendar.ics and prints that URL on stdout (--port 0 picks a free port). Subscribe to it in a calendar app (Apple Calendar: File > New Calendar Subscription; Thunderbird: New Calendar > On the Network), and the app keeps it current: the feed has an ETag and Last-Modified and answers 304 Not Modified while nothing changed.

            The API is asked again only when an app fetches the feed and the last check is older than --refresh (default 15m), so it costs at most one request per interval, none while nobody is subscribed. The feed's ETag changes only when a class does, never for car-park or bus figures. If the API fails, the last calendar is still served and the failure is logged on stderr; if it takes over 5 seconds, the last calendar is served while the fetch goes on.

            It listens on 127.0.0.1, this computer only. A phone can subscribe only if it can reach the server: --host 0.0.0.0 listens on every network this computer is on, without a password or TLS, so anyone on those networks can read the timetable.

            It runs until Ctrl-C or SIGTERM and then exits 0; a port in use is exit 1.

            Examples:
              monash --sandbox calendar serve
              monash --base-url https://schedule.example.edu calendar serve --port 8025 --refresh 30m
            """
    )

    /// The path the calendar is served at.
    static let feedPath = "/calendar.ics"
    /// The port when none is given: RFC 5545's number, easy to remember and above 1023.
    static let defaultPort = 5545

    @ParentCommand var monash: Monash

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port: Int = CalendarServeCommand.defaultPort

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0: every network, see above).", valueName: "host"))
    var host: String = "127.0.0.1"

    @Option(help: ArgumentHelp("How often the API may be asked again: 90s, 15m, 2h.", valueName: "interval"))
    var refresh = RefreshArgument(duration: .seconds(900))

    @Flag(help: "Write times in UTC instead of the campus zone.")
    var utc = false

    /// Whether only this computer can connect.
    private var isLoopback: Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) || host.hasPrefix("127.")
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (RefreshArgument.minimum...RefreshArgument.maximum).contains(refresh.duration) else {
            throw ValidationError("--refresh must be between 1m and 24h.")
        }
    }

    private struct Output: Encodable {
        var url: String
        var webcalURL: String
        var week: Int
        var classes: Int
        var refreshSeconds: Int64
    }

    func run(in context: CommandContext) async throws {
        if monash.timeZone != nil {
            throw ValidationError(
                "calendar serve writes times in the campus zone (or UTC with --utc), which calendar apps show in theirs; --time-zone cannot be used with it."
            )
        }
        let options = ICalendarOptions(
            times: utc ? .utc : .zoned,
            refreshInterval: refresh.duration,
            timeZoneName: context.zone(nil).name
        )
        let log = FeedLog(context: context)
        let feed = CalendarFeed(
            interval: refresh.duration,
            options: options,
            clock: context.environment.clock,
            report: { log.report($0) },
            fetch: { try await context.timetable() }
        )
        // The first check fails the command (exit code of the API's error) rather than serving nothing.
        let first = try await feed.revision()
        let router = CalendarFeedRouter(feed: feed, path: Self.feedPath, clock: context.environment.clock, log: log)
        let refresh = refresh
        try await LocalHTTPServer(host: host, port: port).run(router.build()) { base in
            let url = base.absoluteString + Self.feedPath
            let webcal = "webcal" + url.dropFirst("http".count)
            let output = Output(
                url: url,
                webcalURL: webcal,
                week: first.week,
                classes: first.classes,
                refreshSeconds: refresh.duration.components.seconds
            )
            try context.printRecord(output) { context.print(url) }
            context.note("Serving \(FeedLog.summary(first)).")
            if !isLoopback {
                context.note(
                    "Warning: listening on \(host), not only this computer: anyone who can reach port "
                        + "\(base.port ?? port) here can read the timetable (no password, no TLS)."
                        + (["0.0.0.0", "::"].contains(host)
                            ? " Other devices use this computer's network address in place of \(host)." : "")
                )
            }
            context.note("Subscribe with \(webcal) (Ctrl-C to stop); the API is asked at most every \(refresh.text).")
        }
        await feed.stop()
        context.note("Stopped.")
    }
}

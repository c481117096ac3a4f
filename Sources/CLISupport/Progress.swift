import Foundation
import HTTPCore

/// One line of progress on stderr, redrawn in place, for commands that fetch many pages.
///
/// Drawn only when stderr is a terminal and `--verbose` is off, so pipes, logs and tests never
/// see carriage returns; a disabled reporter ignores every call. The context clears the line
/// before anything else it prints, on stdout or stderr (often the same terminal), and when the
/// command ends.
public final class ProgressReporter: Sendable {
    private let sink: any OutputSink
    /// Whether updates are drawn.
    public let isEnabled: Bool
    private let drawn = Locked(false)

    /// Creates a reporter writing to `sink` when `enabled`.
    public init(sink: any OutputSink, enabled: Bool) {
        self.sink = sink
        self.isEnabled = enabled
    }

    /// Replaces the progress line with `text`.
    public func update(_ text: String) {
        guard isEnabled else { return }
        drawn.withLock { $0 = true }
        sink.write("\r\u{1B}[2K" + TerminalControls.shown(text))
    }

    /// Erases the progress line, if one is drawn.
    public func clear() {
        let wasDrawn = drawn.withLock { drawn -> Bool in
            let was = drawn
            drawn = false
            return was
        }
        guard isEnabled, wasDrawn else { return }
        sink.write("\r\u{1B}[2K")
    }
}

/// Hooks that turn HTTPCore's page events into a progress line: "Fetching ListTodos: page 3,
/// 150 of 420 items…". Installed by ``CommandContext/connection()`` when progress is enabled.
public struct ProgressHooks: Hooks {
    private struct Walk: Sendable {
        var items = 0
    }

    private let reporter: ProgressReporter
    private let walks = Locked<[String: Walk]>([:])

    /// Creates hooks drawing on `reporter`.
    public init(reporter: ProgressReporter) {
        self.reporter = reporter
    }

    /// Counts the page and redraws the line.
    public func page(_ event: PageEvent) {
        let name = event.operation.name.isEmpty ? "pages" : event.operation.name
        let walk = walks.withLock { walks -> Walk in
            var walk = event.index == 0 ? Walk() : walks[name, default: Walk()]
            walk.items += event.itemCount
            walks[name] = walk
            return walk
        }
        let total = event.totalCount.map { " of \($0)" } ?? ""
        let page = Self.pageNumber(in: event.url) ?? event.index + 1
        reporter.update("Fetching \(name): page \(page), \(walk.items)\(total) items…")
        if !event.hasNext { reporter.clear() }
    }

    /// The page the URL asks for with a `page` query item, as Link-paginated APIs number them;
    /// a walk that starts at `--page 3` is on page 3, not on its first.
    static func pageNumber(in url: String) -> Int? {
        URLComponents(string: url)?.queryItems?.last { $0.name == "page" }?.value.flatMap(Int.init)
    }
}

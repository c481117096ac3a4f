import Foundation

/// A page being fetched, as the walk holds it.
struct InFlightPage<Item: Sendable>: Sendable {
    let task: Task<Page<Item>, any Error>
    let handoff: PageHandoff<Item>
}

/// Where a page's `next` link leads, as its fetch found it in the response head.
enum NextLink: Sendable {
    /// The link passed ``LinkGuard/admit(_:after:)``.
    case admitted(URL)
    /// The guard refused the link; the walk ends with this error after the page.
    case refused(APIError)
    /// The page has no next link.
    case end
}

/// Passes the next page's request from one page's fetch to the walk.
///
/// A fetch reads its page's next link from the response head, before decoding the body. If the
/// walk is already waiting for the page, the next page's request goes out right then, so the
/// decode overlaps the next round trip; if the consumer is still busy with the page before,
/// the link waits here until the walk asks for this page. Either way no more than one page is
/// fetched beyond the one the consumer holds or waits for.
final class PageHandoff<Item: Sendable>: Sendable {
    private struct State: Sendable {
        var walkWaiting = false
        var closed = false
        var link: NextLink?
        var next: InFlightPage<Item>?
    }

    private let state = Locked(State())
    private let start: @Sendable (URL) -> InFlightPage<Item>

    /// A handoff that starts the next page's fetch with `start`.
    init(start: @escaping @Sendable (URL) -> InFlightPage<Item>) {
        self.start = start
    }

    /// The fetch read and checked its page's next link.
    func linkRead(_ link: NextLink) {
        state.withLock { state in
            state.link = link
            startIfReady(&state)
        }
    }

    /// The walk now waits for this page.
    func walkArrived() {
        state.withLock { state in
            state.walkWaiting = true
            startIfReady(&state)
        }
    }

    /// What a fetch left for the walk when the walk took its page.
    struct Outcome: Sendable {
        /// The checked next link, if the fetch read it.
        var link: NextLink?
        /// The next page's fetch, if it already started.
        var next: InFlightPage<Item>?
    }

    /// Ends the handoff (the walk took the page or gave up on it) and returns what the fetch
    /// left for the walk.
    func close() -> Outcome {
        state.withLock { state in
            state.closed = true
            return Outcome(link: state.link, next: state.next)
        }
    }

    private func startIfReady(_ state: inout State) {
        guard state.walkWaiting, !state.closed, state.next == nil, case .admitted(let url)? = state.link else { return }
        state.next = start(url)
    }
}

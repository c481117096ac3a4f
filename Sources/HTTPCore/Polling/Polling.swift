import Foundation

extension Client {
    /// Fetches `endpoint` every `interval` and yields its value when it changes: the first value
    /// at once, then only values different from the last one yielded.
    ///
    /// ```swift
    /// for try await status in client.poll(Endpoint<BuildStatus>(.get, "builds/42"), every: .seconds(5)) {
    ///     print("now", status.state)
    /// }
    /// ```
    ///
    /// Polls are conditional requests: through the client's ``ResponseCache`` when it has one,
    /// otherwise through a small private cache, so an unchanged resource costs a
    /// `304 Not Modified` rather than its body (when the server sends `ETag` or
    /// `Last-Modified`). Each poll is a full call (retry, auth, hooks).
    ///
    /// A failed poll waits the longer of `interval` and the backoff of
    /// ``PollOptions/backoff`` (default: the operation's or the client's retry policy), and at
    /// least the failure's `Retry-After` (up to an hour), and polls again; set
    /// ``PollOptions/throwsErrors`` to end the sequence with the error instead, or iterate
    /// ``Polling/results`` to see every failure. A `usage` error (the endpoint cannot
    /// be sent at all) always ends the sequence. Cancelling the task ends it quietly. Waiting
    /// uses the client's ``TimeSource``, so tests run on a test clock.
    public func poll<Value: Sendable & Equatable>(
        _ endpoint: Endpoint<Value>,
        every interval: Duration,
        options: PollOptions = PollOptions()
    ) -> Polling<Value> {
        let pollingClient: Result<Client, APIError>
        if configuration.cache != nil {
            pollingClient = .success(self)
        } else {
            // The same configuration and transport, plus a private cache for this endpoint's
            // validators and last body, so an unchanged poll is a 304.
            var configuration = configuration
            configuration.cache = ResponseCache(
                maxEntries: 8,
                maxBytes: max(configuration.maxResponseBodySize, 0) + 1024 * 1024
            )
            do {
                pollingClient = .success(try Client(configuration: configuration, transport: transport))
            } catch let error as APIError {
                pollingClient = .failure(error)
            } catch {
                pollingClient = .failure(
                    .usage(APIError.Details(message: "\(error)", cause: SendableDescription(error)))
                )
            }
        }
        return Polling(
            client: pollingClient,
            endpoint: endpoint,
            interval: interval,
            backoff: options.backoff ?? endpoint.operation.retry ?? configuration.retry,
            options: options
        )
    }
}

/// Choices for ``Client/poll(_:every:options:)``.
public struct PollOptions: Sendable {
    /// Whether a failed poll ends the value sequence by throwing (true), or is skipped and
    /// polled again after a backoff (false, the default).
    public var throwsErrors: Bool
    /// The backoff after consecutive failed polls; `nil` uses the endpoint's retry policy, else
    /// the client's. The wait is never shorter than the polling interval.
    public var backoff: RetryPolicy?

    /// Creates options.
    public init(throwsErrors: Bool = false, backoff: RetryPolicy? = nil) {
        self.throwsErrors = throwsErrors
        self.backoff = backoff
    }
}

/// The values of a polled endpoint: the first, then each change. Created by
/// ``Client/poll(_:every:options:)``; each iteration polls independently.
public struct Polling<Value: Sendable & Equatable>: AsyncSequence, Sendable {
    /// Each new value.
    public typealias Element = Value

    let client: Result<Client, APIError>
    let endpoint: Endpoint<Value>
    let interval: Duration
    let backoff: RetryPolicy
    let options: PollOptions

    /// The same polling, yielding each new value as `.success` and every failed poll as
    /// `.failure`, and never throwing: for showing errors while polling goes on.
    public var results: Results { Results(poller: poller) }

    /// Starts polling.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(poller: poller, throwsErrors: options.throwsErrors)
    }

    private var poller: Poller<Value> {
        Poller(client: client, endpoint: endpoint, interval: interval, backoff: backoff)
    }

    /// Iterates new values.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var poller: Poller<Value>
        let throwsErrors: Bool
        private var finished = false

        init(poller: Poller<Value>, throwsErrors: Bool) {
            self.poller = poller
            self.throwsErrors = throwsErrors
        }

        /// The next changed value; `nil` once the task is cancelled.
        ///
        /// - Throws: ``APIError`` when a poll fails and ``PollOptions/throwsErrors`` is set, or
        ///   for a `usage` error.
        public mutating func next() async throws -> Value? {
            guard !finished else { return nil }
            while let result = await poller.next() {
                switch result {
                case .success(let value):
                    return value
                case .failure(let error):
                    if throwsErrors || error.code == .usage {
                        finished = true
                        throw error
                    }
                }
            }
            finished = true
            return nil
        }
    }

    /// New values and failed polls as results.
    public struct Results: AsyncSequence, Sendable {
        /// A new value or a failed poll.
        public typealias Element = Result<Value, APIError>

        let poller: Poller<Value>

        /// Starts polling.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(poller: poller)
        }

        /// Iterates results.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var poller: Poller<Value>

            /// The next new value or failure; `nil` once the task is cancelled.
            public mutating func next() async -> Result<Value, APIError>? {
                await poller.next()
            }
        }
    }
}

/// The polling loop shared by both views: wait, fetch, compare.
struct Poller<Value: Sendable & Equatable>: Sendable {
    let client: Result<Client, APIError>
    let endpoint: Endpoint<Value>
    let interval: Duration
    let backoff: RetryPolicy
    private var last: Value?
    private var polled = false
    private var failures = 0
    /// The last failure's `Retry-After`: the server asked for at least that long.
    private var retryAfter: Duration?

    init(client: Result<Client, APIError>, endpoint: Endpoint<Value>, interval: Duration, backoff: RetryPolicy) {
        self.client = client
        self.endpoint = endpoint
        self.interval = interval
        self.backoff = backoff
    }

    /// Polls until the value changes or a poll fails; `nil` when the task is cancelled.
    mutating func next() async -> Result<Value, APIError>? {
        let client: Client
        switch self.client {
        case .success(let made): client = made
        case .failure(let error):
            guard !polled else { return nil }
            polled = true
            return .failure(error)
        }
        while true {
            if polled {
                var wait = failures > 0 ? max(interval, backoff.delay(forRetry: failures)) : interval
                // A server's slip or a saturated header must not stop polling for years.
                if let retryAfter { wait = max(wait, min(retryAfter, RateLimitStage.longestPause)) }
                do {
                    try await client.configuration.timeSource.sleep(for: wait)
                } catch {
                    return nil
                }
            }
            polled = true
            guard !Task.isCancelled else { return nil }
            do {
                let value = try await client.send(endpoint)
                failures = 0
                retryAfter = nil
                if value != last {
                    last = value
                    return .success(value)
                }
            } catch let error as APIError {
                failures += 1
                retryAfter = error.details.retryAfter
                return .failure(error)
            } catch {
                // Client calls throw APIError or, when the task is cancelled, CancellationError.
                if error is CancellationError || Task.isCancelled { return nil }
                failures += 1
                return .failure(.network(APIError.Details(message: "\(error)", cause: SendableDescription(error))))
            }
        }
    }
}

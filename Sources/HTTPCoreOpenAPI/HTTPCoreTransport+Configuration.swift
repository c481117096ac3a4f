public import HTTPCore

extension HTTPCoreTransport {
    /// How a generated client's operations map onto HTTPCore calls.
    public struct Configuration: Sendable {
        /// The service name every operation reports in hooks and metrics (HTTPCore's
        /// ``HTTPCore/OperationMetadata/service``).
        public var service: String
        /// Operation ids whose requests may (`true`) or may not (`false`) be repeated, overriding
        /// the HTTP method's meaning (GET, HEAD, PUT, DELETE and OPTIONS are safe to repeat). An API
        /// that writes with GET, or a POST the server deduplicates, says so here.
        public var idempotency: [String: Bool]
        /// Retry policies for single operations, by operation id, replacing the client's.
        public var retryPolicies: [String: RetryPolicy]
        /// Whether an answer that is neither 2xx nor `304 Not Modified` throws the structured
        /// ``HTTPCore/APIError`` (with its exit code) instead of reaching the generated client as
        /// an `undocumented` or documented error output. Off by default, as the generator expects.
        public var mapsErrorStatuses: Bool
        /// The largest request body sent from memory; a larger one, or one of unknown length, is
        /// spooled to a private temporary file and streamed from it. A body that can be read only
        /// once is not retried either way (a `401` the auth strategy fixes is still replayed once,
        /// from the copy already read, as the server did not act on it).
        public var maxBufferedRequestBodySize: Int
        /// Operation ids whose successful response bodies go to a private temporary file as they
        /// arrive (and resume there after a retry) instead of into memory, for large downloads;
        /// the body the generated client reads streams from that file, which is gone once read.
        /// Such answers are not kept by the ETag cache.
        public var streamedResponses: Set<String>

        /// Creates a configuration; the defaults decide idempotency by method, use the client's
        /// retry policy, and return error statuses to the generated client.
        public init(
            service: String = "",
            idempotency: [String: Bool] = [:],
            retryPolicies: [String: RetryPolicy] = [:],
            mapsErrorStatuses: Bool = false,
            maxBufferedRequestBodySize: Int = 1024 * 1024,
            streamedResponses: Set<String> = []
        ) {
            self.service = service
            self.idempotency = idempotency
            self.retryPolicies = retryPolicies
            self.mapsErrorStatuses = mapsErrorStatuses
            self.maxBufferedRequestBodySize = maxBufferedRequestBodySize
            self.streamedResponses = streamedResponses
        }
    }
}

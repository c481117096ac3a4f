import Foundation

/// Where ``RefreshingTokenAuth`` keeps credentials between launches.
///
/// Loading never fails: a missing, unreadable or corrupt store means "no credentials", and the
/// user signs in again. Saving may throw; the strategy then keeps the credentials in memory and
/// reports ``AuthEvent/Kind/storeFailed``.
public protocol CredentialStore: Sendable {
    /// The stored credentials, or `nil` when there are none or they cannot be read.
    func load() async -> TokenCredentials?
    /// Replaces the stored credentials.
    func save(_ credentials: TokenCredentials) async throws
    /// Forgets the stored credentials.
    func remove() async throws

    /// Runs `body` while no one else sharing these stored credentials refreshes them.
    ///
    /// ``RefreshingTokenAuth`` refreshes inside it: it loads the store again, uses what it finds
    /// when someone else has renewed the credentials meanwhile, and otherwise refreshes and
    /// saves before the lock is released. The default runs `body` at once, which is enough for
    /// a store used by one strategy in one process (``RefreshingTokenAuth`` already refreshes
    /// once for all its own requests); ``FileCredentialStore`` holds a file lock, so processes
    /// sharing the file take turns.
    ///
    /// - Throws: What `body` throws, or the store's own error when the lock cannot be had.
    func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result
}

extension CredentialStore {
    /// Runs `body` at once: this store has no one to coordinate with.
    public func withRefreshLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try await body()
    }
}

/// Credentials kept in memory only: for tests and for apps that persist elsewhere.
public actor InMemoryCredentialStore: CredentialStore {
    private var credentials: TokenCredentials?

    /// Creates a store holding `credentials`.
    public init(_ credentials: TokenCredentials? = nil) {
        self.credentials = credentials
    }

    /// The credentials held.
    public func load() -> TokenCredentials? { credentials }

    /// Replaces the credentials held.
    public func save(_ credentials: TokenCredentials) { self.credentials = credentials }

    /// Forgets the credentials.
    public func remove() { credentials = nil }
}

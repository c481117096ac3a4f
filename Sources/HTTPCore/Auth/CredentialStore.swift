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

    /// Forgets the stored credentials only if they still hold the same tokens as `credentials`
    /// (compare-and-delete).
    ///
    /// ``RefreshingTokenAuth`` calls it when the server refuses a refresh token: what it refused
    /// is gone, but a worker holding a stale copy must not erase a sign-in someone else has
    /// renewed or replaced meanwhile. The default loads, compares the tokens and calls
    /// ``remove()``; it is exact while no one else writes between the two, which holds inside
    /// ``withRefreshLock(_:)`` for stores whose other writers take that lock too (as
    /// ``FileCredentialStore``'s refreshes do). A store shared by many writers should make it
    /// one atomic step, as `PostgresCredentialStore` (HTTPCorePostgres) does.
    ///
    /// - Returns: Whether the credentials were removed (`false` when something else is stored,
    ///   or nothing).
    /// - Throws: The store's error when the stored credentials cannot be removed.
    @discardableResult
    func remove(ifStillMatching credentials: TokenCredentials) async throws -> Bool

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
    /// Loads, compares the tokens with `credentials`, and calls ``remove()`` when they match.
    @discardableResult
    public func remove(ifStillMatching credentials: TokenCredentials) async throws -> Bool {
        guard let stored = await load(), stored.hasSameTokens(as: credentials) else { return false }
        try await remove()
        return true
    }

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

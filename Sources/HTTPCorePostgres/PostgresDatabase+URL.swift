import Foundation
import HTTPCore
public import Logging
public import PostgresNIO

extension PostgresDatabase {
    /// A database at a connection string:
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE`.
    ///
    /// `postgresql://` works too; the user name and password may be percent-encoded; the port
    /// defaults to 5432 and the database to the user's name. `sslmode` is `disable`, `prefer`
    /// (the default: TLS when the server offers it) or `require` (also `verify-ca` and
    /// `verify-full`); whenever TLS is used the server's certificate is verified against the
    /// system's trust roots.
    ///
    /// - Parameters:
    ///   - url: The connection string.
    ///   - maximumConnections: The most connections this process opens (4 by default: a worker
    ///     needs one for a refresh lock and one for the rest). Size the server's
    ///     `max_connections` for every worker's pool together.
    ///   - connectTimeout: How long an operation waits for a connection (10 s).
    ///   - schema: The schema for the tables.
    ///   - logger: Receives postgres-nio's background messages; none by default.
    /// - Throws: ``APIError/usage(_:)`` naming what is wrong with the string (never quoting
    ///   it, since it may hold the password).
    public convenience init(
        url: String,
        maximumConnections: Int = 4,
        connectTimeout: Duration = .seconds(10),
        schema: String = "httpcore",
        logger: Logger = Logger(label: "HTTPCorePostgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        let server = try ConnectionString(url)
        var configuration = server.poolConfiguration
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.connectTimeout = connectTimeout
        // The probe starts a second into the wait (when the wait is longer), and ends by its end.
        let probeWait = max(connectTimeout - PostgresDatabase.probeDelay, .milliseconds(100))
        let (seconds, attoseconds) = min(probeWait, .seconds(3600)).components
        let probeTimeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        // Made when needed: a TLS context reads the system's trust roots.
        let probe: @Sendable () -> PostgresConnection.Configuration? = {
            var probe = server.connectionConfiguration
            probe?.options.connectTimeout = probeTimeout
            return probe
        }
        try self.init(configuration: configuration, probe: probe, schema: schema, logger: logger)
    }

    /// The postgres-nio configuration a connection string describes.
    ///
    /// - Throws: ``APIError/usage(_:)`` naming what is wrong, never quoting the string.
    public static func configuration(url: String) throws -> PostgresClient.Configuration {
        try ConnectionString(url).poolConfiguration
    }
}

/// The parts of a `postgres://` connection string, for a pool and for a single connection.
private struct ConnectionString {
    enum Security { case disable, prefer, require }

    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?
    var security: Security

    init(_ url: String) throws {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme)
        else {
            throw Self.invalidURL("It is not a postgres:// URL.")
        }
        guard let host = components.host, !host.isEmpty else { throw Self.invalidURL("It names no host.") }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw Self.invalidURL("It names no user.")
        }
        let password = components.percentEncodedPassword?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        switch mode {
        case "disable": security = .disable
        case "allow", "prefer": security = .prefer
        case "require", "verify-ca", "verify-full": security = .require
        default: throw Self.invalidURL("Its sslmode must be disable, prefer or require.")
        }
        // Brackets belong to the URL, not to the address of an IPv6 host.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        self.user = user
        self.password = password
        self.database = database
    }

    var poolConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch security {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(.makeClientConfiguration())
        case .require: tls = .require(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database,
            tls: tls
        )
    }

    /// `nil` when no TLS context can be made here (the pool then reports the failure itself).
    var connectionConfiguration: PostgresConnection.Configuration? {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch security {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            return nil
        }
        return PostgresConnection.Configuration(
            host: host,
            port: port,
            username: user,
            password: password,
            database: database,
            tls: tls
        )
    }

    private static func invalidURL(_ reason: String) -> APIError {
        APIError.usage(
            "The PostgreSQL connection string is not usable: \(reason)",
            hint: "Write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode special characters)."
        )
    }
}

import Foundation
public import HTTPTypes

/// A fixed bearer token: `Authorization: Bearer <token>` on every request.
///
/// A 401 is delivered as `auth_required`; nothing is retried, since the token cannot change.
public struct BearerTokenAuth: AuthStrategy {
    private let token: String

    /// `Authorization` is always secret; nothing else is added.
    public var redactor: Redactor { Redactor() }

    /// Creates the strategy.
    public init(token: String) {
        self.token = token
    }

    /// Sets the `Authorization` header.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var authorized = AuthorizedRequest(request: request, body: body)
        authorized.request.headerFields[.authorization] = "Bearer \(token)"
        return authorized
    }
}

/// An async source of the current bearer token, for apps that manage their own tokens (an
/// OAuth library, a keychain, a platform account).
public protocol TokenProvider: Sendable {
    /// The token to send now. Called before every attempt, so keep it fast (cache inside).
    ///
    /// - Throws: An ``APIError`` (typically `auth_required`) when there is no token; other
    ///   errors are reported as `auth_required` too.
    func currentToken() async throws -> String
}

/// A bearer token from a ``TokenProvider``, asked before every attempt.
///
/// On a 401 the provider is asked again; if it now returns a different token (it refreshed
/// meanwhile) the request is replayed once with it, otherwise the 401 is delivered.
public struct TokenProviderAuth: AuthStrategy {
    private let provider: any TokenProvider

    /// `Authorization` is always secret; nothing else is added.
    public var redactor: Redactor { Redactor() }

    /// Creates the strategy.
    public init(_ provider: any TokenProvider) {
        self.provider = provider
    }

    /// Sets `Authorization: Bearer` with the provider's current token.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var authorized = AuthorizedRequest(request: request, body: body)
        authorized.request.headerFields[.authorization] = "Bearer \(try await token())"
        return authorized
    }

    /// Replays when the provider has a different token than the one rejected.
    public func recover(
        from response: TransportResponse,
        authorized: AuthorizedRequest,
        context: AuthContext
    ) async throws -> AuthRecovery {
        let current = "Bearer \(try await token())"
        return authorized.request.headerFields[.authorization] == current ? .deliver : .replay
    }

    private func token() async throws -> String {
        do {
            return try await provider.currentToken()
        } catch let error as APIError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            // The provider's own error may describe the token store; keep only its type.
            throw APIError.authRequired(
                APIError.Details(
                    message: "The token provider could not supply a token (\(type(of: error))).",
                    hint: "Sign in again."
                )
            )
        }
    }
}

/// HTTP Basic authentication: `Authorization: Basic base64(username:password)`.
public struct BasicAuth: AuthStrategy {
    private let header: String

    /// `Authorization` is always secret; nothing else is added.
    public var redactor: Redactor { Redactor() }

    /// Creates the strategy; the header is encoded once, here.
    public init(username: String, password: String) {
        header = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    /// Sets the `Authorization` header.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var authorized = AuthorizedRequest(request: request, body: body)
        authorized.request.headerFields[.authorization] = header
        return authorized
    }
}

/// A fixed API key in a header (`X-API-Key: …`) or a query parameter (`?api_key=…`).
///
/// The name is registered as secret, so the key is redacted wherever the client shows a
/// header or URL.
public struct APIKeyAuth: AuthStrategy {
    private let name: String
    private let value: String
    private let placement: CredentialPlacement

    /// The key's header or query name, as secret.
    public let redactor: Redactor

    /// Creates the strategy.
    ///
    /// - Parameters:
    ///   - name: The header or query parameter name.
    ///   - value: The key.
    ///   - placement: ``CredentialPlacement/header`` (the default), ``CredentialPlacement/query``,
    ///     or ``CredentialPlacement/formOrQuery``.
    public init(name: String, value: String, placement: CredentialPlacement = .header) {
        self.name = name
        self.value = value
        self.placement = placement
        var redactor = Redactor()
        if placement == .header, let field = HTTPField.Name(name) {
            redactor.addSecretHeader(field)
        } else {
            redactor.addSecretQueryParameter(name)
        }
        self.redactor = redactor
    }

    /// Adds the key.
    ///
    /// - Throws: ``APIError/usage(_:)`` when the name is not a valid header name.
    public func authorize(_ request: HTTPRequest, body: Data?, context: AuthContext) async throws -> AuthorizedRequest {
        var authorized = AuthorizedRequest(request: request, body: body)
        try authorized.add(name, value, placement: placement)
        return authorized
    }
}

// Printing a configuration or a strategy must not print the secret it holds, so every
// built-in strategy describes itself by name only and hides its fields from mirrors
// (`dump`, debugger summaries, test failure output).

extension BearerTokenAuth: CustomStringConvertible, CustomReflectable {
    /// The type name; the token is never shown.
    public var description: String { "BearerTokenAuth(token: \(Redactor.placeholder))" }
    /// A mirror without children, so `dump` shows no token.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension TokenProviderAuth: CustomStringConvertible, CustomReflectable {
    /// The type name; the provider is never shown.
    public var description: String { "TokenProviderAuth" }
    /// A mirror without children, so `dump` shows nothing of the provider.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension BasicAuth: CustomStringConvertible, CustomReflectable {
    /// The type name; the credentials are never shown.
    public var description: String { "BasicAuth(\(Redactor.placeholder))" }
    /// A mirror without children, so `dump` shows no password.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension APIKeyAuth: CustomStringConvertible, CustomReflectable {
    /// The key's name and placement; the key itself is never shown.
    public var description: String { "APIKeyAuth(\(name): \(Redactor.placeholder), \(placement))" }
    /// A mirror without children, so `dump` shows no key.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

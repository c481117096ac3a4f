public import HTTPCore

/// Why discovery refused an origin, a document or an address, as one typed value.
///
/// Each ``Reason`` has a stable short ``description`` (for logs and tests), a sentence for people
/// (``message``), and the ``HTTPCore/APIError/Code`` it reports as, so a command-line tool exits
/// with ``exitCode``: `usage` (64) for an origin the caller passed (or its refused address) and a
/// grant the server lacks, `network` (6) when a fetch got no answer, `api_error` (7) for
/// everything a server or its documents got wrong.
///
/// ```swift
/// do {
///     let found = try await discovery.discoverAuthorizationServer(for: "https://3.basecampapi.com", selection: .basecamp())
/// } catch let error as DiscoveryError where error.reason == .ambiguousIssuers {
///     // name the issuer to use with IssuerSelection.expectedIssuer
/// }
/// ```
public struct DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible, APIErrorConvertible {
    /// What was refused.
    public enum Reason: Sendable, Hashable {
        /// An origin the caller passed is not one; the part says where (a usage error).
        case invalidOrigin(OriginPart)
        /// An issuer the resource advertised is not an origin; nothing is fetched from it.
        case invalidIssuerOrigin(OriginPart)
        /// An advertised issuer's host is, or resolves to, an address the policy refuses.
        case refusedAddress(AddressRange)
        /// The resource document names another resource than the one asked for.
        case resourceMismatch
        /// The issuer document names another issuer than the one advertised.
        case issuerMismatch
        /// No issuer was advertised and the selection has no fallback.
        case noAuthorizationServer
        /// Several new issuers were advertised and none was expected, so none was chosen.
        case ambiguousIssuers
        /// The expected issuer is not among those the resource advertises.
        case expectedIssuerUnavailable
        /// A document is not a JSON object (`member` `nil`) or a member is missing or wrong.
        case invalidMetadata(member: String?)
        /// A fetch got no usable answer: a non-2xx status, or none at all (`status` `nil`).
        case fetchFailed(status: Int?)
        /// A document is larger than ``OAuthDiscovery/maxDocumentSize``.
        case tooLarge
        /// The server answered with a redirect, which discovery never follows.
        case redirectRefused
        /// The server lacks the endpoint a grant needs.
        case capabilityUnavailable(OAuthCapability)
    }

    /// A part of an origin string, named by a refusal.
    public enum OriginPart: String, Sendable, Hashable, CaseIterable {
        /// Not a URL the parser accepts.
        case syntax
        /// Not https (or http to a loopback host).
        case scheme
        /// No host, or one the parser cannot use.
        case host
        /// Empty, zero, signed, not a number or over 65535.
        case port
        /// A user name or password, an empty `@` included.
        case userinfo
        /// Anything but nothing or exactly `/`.
        case path
        /// A query, an empty `?` included.
        case query
        /// A fragment, a bare `#` included.
        case fragment
    }

    /// The kind of address the policy refused.
    public enum AddressRange: String, Sendable, Hashable, CaseIterable {
        /// This machine: 127/8, `::1`, `localhost`.
        case loopback
        /// RFC 1918, RFC 4193 unique local, and `.local` names.
        case privateNetwork = "private network"
        /// 100.64/10, the carrier-grade NAT shared range (RFC 6598).
        case sharedAddressSpace = "shared address space"
        /// 169.254/16 and fe80::/10, cloud metadata services among them.
        case linkLocal = "link-local"
        /// Unspecified, multicast, documentation, benchmarking and reserved ranges.
        case specialPurpose = "special-purpose"
    }

    /// Which document a refusal concerns.
    public enum Document: String, Sendable, Hashable {
        /// The resource's RFC 9728 metadata (hop 1).
        case protectedResource = "protected resource metadata"
        /// The issuer's RFC 8414 metadata (hop 2).
        case authorizationServer = "authorization server metadata"
    }

    /// What was refused.
    public var reason: Reason
    /// The document concerned, when there is one.
    public var document: Document?
    /// The transport's error, for a fetch that got no answer; not part of equality.
    public var underlying: APIError?

    /// Creates an error.
    public init(_ reason: Reason, document: Document? = nil, underlying: APIError? = nil) {
        self.reason = reason
        self.document = document
        self.underlying = underlying
    }

    /// Compares reason and document.
    public static func == (lhs: DiscoveryError, rhs: DiscoveryError) -> Bool {
        lhs.reason == rhs.reason && lhs.document == rhs.document
    }

    /// The code it reports as: `usage`, `network` or `api_error`.
    public var code: APIError.Code {
        switch reason {
        case .invalidOrigin, .capabilityUnavailable: return .usage
        // The resource is the caller's: refusing its address is a setting to change.
        case .refusedAddress where document == .protectedResource: return .usage
        case .fetchFailed(status: nil): return .network
        default: return .apiError
        }
    }

    /// The process exit code for it, ``code``'s.
    public var exitCode: Int32 { code.exitCode }

    /// A stable short name: `invalid origin (port)`, `issuer mismatch`, `fetch failed (HTTP 503)`.
    public var description: String {
        switch reason {
        case .invalidOrigin(let part): return "invalid origin (\(part.rawValue))"
        case .invalidIssuerOrigin(let part): return "invalid issuer origin (\(part.rawValue))"
        case .refusedAddress(let range): return "refused address (\(range.rawValue))"
        case .resourceMismatch: return "resource mismatch"
        case .issuerMismatch: return "issuer mismatch"
        case .noAuthorizationServer: return "no authorization server"
        case .ambiguousIssuers: return "ambiguous issuers"
        case .expectedIssuerUnavailable: return "expected issuer unavailable"
        case .invalidMetadata(let member?): return "metadata invalid (\(member))"
        case .invalidMetadata(nil): return "metadata invalid"
        case .fetchFailed(let status?): return "fetch failed (HTTP \(status))"
        case .fetchFailed(nil): return "fetch failed"
        case .tooLarge: return "too large"
        case .redirectRefused: return "redirect refused"
        case .capabilityUnavailable(let capability): return "capability unavailable (\(capability.rawValue))"
        }
    }

    /// A sentence for people; never quotes a document's contents.
    public var message: String {
        let about = document.map { " in the \($0.rawValue)" } ?? ""
        let of = document.map { " of the \($0.rawValue)" } ?? ""
        switch reason {
        case .invalidOrigin(let part):
            return "The origin is not valid: its \(part.rawValue) is refused (an origin is https://host[:port])."
        case .invalidIssuerOrigin(let part):
            return "Discovery failed: an advertised issuer is not an origin (its \(part.rawValue) is refused)."
        case .refusedAddress(let range):
            let whose = document == .protectedResource ? "resource" : "issuer"
            return "Discovery refused the \(whose)'s host: it is a \(range.rawValue) address."
        case .resourceMismatch:
            return "Discovery failed: the protected resource metadata names another resource."
        case .issuerMismatch:
            return "Discovery failed: the authorization server metadata names another issuer."
        case .noAuthorizationServer:
            return "Discovery failed: the resource advertises no authorization server."
        case .ambiguousIssuers:
            return "Discovery failed: the resource advertises several authorization servers, so none was chosen."
        case .expectedIssuerUnavailable:
            return "Discovery failed: the resource does not advertise the expected issuer."
        case .invalidMetadata(let member?):
            return "Discovery failed: `\(member)`\(about) is missing or not valid."
        case .invalidMetadata(nil):
            return "Discovery failed: the \(document?.rawValue ?? "document") is not a JSON object."
        case .fetchFailed(let status?):
            return "Discovery failed: the fetch\(of) answered HTTP \(status)."
        case .fetchFailed(nil):
            return "Discovery failed: the fetch\(of) got no answer: \(underlying?.message ?? "the connection failed")"
        case .tooLarge:
            return "Discovery failed: the \(document?.rawValue ?? "document") is larger than discovery accepts."
        case .redirectRefused:
            return "Discovery failed: the fetch\(of) answered with a redirect, which is never followed."
        case .capabilityUnavailable(let capability):
            return "This authorization server does not offer the \(capability.rawValue) grant."
        }
    }

    /// What to do about it.
    public var hint: String {
        switch reason {
        case .invalidOrigin:
            return "Pass the origin alone, as https://host or https://host:port, with no path, query or fragment."
        case .ambiguousIssuers, .expectedIssuerUnavailable:
            return "Name the issuer to use (IssuerSelection.expectedIssuer), one the resource advertises."
        case .fetchFailed(nil):
            return "Check the connection and try again."
        case .refusedAddress(.loopback):
            return "Allow loopback addresses (OAuthDiscovery.allowsLoopback) for a server on this machine."
        case .refusedAddress(.privateNetwork), .refusedAddress(.sharedAddressSpace):
            return "Allow private networks (OAuthDiscovery.allowsPrivateNetworks) for an internal deployment."
        case .capabilityUnavailable(.deviceAuthorization):
            return "Use the browser sign-in instead."
        case .capabilityUnavailable:
            return "Use the device sign-in instead."
        default:
            return "The server's OAuth metadata is not usable; report it to the provider."
        }
    }

    /// The ``HTTPCore/APIError`` a tool reports: ``code``, ``message`` and ``hint``, the HTTP
    /// status when there was one, and this error as the cause.
    public var apiError: APIError {
        var status: Int?
        if case .fetchFailed(let code?) = reason { status = code }
        return APIError(code, APIError.Details(message: message, hint: hint, httpStatus: status, cause: self))
    }
}

/// A grant an authorization server may or may not offer, by the endpoint it needs.
public enum OAuthCapability: String, Sendable, Hashable, CaseIterable {
    /// The authorization code grant: needs `authorization_endpoint`.
    case authorizationCode = "authorization code"
    /// The device authorization grant (RFC 8628): needs `device_authorization_endpoint`.
    case deviceAuthorization = "device authorization"
}

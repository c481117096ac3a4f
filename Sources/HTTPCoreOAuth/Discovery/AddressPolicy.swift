import Foundation
import HTTPCore

/// Which addresses discovery may connect to, judged on the host's spelling and, just before each
/// fetch, on every address its name resolves to.
///
/// Refused unless allowed: loopback (``allowsLoopback``), private networks and the shared
/// carrier-grade NAT range (``allowsPrivateNetworks``). Always refused: link-local (cloud
/// metadata services live there) and special-purpose ranges (unspecified, multicast,
/// documentation, benchmarking, reserved). A numeric host in any form the system resolver
/// accepts (`2130706433`, `0x7f.1`) is judged as the address it is.
struct AddressPolicy: Sendable {
    var allowsLoopback: Bool
    var allowsPrivateNetworks: Bool

    /// Whether an address in `range` may be reached.
    func allows(_ range: DiscoveryError.AddressRange) -> Bool {
        switch range {
        case .loopback: return allowsLoopback
        case .privateNetwork, .sharedAddressSpace: return allowsPrivateNetworks
        case .linkLocal, .specialPurpose: return false
        }
    }

    /// What a host's spelling tells: an IP literal, `localhost` or a `.local` name is `known`
    /// (with its range, `nil` when public); any other name needs resolving.
    enum Spelling: Equatable {
        case known(DiscoveryError.AddressRange?)
        case name
    }

    /// What `host`'s spelling alone tells about its address.
    static func spelling(of host: String) -> Spelling {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let bare = name.hasSuffix(".") ? String(name.dropLast()) : name
        if bare == "localhost" || bare.hasSuffix(".localhost") { return .known(.loopback) }
        if bare.hasSuffix(".local") { return .known(.privateNetwork) }
        if let address = IPAddress(bare) ?? IPAddress.numericIPv4(bare) { return .known(address.range) }
        return .name
    }

    /// The range that makes `host` refused by its spelling, if any.
    func refusal(spelling host: String) -> DiscoveryError.AddressRange? {
        guard case .known(let range?) = Self.spelling(of: host), !allows(range) else { return nil }
        return range
    }

    /// Checks `host` just before a connection to it: by spelling, then, for a name, every
    /// address `resolver` gives, since the transport may connect to any of them.
    ///
    /// - Throws: ``DiscoveryError`` `refusedAddress` for a refused address; `fetchFailed` when
    ///   the name does not resolve.
    func check(host: String, resolver: any HostResolver, document: DiscoveryError.Document) async throws {
        if case .known(let spelled) = Self.spelling(of: host) {
            if let spelled, !allows(spelled) { throw DiscoveryError(.refusedAddress(spelled), document: document) }
            return
        }
        let addresses: [IPAddress]
        do {
            addresses = try await resolver.addresses(of: host)
        } catch let error as CancellationError {
            throw error
        } catch {
            let failure =
                error as? APIError
                ?? .network(APIError.Details(message: "The host \(host) could not be resolved.", cause: error))
            throw DiscoveryError(.fetchFailed(status: nil), document: document, underlying: failure)
        }
        guard !addresses.isEmpty else {
            let error = APIError.network(APIError.Details(message: "The host \(host) resolves to no address."))
            throw DiscoveryError(.fetchFailed(status: nil), document: document, underlying: error)
        }
        if let range = addresses.compactMap(\.range).first(where: { !allows($0) }) {
            throw DiscoveryError(.refusedAddress(range), document: document)
        }
    }

    /// Why an endpoint from metadata may not be used: it is not an https URL with a host (plain
    /// http only to loopback when loopback is allowed), carries userinfo, or its host is refused by
    /// its spelling.
    func endpointRefused(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { return true }
        switch scheme {
        case "https": break
        case "http" where allowsLoopback && URLPolicy.isLoopback(host: host): break
        default: return true
        }
        return refusal(spelling: host) != nil
    }
}

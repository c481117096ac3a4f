import APISandbox
import Foundation

/// Which of the sandbox's two servers issued something; they speak different token styles.
enum IssuingServer: String, Codable, Sendable {
    /// Launchpad: `type=web_server`, no `token_type` in answers.
    case launchpad
    /// The resource-first server: standard grants, PKCE required, `token_type` and `resource`.
    case resourceFirst
}

/// Everything the sandbox's authorization servers issued, in Codable form for the state file.
struct AuthorizationRecords: Codable, Sendable, Equatable {
    static let currentVersion = 1

    struct Code: Codable, Sendable, Equatable {
        var server: IssuingServer
        var clientID: String
        var redirectURI: String
        var challenge: String?
        var resource: String?
        var expiresAt: Date
    }

    struct AccessToken: Codable, Sendable, Equatable {
        var clientID: String
        var expiresAt: Date
        var resource: String?
        var revoked = false
    }

    struct RefreshToken: Codable, Sendable, Equatable {
        var server: IssuingServer
        var clientID: String
        var resource: String?
        /// Spent by a refresh (tokens rotate) or revoked by a test.
        var isUsable = true
    }

    struct DeviceCode: Codable, Sendable, Equatable {
        var clientID: String
        var userCode: String
        var resource: String?
        var expiresAt: Date
        var interval: Int
        var polls = 0
        var lastPoll: Date
        var isUsable = true
    }

    var version = currentVersion
    var codes: [String: Code] = [:]
    var accessTokens: [String: AccessToken] = [:]
    var refreshTokens: [String: RefreshToken] = [:]
    var deviceCodes: [String: DeviceCode] = [:]
    /// Refresh grant requests received, granted or not.
    var refreshRequests = 0

    /// Drops what expired, so a long-lived state file does not grow without end.
    mutating func prune(now: Date) {
        codes = codes.filter { $0.value.expiresAt > now }
        deviceCodes = deviceCodes.filter { $0.value.expiresAt > now.addingTimeInterval(-3600) }
        accessTokens = accessTokens.filter { $0.value.expiresAt > now.addingTimeInterval(-86_400) }
    }
}

extension SandboxSecrets {
    /// A device grant's user code like `BXKM-PQRT`: consonants only, so it never spells a word.
    static func userCode() -> String {
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        let picked = (0..<8).map { _ in letters[Int.random(in: letters.indices)] }
        return String(picked[0..<4]) + "-" + String(picked[4...])
    }
}

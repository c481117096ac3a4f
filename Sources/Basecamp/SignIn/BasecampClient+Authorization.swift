public import Foundation
import HTTPCore

extension BasecampClient {
    /// Who the client's token belongs to, which accounts it reaches and when it expires:
    /// `GET {launchpad}/authorization.json`, sent with the client's credentials, `User-Agent`,
    /// retry and hooks.
    ///
    /// ```swift
    /// let authorization = try await basecamp.authorization()
    /// for account in authorization.basecampAccounts { print(account.id, account.name) }
    /// ```
    ///
    /// - Parameter launchpad: Launchpad's address; the sandbox's for tests.
    /// - Throws: ``HTTPCore/APIError``; `auth_required` when the token is not accepted.
    public func authorization(launchpad: URL = BasecampOAuth.launchpadURL) async throws -> BasecampAuthorization {
        try await http.send(
            Endpoint<BasecampAuthorization>(
                .get,
                launchpad.absoluteString.trimmingSuffix("/") + "/authorization.json",
                operation: OperationMetadata(name: "GetAuthorization", service: "authorization")
            )
        )
    }

    /// The Basecamp accounts the client's token reaches (`product == "bc3"`), other
    /// 37signals products left out.
    ///
    /// - Throws: As ``authorization(launchpad:)``.
    public func accounts(launchpad: URL = BasecampOAuth.launchpadURL) async throws -> [BasecampAuthorization.Account] {
        try await authorization(launchpad: launchpad).basecampAccounts
    }
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

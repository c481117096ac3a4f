import Foundation
public import Hummingbird

extension Request {
    /// The `User-Agent`, with which APIs such as Basecamp require every request to name its app
    /// and a contact; `nil` when there is none or it is blank.
    public var userAgent: String? {
        headers[.userAgent].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    /// The token of `Authorization: Bearer …`; `nil` when there is none or it is empty.
    public var bearerToken: String? {
        let parts = (headers[.authorization] ?? "").split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The name and password of `Authorization: Basic …`, each form-decoded as OAuth's client
    /// authentication asks (RFC 6749 §2.3.1); `nil` when there is no such header or it is malformed.
    public var basicCredentials: (name: String, password: String)? {
        guard let header = headers[.authorization], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) })
        else { return nil }
        let parts = decoded.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
        }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// The fields of an `application/x-www-form-urlencoded` body of at most `maximumBytes`, one
    /// value per name; `nil` when the body is not a form or a name is repeated (RFC 6749 §3.2
    /// forbids that).
    ///
    /// - Throws: Hummingbird's error when the body is larger than `maximumBytes`.
    public mutating func formFields(upTo maximumBytes: Int) async throws -> [String: String]? {
        guard headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return nil
        }
        let buffer = try await collectBody(upTo: maximumBytes)
        var fields: [String: String] = [:]
        for (name, value) in QueryItems(String(buffer: buffer)).items {
            guard fields.updateValue(value, forKey: name) == nil else { return nil }
        }
        return fields
    }
}

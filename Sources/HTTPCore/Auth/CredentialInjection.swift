import Foundation
import HTTPTypes
import HTTPTypesFoundation

extension AuthorizedRequest {
    /// Puts a credential in the request: a header, a query parameter, or a form field.
    ///
    /// A header or parameter of the same name is replaced, so a replay never carries the old
    /// value next to the new one.
    ///
    /// - Throws: ``APIError/usage(_:)`` when `name` is not a valid header name or the request
    ///   has no URL.
    public mutating func add(_ name: String, _ value: String, placement: CredentialPlacement) throws {
        switch placement {
        case .header:
            guard let field = HTTPField.Name(name) else {
                throw APIError.usage("\"\(name)\" is not a valid HTTP header name for a credential.")
            }
            request.headerFields[field] = value
        case .query:
            try setQueryItem(name, value)
        case .formOrQuery:
            if let body, Self.isForm(request) {
                self.body = Data(Self.replacingPair(in: String(decoding: body, as: UTF8.self), name, value).utf8)
            } else {
                try setQueryItem(name, value)
            }
        }
    }

    private mutating func setQueryItem(_ name: String, _ value: String) throws {
        guard let url = request.url else {
            throw APIError.usage("The request has no URL to add a credential to.")
        }
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        var query = ""
        if let mark = text.firstIndex(of: "?") {
            query = String(text[text.index(after: mark)...])
            text = String(text[..<mark])
        }
        let encodedPair = "\(PercentEncoding.encode(name))=\(PercentEncoding.encode(value))"
        let pairs = query.split(separator: "&").filter { Self.decodedName(of: $0) != name }.map(String.init)
        text += "?" + (pairs + [encodedPair]).joined(separator: "&") + fragment
        guard let updated = URL(string: text) else {
            throw APIError.usage("A credential could not be added to the request URL.")
        }
        request.url = updated
    }

    /// Whether `request` carries an `application/x-www-form-urlencoded` body.
    static func isForm(_ request: HTTPRequest) -> Bool {
        request.headerFields[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    private static func replacingPair(in form: String, _ name: String, _ value: String) -> String {
        let encodedPair =
            "\(PercentEncoding.encode(name, spaceAsPlus: true))=\(PercentEncoding.encode(value, spaceAsPlus: true))"
        let pairs = form.split(separator: "&").filter { decodedName(of: $0) != name }.map(String.init)
        return (pairs + [encodedPair]).joined(separator: "&")
    }

    private static func decodedName(of pair: Substring) -> String {
        PercentEncoding.decodeFormComponent(
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        )
    }
}

import Foundation
import HTTPTypes

extension Redactor {
    /// The credential values a request carries, as a server may quote them back in an error: each
    /// secret header's value, with its token apart from an `Authorization` scheme (`Bearer`) and
    /// each value of a `Cookie`, and the value of each secret query parameter and, in a form
    /// `body`, of each secret field.
    func credentialValues(in request: HTTPRequest, body: Data?) -> [String] {
        var values: [String] = []
        for field in request.headerFields where secretHeaders.contains(field.name) {
            values.append(field.value)
            if let space = field.value.firstIndex(of: " ") {
                values.append(String(field.value[field.value.index(after: space)...]))
            }
            if field.name == .cookie {
                for pair in field.value.split(separator: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    values.append(String(pair[pair.index(after: equals)...]))
                }
            }
        }
        if let path = request.path, let question = path.firstIndex(of: "?") {
            let query = path[path.index(after: question)...]
            values += secretValues(formEncoded: query.prefix { $0 != "#" })
        }
        if let body, AuthorizedRequest.isForm(request) {
            values += secretValues(formEncoded: String(decoding: body, as: UTF8.self)[...])
        }
        return values
    }

    /// The decoded values of the secret fields of `name=value&…` text (a query or a form body).
    private func secretValues(formEncoded text: Substring) -> [String] {
        text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, isSecret(String(parts[0])) else { return nil }
            return PercentEncoding.decodeFormComponent(parts[1])
        }
    }
}

import Foundation
import HTTPTypes

extension Redactor {
    /// The credential values `request` carries, as a server may quote them back in an error: each
    /// secret header's value, with its token apart from an `Authorization` scheme (`Bearer`) and
    /// each value of a `Cookie`, and the value of each secret query parameter.
    func credentialValues(in request: HTTPRequest) -> [String] {
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
        if let path = request.path, path.contains("?"),
            let items = URLComponents(string: path)?.queryItems
        {
            for item in items where secretQueryParameters.contains(item.name.lowercased()) {
                if let value = item.value { values.append(value) }
            }
        }
        return values
    }
}

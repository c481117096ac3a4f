import Foundation
import HTTPCore
import HTTPTypes

private let base = URL(string: "https://api.example.com/v1/items?page=2") ?? URL(fileURLWithPath: "/")

/// Each input line is one `Link` field value; the parser must return (never trap), respect its
/// documented cap on the number of links, find the same next link either way, and read exactly
/// the links a plain reference reading of RFC 8288 finds (`ReferenceLinks`): a malformed
/// link-value is skipped without losing any well-formed one around it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let values = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let links = LinkHeader.parse(values, base: base)
    precondition(links.count <= LinkHeader.maxLinks, "LinkHeader.parse exceeded maxLinks")
    for link in links {
        _ = link.has("next")
        _ = link.target.absoluteString
    }
    let next = LinkHeader.next(values, base: base)
    // Under 2,900 bytes there cannot be `maxLinks` link-values (each takes at least `<>,`), so
    // the next helper, which stops after that many, must agree with the full parse.
    if count < 2900 {
        precondition(next == links.next?.target, "LinkHeader.next disagrees with parse(_:base:).next")
        let described = links.map { link in
            let parameters = link.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return ([link.target.absoluteString] + link.relations.sorted() + ["|"] + parameters).joined(separator: " ")
        }
        precondition(
            described == ReferenceLinks.parse(values, base: base),
            "LinkHeader.parse disagrees with the reference"
        )
    }
    var fields = HTTPFields()
    for value in values.prefix(64) {
        fields.append(HTTPField(name: .init("Link") ?? .contentType, value: value))
    }
    _ = LinkHeader.parse(in: fields, base: base)
    return 0
}

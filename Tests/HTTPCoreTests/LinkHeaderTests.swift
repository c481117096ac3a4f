import Foundation
import HTTPCore
import Testing

/// One `Link` header case: the field values, and the links expected as "target rel1 rel2".
struct LinkCase: Sendable, CustomTestStringConvertible {
    var name: String
    var values: [String]
    var expected: [String]
    var base = "https://api.example.com/v1/items?page=1"

    var testDescription: String { name }
}

@Suite("Link header")
struct LinkHeaderTests {
    static let cases: [LinkCase] = [
        LinkCase(
            name: "A link anchored on another resource is that resource's, and skipped (RFC 8288 §3.2)",
            values: [
                #"</v1/items?page=9>; rel="next"; anchor="/v1/people", </v1/items?page=2>; rel="next"; anchor="/v1/items?page=1", </v1/items?page=3>; rel="last"; anchor="""#
            ],
            expected: [
                "https://api.example.com/v1/items?page=2 next",
                "https://api.example.com/v1/items?page=3 last",
            ]
        ),
        LinkCase(
            name: "GitHub next + last",
            values: [
                #"<https://api.github.com/repositories/1300192/issues?page=2>; rel="next", <https://api.github.com/repositories/1300192/issues?page=515>; rel="last""#
            ],
            expected: [
                "https://api.github.com/repositories/1300192/issues?page=2 next",
                "https://api.github.com/repositories/1300192/issues?page=515 last",
            ]
        ),
        LinkCase(
            name: "GitHub four relations",
            values: [
                #"<https://api.github.com/user/repos?page=3&per_page=100>; rel="next", <https://api.github.com/user/repos?page=50&per_page=100>; rel="last", <https://api.github.com/user/repos?page=1&per_page=100>; rel="first", <https://api.github.com/user/repos?page=1&per_page=100>; rel="prev""#
            ],
            expected: [
                "https://api.github.com/user/repos?page=3&per_page=100 next",
                "https://api.github.com/user/repos?page=50&per_page=100 last",
                "https://api.github.com/user/repos?page=1&per_page=100 first",
                "https://api.github.com/user/repos?page=1&per_page=100 prev",
            ]
        ),
        LinkCase(
            name: "GitLab keyset",
            values: [
                #"<https://gitlab.example.com/api/v4/projects?pagination=keyset&per_page=50&order_by=id&sort=asc&id_after=42>; rel="next""#
            ],
            expected: [
                "https://gitlab.example.com/api/v4/projects?pagination=keyset&per_page=50&order_by=id&sort=asc&id_after=42 next"
            ]
        ),
        LinkCase(
            name: "Basecamp 3 (a single next link)",
            values: [
                #"<https://3.basecampapi.com/999999999/buckets/2085958496/todolists/1/todos.json?page=2>; rel="next""#
            ],
            expected: ["https://3.basecampapi.com/999999999/buckets/2085958496/todolists/1/todos.json?page=2 next"]
        ),
        LinkCase(
            name: "unquoted rel",
            values: ["</v1/items?page=2>; rel=next"],
            expected: ["https://api.example.com/v1/items?page=2 next"]
        ),
        LinkCase(
            name: "rel list",
            values: [#"</v1/items?page=3>; rel="next last""#],
            expected: ["https://api.example.com/v1/items?page=3 last next"]
        ),
        LinkCase(
            name: "repeated header fields",
            values: [#"</a>; rel="prev""#, #"</b>; rel="next""#],
            expected: ["https://api.example.com/a prev", "https://api.example.com/b next"]
        ),
        LinkCase(
            name: "relative targets resolve against the response URL",
            values: [#"<?page=2>; rel="next", <../other>; rel="related", <sibling>; rel="alternate""#],
            expected: [
                "https://api.example.com/v1/items?page=2 next",
                "https://api.example.com/other related",
                "https://api.example.com/v1/sibling alternate",
            ]
        ),
        LinkCase(
            name: "whitespace everywhere",
            values: ["  \t<  /a  >  ;   rel = \"next\"  ,\t</b>;rel=\"prev\"   "],
            expected: ["https://api.example.com/a next", "https://api.example.com/b prev"]
        ),
        LinkCase(
            name: "relation types are case-insensitive",
            values: [#"</a>; REL="NEXT""#],
            expected: ["https://api.example.com/a next"]
        ),
        LinkCase(
            name: "comma and semicolon inside a quoted parameter",
            values: [#"</a>; title="one, two; three"; rel="next", </b>; rel="last""#],
            expected: ["https://api.example.com/a next", "https://api.example.com/b last"]
        ),
        LinkCase(
            name: "comma and semicolon inside the target",
            values: [#"</a;b=c,d>; rel="next""#],
            expected: ["https://api.example.com/a;b=c,d next"]
        ),
        LinkCase(
            name: "escaped quote in a parameter",
            values: [#"</a>; title="say \"hi\", ok"; rel=next"#],
            expected: ["https://api.example.com/a next"]
        ),
        LinkCase(
            name: "the first rel wins",
            values: [#"</a>; rel="next"; rel="prev""#],
            expected: ["https://api.example.com/a next"]
        ),
        LinkCase(name: "empty header", values: [""], expected: []),
        LinkCase(name: "no header at all", values: [], expected: []),
        LinkCase(name: "plain garbage", values: ["garbage; rel=next"], expected: []),
        LinkCase(
            name: "missing closing bracket",
            values: [#"<https://api.example.com/v1/items?page=2; rel="next""#],
            expected: []
        ),
        LinkCase(
            name: "an unterminated quoted string makes the link-value malformed",
            values: [#"</a>; rel="next"#],
            expected: []
        ),
        LinkCase(name: "a link without rel", values: ["</a>"], expected: ["https://api.example.com/a"]),
        LinkCase(name: "rel without a value", values: ["</a>; rel"], expected: ["https://api.example.com/a"]),
        LinkCase(
            name: "garbage before a good link",
            values: [#"junk "with, quotes", </b>; rel="next""#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "a target with a space is skipped",
            values: [#"<https://exa mple.com/>; rel="next", </ok>; rel="last""#],
            expected: ["https://api.example.com/ok last"]
        ),
        LinkCase(name: "only separators", values: [";;;,,, ;"], expected: []),
        LinkCase(
            name: "nested angle brackets",
            values: [#"<<https://evil.example.com/>>; rel="next""#],
            expected: []
        ),
        LinkCase(name: "an empty target is skipped", values: [#"<>; rel="next""#], expected: []),
        LinkCase(
            name: "junk before < does not hide a later next link",
            values: [#"x</a>; rel="next", </b>; rel="next""#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "an empty target does not hide a later next link",
            values: [#"<>; rel="next", <  >; rel="next", </b>; rel="next""#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "an unclosed target does not swallow the next link-value",
            values: [#"<https://api.example.com/v1/items?page=9; rel="next", </b>; rel="next""#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "a link-value with a > before its < does not hide the next link",
            values: [#"<https://api.example.com/v1/items?page=9, "x>" </a>; rel=prev, </b>; rel="next""#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "a > in a later quoted parameter does not close an earlier unclosed target",
            values: [#"a<b, title=">x=", </b>; rel="next""#, #"<, t="a>b", </c>; rel=last"#],
            expected: ["https://api.example.com/b next", "https://api.example.com/c last"]
        ),
        LinkCase(
            name: "a target may still run past a comma when no quote follows it",
            values: [#"</a,b>; rel="next""#],
            expected: ["https://api.example.com/a,b next"]
        ),
        LinkCase(
            name: "a parameter without a name does not hide a later next link",
            values: [#"</a>; rel="next"; =x, </b>; rel="next""#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "a parameter value that is neither token nor quoted string is malformed",
            values: [#"</a>; rel=<next>, </b>; rel=next"#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "junk after a quoted parameter value is malformed",
            values: [#"</a>; rel="next"x, </b>; rel=next"#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "two words without = are malformed",
            values: [#"</a>; rel next, </b>; rel=next"#],
            expected: ["https://api.example.com/b next"]
        ),
        LinkCase(
            name: "text between the target and the first ; is malformed",
            values: [#"</a> rel=next, </b>; rel=prev"#],
            expected: ["https://api.example.com/b prev"]
        ),
        LinkCase(
            name: "an unterminated quote runs to the end of the field, as RFC 8288 reads it",
            values: [#"</a>; title="oops, </b>; rel=next"#, #"</c>; rel=next"#],
            expected: ["https://api.example.com/c next"]
        ),
        LinkCase(
            name: "empty parameters are harmless",
            values: [#"</a>;; rel=next;"#],
            expected: ["https://api.example.com/a next"]
        ),
        LinkCase(
            name: "non-http targets are parsed (pagination refuses them)",
            values: [#"<javascript:alert(1)>; rel="next""#],
            expected: ["javascript:alert(1) next"]
        ),
        LinkCase(
            name: "absolute target on another origin is kept as is",
            values: [#"<http://other.example.net:8080/p?x=1#frag>; rel="next""#],
            expected: ["http://other.example.net:8080/p?x=1#frag next"]
        ),
        LinkCase(
            name: "RFC 8288 example with anchor and extended title",
            values: [
                #"</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel"#
            ],
            expected: [
                "https://api.example.com/TheBook/chapter2 previous",
                "https://api.example.com/TheBook/chapter4 next",
            ]
        ),
        LinkCase(
            name: "an unusable next link gives way to a later one",
            values: [#"<a b>; rel="next", </c>; rel="next""#],
            expected: ["https://api.example.com/c next"]
        ),
        LinkCase(
            name: "non-ASCII text in parameters, quoted and escaped",
            values: [#"</a>; title="naïve \é"; rel="next", </b>; rel=prev; title=日本"#],
            expected: ["https://api.example.com/a next", "https://api.example.com/b prev"]
        ),
        LinkCase(
            name: "tabs and newlines as whitespace",
            values: ["</a>;\trel=\"next\"\r\n, </b>;\nrel=prev"],
            expected: ["https://api.example.com/a next", "https://api.example.com/b prev"]
        ),
    ]

    @Test("Parses real-world and hostile headers", arguments: cases)
    func parse(_ testCase: LinkCase) throws {
        let base = try #require(URL(string: testCase.base))
        let links = LinkHeader.parse(testCase.values, base: base)
        let described = links.map { link in
            ([link.target.absoluteString] + link.relations.sorted()).joined(separator: " ")
        }
        #expect(described == testCase.expected)
    }

    @Test("The next helper finds what parsing every link finds", arguments: cases)
    func nextMatchesParse(_ testCase: LinkCase) throws {
        let base = try #require(URL(string: testCase.base))
        let parsed = LinkHeader.parse(testCase.values, base: base)
        #expect(LinkHeader.next(testCase.values, base: base) == parsed.next?.target)
    }

    @Test("Non-ASCII parameter values survive unquoting and escapes")
    func nonASCIIParameters() throws {
        let base = try #require(URL(string: "https://api.example.com/"))
        let links = LinkHeader.parse([#"</a>; title="naïve \é \"x\""; rel=next; label=日本"#], base: base)
        let link = try #require(links.first)
        #expect(link.parameters["title"] == #"naïve é "x""#)
        #expect(link.parameters["label"] == "日本")
        #expect(link.has("next"))
    }

    @Test("Parameters are unquoted, unescaped and lowercased by name; extended values are decoded")
    func parameters() throws {
        let base = try #require(URL(string: "https://api.example.com/"))
        let links = LinkHeader.parse(
            [#"</a>; Rel="next"; title="say \"hi\""; type=application/json; title*=UTF-8'de'n%c3%a4chstes"#],
            base: base
        )
        let link = try #require(links.first)
        #expect(link.parameters["rel"] == "next")
        #expect(link.parameters["title"] == #"say "hi""#)
        #expect(link.parameters["type"] == "application/json")
        #expect(link.parameters["title*"] == "nächstes")
        #expect(link.has("NEXT"))
    }

    @Test("next helpers find the next link")
    func nextHelpers() throws {
        let base = try #require(URL(string: "https://api.example.com/v1/items"))
        let values = [#"</v1/items?page=1>; rel="prev first", </v1/items?page=3>; rel="next""#]
        #expect(
            LinkHeader.parse(values, base: base).next?.target.absoluteString
                == "https://api.example.com/v1/items?page=3"
        )
        #expect(LinkHeader.next(values, base: base)?.absoluteString == "https://api.example.com/v1/items?page=3")
        #expect(LinkHeader.parse(values, base: base).first(relation: "FIRST") != nil)
        #expect(LinkHeader.next([#"</a>; rel="prev""#], base: base) == nil)
    }

    @Test("A huge header is capped and parsed without trouble")
    func hugeHeader() throws {
        let base = try #require(URL(string: "https://api.example.com/"))
        let value = (0..<5000).map { #"</p/\#($0)>; rel="item""# }.joined(separator: ", ")
        #expect(LinkHeader.parse([value], base: base).count == LinkHeader.maxLinks)
        let noise = String(repeating: "<;\",", count: 10_000)
        #expect(LinkHeader.parse([noise], base: base).count <= LinkHeader.maxLinks)
    }
}

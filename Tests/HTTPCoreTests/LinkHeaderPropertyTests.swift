import APISandbox
import Foundation
import HTTPCore
import Testing

/// Headers built from link-values whose validity is known by construction: well-formed ones and
/// the malformed kinds servers send (junk before `<`, empty or unclosed targets, bad parameters).
/// The reference answer is the list of well-formed pieces, so splitting the header back into
/// its link-values is exactly the generator's own join; the parser must return every
/// well-formed link, in order, and nothing for the malformed ones.
@Suite("Link header: no valid link is lost")
struct LinkHeaderPropertyTests {
    static let base = URL(string: "https://api.example.com/v1/items?page=1")

    /// A link-value and, when it is well-formed, the link the parser must return as
    /// "target rel1 rel2".
    struct Piece {
        var text: String
        var expected: String?
    }

    struct Generator {
        var seeded: SplitMix64

        mutating func next() -> UInt64 { seeded.next() }

        mutating func pick<Element>(_ choices: [Element]) -> Element {
            choices[Int(next() % UInt64(choices.count))]
        }

        mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }

        mutating func whitespace() -> String { pick(["", "", " ", "  ", "\t"]) }

        static let targets = [
            "/p/1", "/p/2?page=3&per_page=50", "https://api.example.com/x;y=1,2", "?page=7", "../up",
            "sibling", "https://other.example.net:8443/q?a=b#frag",
        ]
        static let relations = ["next", "prev", "last", "first", "next last", "prev first"]
        static let otherParameters = [
            #"title="a, b; c""#, #"title="say \"hi\", ok""#, "title*=UTF-8''n%c3%a4chstes", "type=application/json",
            ##"anchor="#x""##, #"anchor="""#, #"anchor="/v1/items?page=1""#, "hreflang=de",
        ]
        /// An anchor naming another resource than the base: its link is not the response's.
        static let elsewhere = ##"anchor="#x""##

        /// A well-formed link-value.
        mutating func valid() throws -> Piece {
            let target = pick(Self.targets)
            var parameters: [String] = []
            var relations: [String] = []
            if chance(85) {
                let relation = pick(Self.relations)
                relations = relation.split(separator: " ").map(String.init)
                parameters.append(chance(50) || relation.contains(" ") ? "rel=\"\(relation)\"" : "rel=\(relation)")
            }
            for _ in 0..<Int(next() % 3) { parameters.append(pick(Self.otherParameters)) }
            parameters.shuffle(using: &self)
            var text = whitespace() + "<" + (chance(10) ? " \(target) " : target) + ">"
            for parameter in parameters { text += whitespace() + ";" + whitespace() + parameter }
            let base = try #require(LinkHeaderPropertyTests.base)
            let resolved = try #require(URL(string: target, relativeTo: base)?.absoluteURL.absoluteString)
            return Piece(
                text: text + whitespace(),
                // The first anchor counts, as the first of any parameter does.
                expected: parameters.first(where: { $0.hasPrefix("anchor=") }) == Self.elsewhere
                    ? nil : ([resolved] + Set(relations).sorted()).joined(separator: " ")
            )
        }

        /// A malformed link-value: never returned, and never able to hide the pieces after it.
        mutating func malformed() throws -> Piece {
            let good = try valid().text.trimmingCharacters(in: .whitespaces)
            let kinds: [String] = [
                pick(["x", "junk ", #""quoted, text" "#, "=", ";", "a<b", ">", #""x>" "#, #"t=">x=" "#]) + good,
                #"<>; rel="next""#,
                #"<   >; rel=next"#,
                #"<https://api.example.com/v1/items?page=9; rel="next""#,
                "<https://api.example.com/v1/items?page=8",
                good
                    + pick([
                        "; =x", "; rel=<x>", #"; "quoted""#, "; @bad", "; a=b c", " junk", "; rel next", "; a=\u{1}",
                    ]),
                #"</a>; rel="next"x"#,
                #"<a b>; rel="next""#,
                #"<https://exa"mple.com/>; rel=next"#,
                #"<<https://evil.example.com/>>; rel="next""#,
                "garbage; rel=next",
            ]
            return Piece(text: whitespace() + pick(kinds) + whitespace(), expected: nil)
        }
    }

    @Test("Every well-formed link-value is found, in order, whatever malformed ones surround it")
    func differential() throws {
        let base = try #require(Self.base)
        var generator = Generator(seeded: SplitMix64(seed: 0x5EED))
        for _ in 0..<3000 {
            var pieces: [Piece] = []
            for _ in 0..<Int(1 + generator.next() % 6) {
                pieces.append(try generator.chance(45) ? generator.malformed() : generator.valid())
            }
            // The reference split: the generator's own join, sometimes across several fields.
            var fields: [[Piece]] = [[]]
            for piece in pieces {
                if !fields[fields.count - 1].isEmpty, generator.chance(20) { fields.append([]) }
                fields[fields.count - 1].append(piece)
            }
            let values = fields.map { $0.map(\.text).joined(separator: ",") }
            let expected = pieces.compactMap(\.expected)

            let links = LinkHeader.parse(values, base: base)
            let found = links.map { ([$0.target.absoluteString] + $0.relations.sorted()).joined(separator: " ") }
            #expect(found == expected, "\(values)")
            let firstNext = pieces.compactMap(\.expected).first {
                $0.split(separator: " ").dropFirst().contains("next")
            }
            #expect(
                LinkHeader.next(values, base: base)?.absoluteString
                    == firstNext?.split(separator: " ").first.map(String.init)
            )
            if found != expected { return }
        }
    }
}

extension LinkHeaderPropertyTests.Generator: RandomNumberGenerator {}

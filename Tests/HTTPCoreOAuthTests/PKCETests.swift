import Foundation
import HTTPCore
import HTTPCoreOAuth
import HTTPCoreTesting
import Testing

@Suite("PKCE and state")
struct PKCETests {
    @Test("The S256 challenge is RFC 7636's own example")
    func rfcVector() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.method == "S256")
    }

    @Test("A fresh verifier is 43 unreserved characters, and never the same twice")
    func fresh() {
        let verifiers = (0..<200).map { _ in PKCE().verifier }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(verifiers.allSatisfy { $0.count == 43 && $0.allSatisfy(allowed.contains) })
        #expect(Set(verifiers).count == verifiers.count)
    }

    @Test(
        "A verifier of the wrong length or alphabet is refused",
        arguments: [
            String(repeating: "a", count: 42), String(repeating: "a", count: 129),
            String(repeating: "a", count: 42) + "+",
        ]
    )
    func invalidVerifier(verifier: String) async {
        let error = await caughtAPIError { _ = try PKCE(verifier: verifier) }
        #expect(error?.code == .usage)
    }

    @Test("Printing or dumping a PKCE pair never shows the verifier")
    func redacted() {
        let pkce = PKCE()
        var dumped = ""
        dump(pkce, to: &dumped)
        for text in [String(describing: pkce), String(reflecting: pkce), dumped] {
            #expect(!text.contains(pkce.verifier))
            #expect(text.contains(pkce.challenge) || text == dumped)
        }
    }
}

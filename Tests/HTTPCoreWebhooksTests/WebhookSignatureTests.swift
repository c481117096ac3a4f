import Foundation
import HTTPTypes
import Testing

@testable import HTTPCoreWebhooks

@Suite struct WebhookSignatureTests {
    // RFC 4231, test case 2.
    let body = Data("what do ya want for nothing?".utf8)
    let expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    let signature = WebhookSignature(secret: "Jefe", headerName: .webhookSignature)

    @Test func signsAsTheRFCVectorSays() {
        #expect(signature.signature(for: body) == expected)
    }

    @Test func theRightSignatureVerifies() {
        #expect(signature.isValid(expected, for: body))
    }

    @Test func uppercaseHexIsTheSameDigest() {
        #expect(signature.isValid(expected.uppercased(), for: body))
    }

    @Test func aTamperedBodyFails() {
        var tampered = body
        tampered[0] ^= 0x01
        #expect(!signature.isValid(expected, for: tampered))
        #expect(!signature.isValid(expected, for: body + Data(" ".utf8)))
    }

    @Test func anotherSecretFails() {
        #expect(!WebhookSignature(secret: "jefe", headerName: .webhookSignature).isValid(expected, for: body))
    }

    @Test func emptySignatureOrSecretNeverVerifies() {
        #expect(!signature.isValid("", for: body))
        #expect(!signature.isValid(nil, for: body))
        #expect(!signature.isValid("   ", for: body))
        let unkeyed = WebhookSignature(secret: "", headerName: .webhookSignature)
        #expect(unkeyed.signature(for: body) == "")
        #expect(!unkeyed.isValid("", for: body))
        #expect(!unkeyed.isValid(expected, for: body))
        #expect(
            !unkeyed.isValid(
                WebhookSignature(secret: "x", headerName: .webhookSignature).signature(for: body),
                for: body
            )
        )
    }

    @Test(arguments: [
        String("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843".dropLast(2)),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec384300",
        String("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843".dropLast()),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec384g",
        "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    ])
    func wrongLengthOrNotHexFails(_ sent: String) {
        #expect(!signature.isValid(sent, for: body))
    }

    @Test func descriptionNamesTheHeaderNotTheSecret() {
        let secret = "s3cr3t-never-printed"
        let text = String(describing: WebhookSignature(secret: secret, headerName: .webhookSignature))
        #expect(!text.contains(secret))
        #expect(text.contains("X-Signature"))
    }
}

extension HTTPField.Name {
    static let webhookSignature = HTTPField.Name("X-Signature") ?? .contentType
}

import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Testing

@testable import HTTPCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Transport conversions")
struct TransportConversionTests {
    private func request(_ url: String, method: HTTPRequest.Method = .get) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try #require(URL(string: url)))
    }

    @Test("A request's URL text is what its URL reads as, without parsing it")
    func urlText() throws {
        for text in ["https://a.example/v1/items?page=2&q=a%20b", "http://127.0.0.1:8080/"] {
            let request = try request(text)
            #expect(request.urlText == request.url?.absoluteString)
            #expect(request.urlText == text)
        }
        // A request carries no user info, in its URL or in its text.
        let withUserInfo = try request("https://user@a.example:8443/x")
        #expect(withUserInfo.urlText == withUserInfo.url?.absoluteString)
        #expect(withUserInfo.urlText == "https://a.example:8443/x")
        var pathless = try request("https://a.example/x")
        pathless.path = nil
        #expect(pathless.urlText == nil)
    }
}

import Dispatch
import Foundation
import HTTPCore
import HTTPTypes
import Markbook

/// Answers the login with a valid session and every other request with the fuzz input, so the
/// input reaches the envelope check and the action's decoder exactly as a server's body would.
private struct CannedTransport: HTTPTransport {
    let body: Data
    let status: Int

    func send(
        _ request: HTTPRequest,
        body requestBody: Data?,
        options: TransportOptions
    ) async throws
        -> TransportResponse
    {
        let url = URL(string: "https://markbook.test\(request.path ?? "/")") ?? URL(fileURLWithPath: "/")
        var response = HTTPResponse(status: .init(code: status))
        response.headerFields[.contentType] = "application/json"
        if request.path?.contains("authenticate") == true {
            let login = #"{"status":"OKAY","sessiontoken":"fuzz-token","sessionkey":7,"schoolname":"Fuzz High"}"#
            return TransportResponse(response: HTTPResponse(status: .ok), body: Data(login.utf8), url: url)
        }
        return TransportResponse(response: response, body: body, url: url)
    }
}

private let baseURL = URL(string: "https://markbook.test/api/") ?? URL(fileURLWithPath: "/")

/// Byte 0 picks the action (and byte 1 the HTTP status class); the rest is the response body.
/// Every outcome must be a value or a typed `APIError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkbook(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    guard bytes.count >= 2 else { return 0 }
    let action = bytes[0] % 7
    let status = bytes[1] < 224 ? 200 : [400, 401, 404, 429, 500, 503, 302, 204][Int(bytes[1]) % 8]
    let body = Data(bytes.dropFirst(2))
    let done = DispatchSemaphore(value: 0)
    Task {
        defer { done.signal() }
        var configuration = ClientConfiguration(baseURL: baseURL)
        configuration.retry = .none
        guard
            let client = try? MarkbookClient(
                apiKey: "fuzz-key",
                username: "fuzz",
                password: "fuzz-password",
                configuration: configuration,
                transport: CannedTransport(body: body, status: status)
            )
        else { preconditionFailure("MarkbookClient refused a valid configuration") }
        do {
            switch action {
            case 0: _ = try await client.getMarkbook(key: 1)
            case 1: _ = try await client.getMarkbookAlt(key: 1)
            case 2: _ = try await client.getOutcomes(key: 1)
            case 3: _ = try await client.getOutcomesAlt(key: 1)
            case 4: _ = try await client.markbookList()
            case 5: _ = try await client.userList()
            default: _ = try await client.getBackupURL()
            }
        } catch let error as APIError {
            _ = String(describing: error)
        } catch {
            preconditionFailure("Markbook threw an untyped error: \(error)")
        }
    }
    done.wait()
    return 0
}

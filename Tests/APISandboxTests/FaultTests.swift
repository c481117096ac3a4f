import APISandbox
import Foundation
import Testing

@Suite("Fault injection")
struct FaultTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func faultSequenceProducesEachFaultInOrder() async throws {
        let faults = FaultInjection(
            sequence: [
                .serviceUnavailable,
                .tooManyRequests(retryAfterSeconds: 3),
                .connection(.closeBeforeResponse),
                .connection(.resetConnection),
                .connection(.truncatedBody),
                nil,
            ],
            pathPrefixes: ["/_test/echo"]
        )
        try await Sandbox.withRunning(configuration: SandboxConfiguration(faults: faults)) { sandbox in
            let url = try sandbox.url("/_test/echo/target")

            #expect(try await Client.sendOnFreshConnection(url).status == 503)
            let limited = try await Client.sendOnFreshConnection(url)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "3")
            await #expect(throws: (any Error).self) { try await Client.sendOnFreshConnection(url) }
            await #expect(throws: (any Error).self) { try await Client.sendOnFreshConnection(url) }
            await #expect(throws: (any Error).self) { try await Client.sendOnFreshConnection(url) }
            // The sequence is used up and there are no random rules, so requests go through again.
            #expect(try await Client.sendOnFreshConnection(url).status == 200)
            // Paths outside `pathPrefixes` were never eligible.
            #expect(try await Client.sendOnFreshConnection(sandbox.url("/_test/status/200")).status == 200)
            #expect(sandbox.counters().requestsByPath["/_test/echo/target"] == 6)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func truncatedBodyDeclaresMoreThanItSends() async throws {
        try await Sandbox.withRunning { sandbox in
            // A raw socket client shows exactly what arrived: the full Content-Length, half the bytes.
            let (head, body) = try await RawHTTP.get(port: sandbox.port, path: "/_test/bytes/1000")
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(body.count == 1000)

            sandbox.setFaults(FaultInjection(sequence: [.connection(.truncatedBody)]))
            let (truncatedHead, truncatedBody) = try await RawHTTP.get(port: sandbox.port, path: "/_test/bytes/1000")
            #expect(truncatedHead.hasPrefix("HTTP/1.1 200"))
            #expect(truncatedHead.lowercased().contains("content-length: 1000"))
            #expect(truncatedBody == expectedPattern(count: 500))

            // The same fault from a script cuts the scripted body.
            sandbox.script("cut", [ScriptStep(status: 201, body: "0123456789", fault: .truncatedBody)])
            let (scriptedHead, scriptedBody) = try await RawHTTP.get(port: sandbox.port, path: "/_test/script/cut")
            #expect(scriptedHead.hasPrefix("HTTP/1.1 201"))
            #expect(scriptedHead.lowercased().contains("content-length: 10"))
            #expect(String(decoding: scriptedBody, as: UTF8.self) == "01234")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func scriptedConnectionFaultBreaksTheRequest() async throws {
        try await Sandbox.withRunning { sandbox in
            sandbox.script("breaks", [.fault(.closeBeforeResponse), ScriptStep(status: 200, body: "recovered")])
            let url = try sandbox.url("/_test/script/breaks")
            await #expect(throws: (any Error).self) { try await Client.sendOnFreshConnection(url) }
            let reply = try await Client.sendOnFreshConnection(url)
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == "recovered")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func droppedResponseStillAppliesTheWriteSoOnlyTheKeyPreventsADuplicate() async throws {
        let faults = FaultInjection(sequence: [.connection(.dropResponse)], pathPrefixes: ["/_test/writes"])
        try await Sandbox.withRunning(configuration: SandboxConfiguration(faults: faults)) { sandbox in
            let url = try sandbox.url("/_test/writes")
            let headers = ["Idempotency-Key": "payment-7"]
            await #expect(throws: (any Error).self) {
                try await Client.sendOnFreshConnection(url, method: "POST", headers: headers, body: Data("pay".utf8))
            }
            #expect(sandbox.counters().writesApplied == 1)

            let retry = try await Client.sendOnFreshConnection(
                url,
                method: "POST",
                headers: headers,
                body: Data("pay".utf8)
            )
            #expect(retry.status == 201)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(sandbox.counters().writesAppliedByKey == ["payment-7": 1])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func seededRandomFaultsAreReproducible() async throws {
        let faults = FaultInjection(rules: [.init(.serviceUnavailable, probability: 0.5)], seed: 42)
        var runs: [[Int]] = []
        for _ in 0..<2 {
            let statuses = try await Sandbox.withRunning(configuration: SandboxConfiguration(faults: faults)) {
                sandbox in
                let client = Client()
                var statuses: [Int] = []
                for _ in 0..<20 {
                    statuses.append(try await client.send(sandbox.url("/_test/status/200")).status)
                }
                return statuses
            }
            runs.append(statuses)
        }
        #expect(runs[0] == runs[1])
        #expect(runs[0].contains(503))
        #expect(runs[0].contains(200))
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func controlRoutesAreNeverFaulted() async throws {
        let faults = FaultInjection(rules: [.init(.serviceUnavailable, probability: 1)])
        try await Sandbox.withRunning(configuration: SandboxConfiguration(faults: faults)) { sandbox in
            let client = Client()
            let faulted = try await client.send(sandbox.url("/_test/echo"))
            let counters = try await client.send(sandbox.url("/_test/counters"))
            let reset = try await client.send(sandbox.url("/_test/reset"), method: "POST")
            #expect(faulted.status == 503)
            #expect(counters.status == 200)
            #expect(reset.status == 204)
        }
    }
}

/// A minimal HTTP/1.1 client over a blocking socket, for the one test that must see the exact
/// bytes on the wire rather than URLSession's interpretation of them.
enum RawHTTP {
    struct Failure: Error {
        var step: String
    }

    /// The exchange runs on a thread of its own: its read blocks until the server closes, and a
    /// pool thread held that long could stall the very server it waits for.
    static func get(port: Int, path: String) async throws -> (head: String, body: Data) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try exchange(port: port, path: path) }) }.start()
        }
    }

    private static func exchange(port: Int, path: String) throws -> (head: String, body: Data) {
        let handle = try connect(port: port)
        defer { handle.closeFile() }
        handle.write(Data("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
        // readDataToEndOfFile stops at EOF or at a connection error, either of which ends the body.
        let data = handle.readDataToEndOfFile()
        guard let separator = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(step: "no head") }
        let head = String(decoding: data[..<separator.lowerBound], as: UTF8.self)
        return (head, Data(data[separator.upperBound...]))
    }

    private static func connect(port: Int) throws -> FileHandle {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(step: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(step: "connect")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}

import APISandbox
import Foundation
import Hummingbird
import Testing

@Suite("Sandbox lifecycle")
struct LifecycleTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func twoSandboxesRunSideBySideAndRedirectAcrossOrigins() async throws {
        try await Sandbox.withRunning { first in
            try await Sandbox.withRunning { second in
                #expect(first.port != second.port)
                #expect(first.baseURL.absoluteString == "http://127.0.0.1:\(first.port)")

                let target = "\(second.baseURL.absoluteString)/_test/echo/landed"
                let encodedTarget = try #require(
                    target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
                )
                let reply = try await first.send("/_test/redirect/302?to=\(encodedTarget)")
                #expect(reply.status == 200)
                #expect(reply.response.url?.port == second.port)
                #expect(try reply.json(Echo.self).path == "/_test/echo/landed")
                #expect(first.counters().requestsByPath == ["/_test/redirect/302": 1])
                #expect(second.counters().requestsByPath == ["/_test/echo/landed": 1])
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test(
        "An address other machines could reach is refused before anything listens",
        arguments: ["0.0.0.0", "::", "192.168.1.20", "example.com", "app.localhost", "[::1]"]
    )
    func refusesNonLoopbackHosts(host: String) async throws {
        await #expect(throws: SandboxError.notLoopback(host: host)) {
            let sandbox = try await Sandbox.start(host: host)
            await sandbox.stop()
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("localhost is loopback, and is accepted")
    func acceptsLocalhost() async throws {
        let sandbox = try await Sandbox.start(host: "localhost")
        #expect(try await Client.sendOnFreshConnection(sandbox.url("/_test/echo")).status == 200)
        await sandbox.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func stopIsIdempotentAndClosesThePort() async throws {
        let sandbox = try await Sandbox.start()
        let url = try sandbox.url("/_test/echo")
        #expect(try await Client.sendOnFreshConnection(url).status == 200)
        await sandbox.stop()
        await sandbox.stop()
        await #expect(throws: (any Error).self) { try await Client.sendOnFreshConnection(url) }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func startsOnTheRequestedPortAndRefusesATakenOne() async throws {
        let ephemeral = try await Sandbox.start()
        let port = ephemeral.port
        await #expect(throws: (any Error).self) { try await Sandbox.start(port: port) }
        await ephemeral.stop()

        let fixed = try await Sandbox.start(port: port)
        #expect(fixed.port == port)
        #expect(try await Client.sendOnFreshConnection(fixed.url("/_test/echo")).status == 200)
        await fixed.stop()
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    private struct WidgetsModule: SandboxModule {
        func register(on router: Router<SandboxRequestContext>, state: SandboxState) {
            let widgets = router.group("widgets/v1")
            widgets.get("items") { _, _ in #"[{"id":"w1"}]"# }
            widgets.get("flaky") { _, _ -> Response in
                let status = state.nextScriptStep("widgets")?.status ?? 200
                return Response(status: .init(code: status))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func modulesMountRoutesThatShareCountersScriptsAndFaults() async throws {
        let configuration = SandboxConfiguration(
            modules: [WidgetsModule()],
            faults: FaultInjection(sequence: [nil, nil, .serviceUnavailable])
        )
        try await Sandbox.withRunning(configuration: configuration) { sandbox in
            let client = Client()
            let items = try await client.send(sandbox.url("/widgets/v1/items"))
            #expect(String(decoding: items.body, as: UTF8.self) == #"[{"id":"w1"}]"#)

            sandbox.script("widgets", [ScriptStep(status: 202)])
            #expect(try await client.send(sandbox.url("/widgets/v1/flaky")).status == 202)
            #expect(try await client.send(sandbox.url("/widgets/v1/items")).status == 503)
            #expect(sandbox.counters().requestsByPath["/widgets/v1/items"] == 2)
        }
    }
}

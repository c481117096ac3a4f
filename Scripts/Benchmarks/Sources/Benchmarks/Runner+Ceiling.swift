import AsyncHTTPClient
import Basecamp
import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient
import HTTPCoreObservability
import HTTPTypes
import Logging
import Markbook
import Metrics
import NIOCore
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Runner {
    // MARK: Server ceiling

    func ceiling() async throws {
        if let wrk = Self.which("wrk") {
            let seconds = settings.rounds <= 3 ? 2 : 5
            let process = Process()
            process.executableURL = wrk
            process.arguments = ["-t2", "-c\(settings.concurrency)", "-d\(seconds)s", documentURL.absoluteString]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            let rate = text.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }
                .flatMap { Double($0.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)) }
            if let rate {
                rows.append(
                    Row(
                        workload: "server ceiling, GET /bench/doc",
                        variant: "wrk -t2 -c\(settings.concurrency) -d\(seconds)s",
                        unit: .throughput,
                        samples: [rate],
                        baseline: nil,
                        note: "server and load generator share the machine"
                    )
                )
                return
            }
        }
        if ceilingSamples.isEmpty {
            let httpClient = self.httpClient
            let url = documentURL.absoluteString
            for _ in 0..<settings.rounds {
                ceilingSamples.append(
                    try await throughput(workers: settings.concurrency, perWorker: settings.perWorker) {
                        var request = HTTPClientRequest(url: url)
                        request.headers.add(name: "Accept", value: "application/json")
                        let response = try await httpClient.execute(request, timeout: .seconds(30))
                        Sink.consume(try await response.body.collect(upTo: 1 << 20).readableBytes)
                    }
                )
            }
        }
        rows.append(
            Row(
                workload: "server ceiling, GET /bench/doc",
                variant: "raw AsyncHTTPClient, \(settings.concurrency) concurrent",
                unit: .throughput,
                samples: ceilingSamples,
                baseline: nil,
                note: "wrk not installed; client and server share the machine"
            )
        )
    }

    static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

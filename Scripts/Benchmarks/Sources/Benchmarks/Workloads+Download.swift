import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient

extension Runner {
    /// 7. Peak RSS of one large download, each in a fresh child process: streamed to a file
    /// with `Client.download(_:to:)` against collected into `Data`, on both transports.
    func downloadMemory() throws {
        let megabytes = settings.downloadBytes >> 20
        for kind in TransportKind.allCases {
            var streamed: [Double] = []
            var collected: [Double] = []
            for run in 0..<settings.memoryRuns {
                for mode in run.isMultiple(of: 2) ? ["file", "memory"] : ["memory", "file"] {
                    let output = try runSelf([
                        "download-child", "--base", baseURL.absoluteString, "--mode", mode,
                        "--transport", kind.rawValue, "--bytes", String(settings.downloadBytes),
                    ])
                    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double(String($0)) }
                    guard fields.count == 2, fields[1] == Double(settings.downloadBytes) else {
                        throw BenchError("download-child printed \(output)")
                    }
                    if mode == "file" { streamed.append(fields[0]) } else { collected.append(fields[0]) }
                }
            }
            rows.append(
                Row(
                    workload: "7. peak RSS (VmHWM), \(megabytes) MiB download, \(kind.rawValue)",
                    variant: "streamed to a file",
                    unit: .kibibytes,
                    samples: streamed,
                    baseline: "collected in memory",
                    baselineSamples: collected,
                    ratios: zip(streamed, collected).map { $0 / $1 },
                    floor: settings.downloadBytes >= 100 << 20 ? .atMost(0.5) : nil,
                    note: "target: streamed peak under 64 MiB whatever the file's size"
                )
            )
        }
    }
}

extension BenchmarkCommand {
    /// One download in its own process, so its peak RSS is its own: prints
    /// `<VmHWM after KiB> <bytes received>`.
    static func downloadChild(_ options: Options) async throws {
        guard let base = options.values["base"].flatMap(URL.init(string:)),
            let mode = options.values["mode"],
            let kind = options.values["transport"].flatMap({ TransportKind(rawValue: $0) })
        else {
            throw BenchError(
                "download-child needs --base URL --mode file|memory --transport URLSession|AsyncHTTPClient"
            )
        }
        let bytes = try options.int("bytes") ?? 200 << 20
        let ownTransport = kind == .asyncHTTPClient ? AsyncHTTPClientTransport() : nil
        let transport: any HTTPTransport = ownTransport ?? URLSessionTransport()
        var configuration = ClientConfiguration(baseURL: base)
        configuration.maxResponseBodySize = bytes + 1
        configuration.timeout = .seconds(120)
        let client = try Client(configuration: configuration, transport: transport)
        let endpoint = Endpoint<Data>(.get, "bench/blob", query: ["bytes": bytes])
        var received = 0
        if mode == "file" {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: file) }
            received = Int(try await client.download(endpoint, to: file, resume: false).byteCount)
        } else {
            let data = try await client.send(endpoint)
            received = data.count
        }
        print(memoryStatusKiB("VmHWM") ?? 0, received)
        try await ownTransport?.shutdown()
    }
}

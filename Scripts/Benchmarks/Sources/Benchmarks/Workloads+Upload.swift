import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient

extension Runner {
    /// 7. Peak RSS of one large upload to a fast loopback server, each in a fresh child process:
    /// streamed from a file with `Client.upload(_:fromFile:)` against sent from `Data`, on both
    /// transports. The sizes are the download row's.
    func uploadMemory() throws {
        let megabytes = settings.downloadBytes >> 20
        for kind in TransportKind.allCases {
            var streamed: [Double] = []
            var inMemory: [Double] = []
            for run in 0..<settings.memoryRuns {
                for mode in run.isMultiple(of: 2) ? ["file", "memory"] : ["memory", "file"] {
                    let output = try runSelf([
                        "upload-child", "--base", baseURL.absoluteString, "--mode", mode,
                        "--transport", kind.rawValue, "--bytes", String(settings.downloadBytes),
                    ])
                    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double(String($0)) }
                    guard fields.count == 2, fields[1] == Double(settings.downloadBytes) else {
                        throw BenchError("upload-child printed \(output)")
                    }
                    if mode == "file" { streamed.append(fields[0]) } else { inMemory.append(fields[0]) }
                }
            }
            rows.append(
                Row(
                    workload: "7. peak RSS (VmHWM), \(megabytes) MiB upload, \(kind.rawValue)",
                    variant: "streamed from a file",
                    unit: .kibibytes,
                    samples: streamed,
                    baseline: "sent from memory",
                    baselineSamples: inMemory,
                    ratios: zip(streamed, inMemory).map { $0 / $1 },
                    floor: settings.downloadBytes >= 100 << 20 ? .atMost(0.5) : nil,
                    note: "target: streamed peak under 64 MiB whatever the file's size"
                )
            )
        }
    }
}

/// What the bench server's sink answers: how many body bytes it read.
struct SinkReceipt: Decodable {
    var bytes: Int
}

extension BenchmarkCommand {
    /// One upload in its own process, so its peak RSS is its own: prints
    /// `<VmHWM after KiB> <bytes the server read>`. The file is written in 1 MiB parts first, so
    /// making it adds nothing to the peak.
    static func uploadChild(_ options: Options) async throws {
        guard let base = options.values["base"].flatMap(URL.init(string:)),
            let mode = options.values["mode"],
            let kind = options.values["transport"].flatMap({ TransportKind(rawValue: $0) })
        else {
            throw BenchError(
                "upload-child needs --base URL --mode file|memory --transport URLSession|AsyncHTTPClient"
            )
        }
        let bytes = try options.int("bytes") ?? 200 << 20
        let ownTransport = kind == .asyncHTTPClient ? AsyncHTTPClientTransport() : nil
        let transport: any HTTPTransport = ownTransport ?? URLSessionTransport()
        var configuration = ClientConfiguration(baseURL: base)
        configuration.timeout = .seconds(120)
        let client = try Client(configuration: configuration, transport: transport)
        let endpoint = Endpoint<SinkReceipt>(.post, "bench/sink")
        let received: Int
        if mode == "file" {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: file) }
            try writeFile(file, bytes: bytes)
            received = try await client.upload(endpoint, fromFile: file).value.bytes
        } else {
            var sent = endpoint
            sent.body = .bytes(Data(repeating: 0x5A, count: bytes))
            received = try await client.send(sent).bytes
        }
        print(memoryStatusKiB("VmHWM") ?? 0, received)
        try await ownTransport?.shutdown()
    }

    private static func writeFile(_ file: URL, bytes: Int) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchError("could not create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let part = Data(repeating: 0x5A, count: 1 << 20)
        var written = 0
        while written < bytes {
            let count = min(part.count, bytes - written)
            try handle.write(contentsOf: part.prefix(count))
            written += count
        }
    }
}

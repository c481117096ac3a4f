import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient

/// Which way workload 7 moves its bytes.
enum TransferDirection: String, CaseIterable {
    case download, upload

    /// The child process that makes one transfer and prints its peak.
    var child: String { rawValue + "-child" }
    /// How the file side moves the bytes, and how the memory side does.
    var sides: (file: String, memory: String) {
        switch self {
        case .download: ("streamed to a file", "collected in memory")
        case .upload: ("streamed from a file", "sent from memory")
        }
    }
}

extension Runner {
    /// 7. Peak RSS of one large transfer, each in a fresh child process: streamed through a file
    /// (`Client.download(_:to:)`, `Client.upload(_:fromFile:)`) against held in `Data`, on both
    /// transports; uploads go to a server that reads as fast as loopback allows.
    func transferMemory(_ direction: TransferDirection) throws {
        let megabytes = settings.downloadBytes >> 20
        for kind in TransportKind.allCases {
            var streamed: [Double] = []
            var inMemory: [Double] = []
            for run in 0..<settings.memoryRuns {
                for mode in run.isMultiple(of: 2) ? ["file", "memory"] : ["memory", "file"] {
                    let output = try runSelf([
                        direction.child, "--base", baseURL.absoluteString, "--mode", mode,
                        "--transport", kind.rawValue, "--bytes", String(settings.downloadBytes),
                    ])
                    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double(String($0)) }
                    guard fields.count == 2, fields[1] == Double(settings.downloadBytes) else {
                        throw BenchError("\(direction.child) printed \(output)")
                    }
                    if mode == "file" { streamed.append(fields[0]) } else { inMemory.append(fields[0]) }
                }
            }
            rows.append(
                Row(
                    workload: "7. peak RSS (VmHWM), \(megabytes) MiB \(direction.rawValue), \(kind.rawValue)",
                    variant: direction.sides.file,
                    unit: .kibibytes,
                    samples: streamed,
                    baseline: direction.sides.memory,
                    baselineSamples: inMemory,
                    ratios: zip(streamed, inMemory).map { $0 / $1 },
                    floor: settings.downloadBytes >= 100 << 20 ? .atMost(0.5) : nil,
                    note: "target: streamed peak under 64 MiB whatever the file's size"
                )
            )
        }
    }
}

/// What a transfer child is told: the server, file or memory, the transport and the size.
struct TransferChildOptions {
    var base: URL
    var toFile: Bool
    var kind: TransportKind
    var bytes: Int

    init(_ options: Options, child: String) throws {
        guard let base = options.values["base"].flatMap(URL.init(string:)),
            let mode = options.values["mode"],
            let kind = options.values["transport"].flatMap({ TransportKind(rawValue: $0) })
        else {
            throw BenchError("\(child) needs --base URL --mode file|memory --transport URLSession|AsyncHTTPClient")
        }
        (self.base, toFile, self.kind) = (base, mode == "file", kind)
        bytes = try options.int("bytes") ?? 200 << 20
    }
}

/// What the bench server's sink answers: how many body bytes it read.
struct SinkReceipt: Decodable {
    var bytes: Int
}

extension BenchmarkCommand {
    /// One download in its own process, so its peak RSS is its own: prints
    /// `<VmHWM after KiB> <bytes received>`.
    static func downloadChild(_ options: Options) async throws {
        let child = try TransferChildOptions(options, child: TransferDirection.download.child)
        try await withTransferClient(child) { client in
            let endpoint = Endpoint<Data>(.get, "bench/blob", query: ["bytes": child.bytes])
            guard child.toFile else { return try await client.send(endpoint).count }
            let file = scratchFile()
            defer { try? FileManager.default.removeItem(at: file) }
            return Int(try await client.download(endpoint, to: file, resume: false).byteCount)
        }
    }

    /// One upload in its own process, so its peak RSS is its own: prints
    /// `<VmHWM after KiB> <bytes the server read>`. The file is written in 1 MiB parts first, so
    /// making it adds nothing to the peak.
    static func uploadChild(_ options: Options) async throws {
        let child = try TransferChildOptions(options, child: TransferDirection.upload.child)
        try await withTransferClient(child) { client in
            var endpoint = Endpoint<SinkReceipt>(.post, "bench/sink")
            guard child.toFile else {
                endpoint.body = .bytes(Data(repeating: 0x5A, count: child.bytes))
                return try await client.send(endpoint).bytes
            }
            let file = scratchFile()
            defer { try? FileManager.default.removeItem(at: file) }
            try writeFile(file, bytes: child.bytes)
            return try await client.upload(endpoint, fromFile: file).value.bytes
        }
    }

    /// Runs `transfer` with a client on the child's transport and prints the peak RSS after it
    /// beside the byte count it returns.
    private static func withTransferClient(
        _ child: TransferChildOptions,
        _ transfer: (Client) async throws -> Int
    ) async throws {
        let ownTransport = child.kind == .asyncHTTPClient ? AsyncHTTPClientTransport() : nil
        let transport: any HTTPTransport = ownTransport ?? URLSessionTransport()
        var configuration = ClientConfiguration(baseURL: child.base)
        configuration.maxResponseBodySize = child.bytes + 1
        configuration.timeout = .seconds(120)
        let client = try Client(configuration: configuration, transport: transport)
        let moved = try await transfer(client)
        print(memoryStatusKiB("VmHWM") ?? 0, moved)
        try await ownTransport?.shutdown()
    }

    private static func scratchFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).bin")
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

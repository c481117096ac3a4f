import Foundation
import HTTPCore
import HTTPCoreAsyncHTTPClient

/// `httpcore-bench`: HTTPCore next to raw transports on a loopback sandbox, printed as a
/// Markdown table. See `Scripts/bench.sh`.
@main
struct BenchmarkCommand {
    static let usage = """
        usage: httpcore-bench [--quick] [--rounds N] [--iterations N] [--workloads a,b,...]
                              [--server process|inprocess] [--chunk N | --interleave] [--list]
                              [--processes N] [--awake-cores] [--rounds-detail] [--postgres-url URL]

          --quick        tiny sizes: proves every workload runs (CI), numbers mean little
          --rounds N     rounds per workload, the sides taking turns in each (default 11)
          --processes N  share the rounds of get, cache, concurrent and hooks among N processes
                         run one after another, and pool them (default 3; 2 with --quick): a
                         process's own bias, fixed when it starts, then moves a few rounds, not all
          --iterations N sequential requests per round (default 300)
          --workloads    comma-separated subset of: \(Workload.allCases.map(\.rawValue).joined(separator: ","))
          --server       where the sandbox runs: a child process (default) or this process
          --list         print the workloads and exit
          --chunk N      per-request workloads switch sides every N calls within a round
                         (default 25); 0 runs each side's round as one block
          --interleave   the same as --chunk 1: call by call (each call then runs after the
                         other sides' code)
          --awake-cores  (Linux) keep every core busy at SCHED_IDLE priority, so no virtual CPU
                         halts between requests; also works with profile-304
          --rounds-detail
                         after the table, list every row's per-round ratios in order, to show
                         how far a ratio moves within a run
          --postgres-url the PostgreSQL server workload 10 runs against (default:
                         HTTPCORE_POSTGRES_URL; without either its rows say "skipped")

        for profilers (perf record):
               httpcore-bench profile-pipeline [count] [200|304|decode|bytes|304-bytes|hooks-bytes|bytes+decode|compare]
               httpcore-bench profile-304 [client|transport|raw|compare|compare-get|decode-times] [count]
                                          [--awake-cores]
               httpcore-bench profile-urlsession [count] [side, e.g. "client + cache"]
        """

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let awakeCores = arguments.contains("--awake-cores")
        arguments.removeAll { $0 == "--awake-cores" }
        do {
            let awake = awakeCores ? try AwakeCores.start() : nil
            defer { awake?.stop() }
            switch arguments.first {
            case "serve":
                try await BenchServer.serveUntilStdinCloses()
            case "profile-pipeline":
                // For `valgrind --tool=callgrind`: the client over an in-memory transport, nothing else.
                try await profilePipeline(
                    count: arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000,
                    variant: arguments.dropFirst(2).first ?? "200"
                )
            case "profile-304":
                // For `perf`: one side of the AsyncHTTPClient revalidation workload, nothing else.
                try await profileRevalidation(Array(arguments.dropFirst()))
            case "profile-urlsession":
                // URLSession's GET: raw, a bare delegate, the transport and the client, side by side.
                try await profileURLSession(
                    count: arguments.dropFirst().first.flatMap { Int($0) } ?? 80,
                    only: arguments.dropFirst(2).first
                )
            case "rounds-child":
                try await roundsChild(Options(Array(arguments.dropFirst())))
            case "walk-child":
                arguments.removeFirst()
                try await walkChild(Options(arguments))
            case "download-child":
                arguments.removeFirst()
                try await downloadChild(Options(arguments))
            case "upload-child":
                arguments.removeFirst()
                try await uploadChild(Options(arguments))
            case "spin":
                try AwakeCores.spinUntilStdinCloses()
            default:
                try await benchmark(Options(arguments), awakeCores: awakeCores)
            }
        } catch {
            FileHandle.standardError.write(Data("httpcore-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Where the rounds ran, for the table's header.
    static func processText(_ shares: [Int]) -> String {
        guard shares.count > 1 else { return "every round in one process" }
        let split = shares.map(String.init).joined(separator: " + ")
        return "the per-request workloads' rounds in \(shares.count) processes (\(split)), pooled"
    }

    /// The sizes `options` ask for, on top of the defaults or `--quick`'s.
    static func settings(_ options: Options) throws -> Settings {
        var settings = options.flags.contains("quick") ? Settings.quick : Settings()
        if let rounds = try options.int("rounds") { settings.rounds = max(rounds, 1) }
        if let iterations = try options.int("iterations") { settings.iterations = max(iterations, 1) }
        if let chunk = try options.int("chunk") { settings.chunk = chunk > 0 ? chunk : nil }
        if options.flags.contains("interleave") { settings.chunk = 1 }
        let postgresURL = options.values["postgres-url"] ?? ProcessInfo.processInfo.environment["HTTPCORE_POSTGRES_URL"]
        settings.postgresURL = postgresURL.flatMap { $0.isEmpty ? nil : $0 }
        return settings
    }

    /// The workloads `--workloads` names, every one without it.
    static func workloads(_ options: Options) throws -> [Workload] {
        try options.values["workloads"].map { list in
            try list.split(separator: ",").map { name in
                guard let workload = Workload(rawValue: String(name)) else {
                    throw BenchError("unknown workload \(name)\n\(usage)")
                }
                return workload
            }
        } ?? Workload.allCases
    }

    /// Where `--server` puts the sandbox: a child process unless it says `inprocess`.
    static func placement(_ options: Options) throws -> ServerPlacement {
        try options.values["server"].map { name in
            guard let placement = ServerPlacement(rawValue: name) else { throw BenchError("unknown --server \(name)") }
            return placement
        } ?? .process
    }

    /// One process's share of a workload's rounds (see ``ProcessRounds``): runs the workload on
    /// a sandbox of its own and prints its rows as JSON for the parent.
    static func roundsChild(_ options: Options) async throws {
        let workloads = try workloads(options)
        guard workloads.count == 1, let workload = workloads.first else {
            throw BenchError("rounds-child runs one workload, not \(workloads.count)")
        }
        let report = try await withRunner(try settings(options), try placement(options)) { runner in
            try await runner.run(workload)
            return ProcessRounds.Report(rows: runner.rows, steal: runner.workloadSteal.first?.share)
        }
        FileHandle.standardOutput.write(try ProcessRounds.encode(report))
    }

    /// How the sides take turns, for the table's header.
    static func alternation(_ settings: Settings) -> String {
        switch settings.chunk {
        case 1?: "call by call"
        case let chunk? where chunk < settings.iterations: "every \(chunk) calls"
        default: "in blocks of a whole round"
        }
    }

    static func benchmark(_ options: Options, awakeCores: Bool) async throws {
        if options.flags.contains("help") || options.flags.contains("h") {
            print(usage)
            return
        }
        if options.flags.contains("list") {
            for workload in Workload.allCases { print("\(workload.rawValue): \(workload.summary)") }
            return
        }
        let quick = options.flags.contains("quick")
        let settings = try Self.settings(options)
        let workloads = try Self.workloads(options)
        let placement = try Self.placement(options)
        let processes = max(try options.int("processes") ?? (quick ? 2 : 3), 1)
        let shares = ProcessRounds.shares(rounds: settings.rounds, processes: processes)

        let clock = ContinuousClock()
        let started = clock.now
        let (runner, baseURL) = try await withRunner(settings, placement) { runner in
            for workload in workloads {
                FileHandle.standardError.write(Data("… \(workload.summary)\n".utf8))
                if shares.count > 1, workload.splitsRounds {
                    try runner.run(workload, roundsPerProcess: shares, placement: placement, quick: quick)
                } else {
                    try await runner.run(workload)
                }
            }
            return (runner, runner.baseURL)
        }

        let documentSize = (try? BenchDocument.encoded().count) ?? 0
        print(
            """
            ## httpcore-bench

            \(machineDescription()); build: \(buildConfiguration); server: sandbox in \
            \(placement == .process ? "a child process" : "this process") on \(baseURL.absoluteString)
            \(settings.rounds) rounds, the sides taking turns \
            \(Self.alternation(settings)); \(settings.iterations) sequential requests per round; \
            \(Self.processText(shares)); /bench/doc is \(documentSize) bytes of JSON. Ratio = median of per-round variant/baseline \
            (speed-up for pagination). Took \(String(format: "%.0f", Stats.seconds(clock.now - started))) s.\
            \(awakeCores ? " Cores kept awake: one SCHED_IDLE spinner per core (--awake-cores)." : "")

            """
        )
        print(Format.table(runner.rows))
        if runner.workloadSteal.contains(where: { $0.share != nil }) {
            let shares = runner.workloadSteal.map { "\($0.workload.rawValue) \(Format.steal($0.share))" }
            print(
                "\nCPU time stolen by the hypervisor while each workload ran (`/proc/stat`; a busy host "
                    + "delays the wake-ups sequential round trips wait for): " + shares.joined(separator: ", ") + "."
            )
        }
        if options.flags.contains("rounds-detail") { print("\n" + Format.roundRatios(runner.rows)) }
        let failures = runner.rows.filter { $0.passes == false }
        if !failures.isEmpty {
            print("\n\(failures.count) floor(s) not met: " + failures.map(Format.failure).joined(separator: "; "))
        }
        if options.flags.contains("strict"), !failures.isEmpty { exit(2) }
    }

    /// `variant`: `200` (no cache), `304` (cache on, every call revalidated), `decode` (no client),
    /// `bytes` (the client returning the body undecoded: the pipeline alone), `304-bytes` (the
    /// same with the cache on, every call revalidated), `hooks-bytes` (`bytes` with the hooks
    /// workload's logging, metrics and tracing over no-op backends), `bytes+decode` (that,
    /// then a decode outside the client), or `compare` (the four in chunks of 25, printing each
    /// one's median call; `bytes+decode` minus `decode` is what the pipeline costs a decode that
    /// follows it).
    static func profilePipeline(count: Int, variant: String) async throws {
        let body = try BenchDocument.encoded()
        guard let base = URL(string: "http://127.0.0.1:9") else { return }
        let client = try Runner.inMemoryClient(
            baseURL: base,
            body: body,
            revalidating: variant.hasPrefix("304"),
            observed: variant == "hooks-bytes"
        )
        let decoder = JSONCoding().makeDecoder()
        if variant == "compare" {
            let sides: [(String, () async throws -> Void)] = [
                ("decode", { Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count) }),
                ("bytes", { Sink.consume(try await client.send(Self.documentBytes).count) }),
                ("200", { Sink.consume(try await client.send(Runner.document).entries.count) }),
                (
                    "bytes+decode",
                    {
                        Sink.consume(try await client.send(Self.documentBytes).count)
                        Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count)
                    }
                ),
            ]
            let times = try await rotatingChunks(rounds: max(count / 25, 1), sides.map(\.1))
            for (index, side) in sides.enumerated() {
                print(side.0, Format.value(Stats.median(times[index]), .time), "median per call")
            }
            return
        }
        let seconds = try await timePerCall(count) {
            switch variant {
            case "decode":
                Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count)
            case "bytes", "304-bytes", "hooks-bytes":
                Sink.consume(try await client.send(Self.documentBytes).count)
            case "bytes+decode":
                Sink.consume(try await client.send(Self.documentBytes).count)
                Sink.consume(try decoder.decode(BenchDocument.self, from: body).entries.count)
            default:
                Sink.consume(try await client.send(Runner.document).entries.count)
            }
        }
        print(Format.value(seconds, .time), "per call")
    }

    private static let documentBytes = Endpoint<Data>(.get, "bench/doc")

    /// `profile-304 client|transport|raw|compare [count]`: see ``Runner/profileRevalidation(mode:count:)``.
    static func profileRevalidation(_ arguments: [String]) async throws {
        let mode = arguments.first ?? "compare"
        let count = arguments.dropFirst().first.flatMap { Int($0) } ?? (mode == "compare" ? 20 : 5_000)
        try await withRunner(Settings(), .process) { runner in
            try await runner.profileRevalidation(mode: mode, count: count)
        }
    }

    /// `profile-urlsession [count] [side]`: see ``Runner/profileURLSession(count:only:)``.
    static func profileURLSession(count: Int, only side: String?) async throws {
        try await withRunner(Settings(), .process) { runner in
            try await runner.profileURLSession(count: count, only: side)
        }
    }

    /// Starts the sandbox and a runner on it, runs `body`, and shuts both down however `body` ends.
    static func withRunner<Result>(
        _ settings: Settings,
        _ placement: ServerPlacement,
        _ body: (Runner) async throws -> Result
    ) async throws -> Result {
        let server = try await BenchServer.start(placement)
        let runner = Runner(settings: settings, baseURL: server.baseURL)
        let result: Result
        do {
            result = try await body(runner)
        } catch {
            try? await runner.shutdown()
            await server.stop()
            throw error
        }
        try await runner.shutdown()
        await server.stop()
        return result
    }

    /// One paginated walk in its own process, so its peak RSS is its own: prints
    /// `<VmHWM before the walk KiB> <VmHWM after KiB> <items>`.
    static func walkChild(_ options: Options) async throws {
        guard let base = options.values["base"].flatMap(URL.init(string:)), let mode = options.values["mode"] else {
            throw BenchError("walk-child needs --base URL --mode stream|collect")
        }
        let total = try options.int("total") ?? 10_000
        let perPage = try options.int("per-page") ?? 50
        let pad = try options.int("pad") ?? 1000
        let transport = AsyncHTTPClientTransport()
        let client = try Client(configuration: ClientConfiguration(baseURL: base), transport: transport)
        let endpoint = Endpoint<[BenchItem]>(
            .get,
            "bench/items",
            query: ["total": total, "per_page": perPage, "pad": pad]
        )
        // Warm the transport and the decoder on one small page so their one-off allocations are
        // in the "before" figure.
        var warm = endpoint
        warm.query = ["total": 1, "per_page": 1, "pad": pad]
        _ = try await client.paginate(warm).collect()
        let before = memoryStatusKiB("VmHWM") ?? 0
        var items = 0
        if mode == "collect" {
            let all = try await client.paginate(endpoint).collect()
            items = all.count
            let after = memoryStatusKiB("VmHWM") ?? 0
            withExtendedLifetime(all) { print(before, after, items) }
        } else {
            for try await item in client.paginate(endpoint) {
                items += 1
                Sink.consume(item.id)
            }
            print(before, memoryStatusKiB("VmHWM") ?? 0, items)
        }
        try await transport.shutdown()
    }

    static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static func machineDescription() -> String {
        let info = ProcessInfo.processInfo
        var cpu = ""
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let name = line.split(separator: ":", maxSplits: 1).last
        {
            cpu = name.trimmingCharacters(in: .whitespaces) + ", "
        }
        let memory = String(format: "%.0f GiB", Double(info.physicalMemory) / 1_073_741_824)
        return "\(cpu)\(info.activeProcessorCount) cores, \(memory) RAM, \(info.operatingSystemVersionString)"
    }
}

/// `--name value` pairs and bare `--flag`s.
struct Options {
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("-") else { throw BenchError("unexpected argument \(argument)") }
            let name = String(argument.drop(while: { $0 == "-" }))
            if let equals = name.firstIndex(of: "=") {
                values[String(name[..<equals])] = String(name[name.index(after: equals)...])
            } else if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--"),
                !["quick", "list", "help", "h", "strict", "interleave", "rounds-detail"].contains(name)
            {
                values[name] = arguments[index + 1]
                index += 1
            } else {
                flags.insert(name)
            }
            index += 1
        }
    }

    func int(_ name: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else { throw BenchError("--\(name) needs a number, not \(text)") }
        return value
    }
}

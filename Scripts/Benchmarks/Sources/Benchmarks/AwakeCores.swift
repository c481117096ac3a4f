import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `--awake-cores`: one spinning child process per core at Linux's `SCHED_IDLE` priority, so no
/// core halts while a workload runs.
///
/// On a virtual machine an idle vCPU halts, and the next wake-up aimed at it (a response handed
/// from an event loop to a waiting task) waits for the hypervisor to run it again. Which side of
/// a sequential workload pays that more often depends on how much unrelated work each keeps
/// running between requests, not on how much work it does, so this diagnostic takes the halts
/// out of a comparison (docs/performance.md shows what it found). `SCHED_IDLE` threads run only
/// when nothing else wants the core, so both sides keep their CPU time; the table's header says
/// when this was on.
struct AwakeCores {
    private let children: [(Process, Pipe)]

    /// Starts one spinner per active core.
    static func start() throws -> AwakeCores {
        #if os(Linux)
        let count = ProcessInfo.processInfo.activeProcessorCount
        let children = try (0..<count).map { _ in
            let (process, input, line) = try launchSelf(["spin"])
            guard line == "spinning" else { throw BenchError("a spinner did not start: \(line)") }
            return (process, input)
        }
        return AwakeCores(children: children)
        #else
        throw BenchError("--awake-cores needs Linux's SCHED_IDLE")
        #endif
    }

    /// Stops the spinners.
    func stop() {
        for (process, input) in children {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The child side: drop to `SCHED_IDLE` and spin until stdin closes.
    static func spinUntilStdinCloses() throws -> Never {
        #if os(Linux)
        // glibc declares SCHED_IDLE only under _GNU_SOURCE, which Swift's Glibc module does not set;
        // 5 is its value in the kernel's ABI (include/uapi/linux/sched.h).
        let schedIdle: Int32 = 5
        var parameters = sched_param()
        guard sched_setscheduler(0, schedIdle, &parameters) == 0 else {
            throw BenchError("sched_setscheduler(SCHED_IDLE) failed: errno \(errno)")
        }
        let watcher = Thread {
            _ = FileHandle.standardInput.readDataToEndOfFile()
            exit(0)
        }
        watcher.start()
        FileHandle.standardOutput.write(Data("spinning\n".utf8))
        var turns = 0
        while true {
            turns &+= 1
            Sink.consume(turns)
        }
        #else
        throw BenchError("--awake-cores needs Linux's SCHED_IDLE")
        #endif
    }
}

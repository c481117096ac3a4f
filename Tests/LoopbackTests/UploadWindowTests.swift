import HTTPCore
import NIOCore
import NIOEmbedded
import Testing

@testable import HTTPCoreAsyncHTTPClient

@Suite("An upload's read-ahead window")
struct UploadWindowTests {
    @Test("Slots are taken at once until none is free; a slot given back lets the next read go")
    func takesAndGives() {
        let loop = EmbeddedEventLoop()
        let window = UploadWindow(chunks: 2, eventLoop: loop)
        let taken = (0..<3).map { _ in Locked(false) }
        for (index, flag) in taken.enumerated() {
            window.take().whenSuccess { flag.withLock { $0 = true } }
            loop.run()
            #expect(flag.withLock { $0 } == (index < 2), "take \(index + 1) of a window of 2")
        }
        window.give()
        loop.run()
        #expect(taken[2].withLock { $0 })
    }

    @Test("A read waiting when the exchange ends fails, and later takes fail at once")
    func closes() {
        let loop = EmbeddedEventLoop()
        let window = UploadWindow(chunks: 1, eventLoop: loop)
        _ = window.take()
        let waiting = window.take()
        let failed = Locked(0)
        waiting.whenFailure { _ in failed.withLock { $0 += 1 } }
        loop.run()
        #expect(failed.withLock { $0 } == 0)
        window.close()
        window.take().whenFailure { _ in failed.withLock { $0 += 1 } }
        loop.run()
        #expect(failed.withLock { $0 } == 2)
    }
}

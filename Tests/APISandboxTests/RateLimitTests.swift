import APISandbox
import Foundation
import Testing

/// `SandboxRateLimiter` and the settings read from the environment.
@Suite("Rate limits and sandbox settings")
struct RateLimitTests {
    @Test("50 per 10 s: the 51st in the window waits until the oldest leaves it; refusals are not counted")
    func slidingWindow() {
        let limiter = SandboxRateLimiter(.basecamp)
        let start = Duration.seconds(100)
        for offset in 0..<50 {
            #expect(limiter.admit("1 127.0.0.1", at: start + .milliseconds(offset * 100)) == nil)
        }
        #expect(limiter.admit("1 127.0.0.1", at: start + .seconds(6)) == .seconds(4))
        #expect(limiter.admit("1 127.0.0.1", at: start + .seconds(9)) == .seconds(1))
        #expect(limiter.admit("2 127.0.0.1", at: start + .seconds(9)) == nil, "another account has its own window")
        #expect(limiter.admit("1 ::1", at: start + .seconds(9)) == nil, "another address has its own window")
        #expect(limiter.admit("1 127.0.0.1", at: start + .seconds(10)) == nil, "the first request has left")
        #expect(limiter.admit("1 127.0.0.1", at: start + .seconds(10)) == .milliseconds(100))
    }

    @Test("Switched off it admits everything; a new limit starts counting afresh")
    func switching() {
        let limiter = SandboxRateLimiter(SandboxRateLimit(1, per: .seconds(60)))
        #expect(limiter.admit("a", at: .zero) == nil)
        #expect(limiter.admit("a", at: .zero) != nil)
        limiter.setLimit(nil)
        #expect(limiter.limit == nil)
        #expect((0..<1000).allSatisfy { _ in limiter.admit("a", at: .zero) == nil })
        limiter.setLimit(SandboxRateLimit(2, per: .seconds(60)))
        #expect(limiter.admit("a", at: .zero) == nil)
        #expect(limiter.admit("a", at: .zero) == nil)
        #expect(limiter.admit("a", at: .zero) != nil)
    }

    @Test("Retry-After is whole seconds, rounded up, at least 1")
    func retryAfter() {
        #expect(SandboxRateLimiter.retryAfter(.seconds(4)) == "4")
        #expect(SandboxRateLimiter.retryAfter(.milliseconds(3001)) == "4")
        #expect(SandboxRateLimiter.retryAfter(.milliseconds(1)) == "1")
        #expect(SandboxRateLimiter.retryAfter(.zero) == "1")
        #expect(SandboxRateLimit.basecamp.description == "50 requests per 10 seconds")
        #expect(SandboxRateLimit(20, per: .milliseconds(500)).description == "20 requests per 0.5 seconds")
    }

    @Test("Settings: off, REQUESTS/SECONDS, sizes with K/M/G; anything else names the variable")
    func settings() throws {
        let name = "X_RATE_LIMIT"
        #expect(try SandboxSettings.rateLimit(name, in: [:], default: .basecamp) == .basecamp)
        #expect(try SandboxSettings.rateLimit(name, in: [name: ""], default: .basecamp) == .basecamp)
        #expect(try SandboxSettings.rateLimit(name, in: [name: "OFF"], default: .basecamp) == nil)
        #expect(
            try SandboxSettings.rateLimit(name, in: [name: "20/0.5"], default: nil)
                == SandboxRateLimit(20, per: .milliseconds(500))
        )
        for bad in ["fast", "0/10", "50/0", "50", "50/-1", "50/x"] {
            #expect(throws: SandboxSettingError.self) {
                try SandboxSettings.rateLimit(name, in: [name: bad], default: nil)
            }
        }
        do {
            _ = try SandboxSettings.rateLimit(name, in: [name: "fast"], default: nil)
        } catch {
            #expect(
                error.description == "X_RATE_LIMIT='fast' is not understood: give REQUESTS/SECONDS (e.g. 50/10) or off."
            )
        }
        let size = "X_MAX"
        #expect(try SandboxSettings.byteCount(size, in: [:], default: 7) == 7)
        #expect(try SandboxSettings.byteCount(size, in: [size: "1048576"], default: 7) == 1 << 20)
        #expect(try SandboxSettings.byteCount(size, in: [size: "64k"], default: 7) == 64 << 10)
        #expect(try SandboxSettings.byteCount(size, in: [size: "3M"], default: 7) == 3 << 20)
        #expect(try SandboxSettings.byteCount(size, in: [size: "2G"], default: 7) == 2 << 30)
        for bad in ["big", "-1", "0", "1T", "99999999999G"] {
            #expect(throws: SandboxSettingError.self) {
                try SandboxSettings.byteCount(size, in: [size: bad], default: 7)
            }
        }
    }
}

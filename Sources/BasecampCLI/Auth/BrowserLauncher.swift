import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens an address in the user's browser, where there is one: `$BROWSER` when set, else
/// `open` on macOS and `xdg-open` elsewhere. Never fails the sign-in: without a browser the
/// user opens the printed address themselves.
enum BrowserLauncher {
    /// Starts the browser on `url`; `false` when no launcher was found or it could not start.
    static func open(_ url: URL, variables: [String: String]) -> Bool {
        guard let command = launcher(variables: variables) else { return false }
        // The URL is an argument of its own ("$1"), never part of the shell text.
        let arguments = ["/bin/sh", "-c", command + " \"$1\" >/dev/null 2>&1 </dev/null &", "sh", url.absoluteString]
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment = variables.map { "\($0.key)=\($0.value)" }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, envp) == 0 else { return false }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return true
    }

    /// The command to run, or `nil` when none is available.
    static func launcher(variables: [String: String]) -> String? {
        if let browser = variables["BROWSER"]?.split(separator: ":").first.map(String.init),
            !browser.trimmingCharacters(in: .whitespaces).isEmpty
        {
            return browser
        }
        #if canImport(Darwin)
        let candidates = ["open"]
        #else
        let candidates = ["xdg-open", "wslview"]
        #endif
        let path = variables["PATH"] ?? "/usr/bin:/bin"
        for name in candidates {
            for directory in path.split(separator: ":") {
                let candidate = "\(directory)/\(name)"
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        return nil
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The package's one way to write a file: whole or not at all where the destination is a file,
/// in place where it is a stream (see ``FileDestination``).
///
/// For a new path or a regular file, the bytes go to a staging file beside the target, which is
/// flushed to disk and then renamed over the target in one step, so the target only ever holds
/// its old content or the complete new one. A device, FIFO, socket or standard output is opened
/// as it is and written as the bytes arrive.
///
/// ```swift
/// try FileWriter.save(data, to: FileDestination(path: "grid.csv", replacing: force))
/// ```
package final class FileWriter: Sendable {
    /// Where a file's bytes wait until they are complete.
    package enum Staging: Sendable {
        /// A hidden file with a name of its own beside the target, removed when the write fails.
        case temporary
        /// `NAME.partial` beside the target, kept when the write fails so a later write can
        /// continue it (a resumable download).
        case partial
    }

    /// Who may read what is written.
    package enum Permissions: Sendable {
        /// A new file is readable as the umask allows; a replaced file keeps its mode.
        case standard
        /// Readable and writable by its owner only (0600), from the first byte: for secrets.
        case ownerOnly
    }

    /// Where the bytes end up.
    package let destination: FileDestination
    /// The file the bytes wait in, beside the target; `nil` for a stream.
    package let stagingFile: URL?

    private let staging: Staging
    private let permissions: Permissions
    private let state: Locked<State>

    private struct State: Sendable {
        var descriptor: Int32 = -1
        var position: Int64 = 0
        var finished = false
    }

    /// Opens a stream now, and creates a temporary staging file now; a partial one is opened on
    /// first use.
    ///
    /// - Throws: ``FileWriteError`` when the stream or the staging file cannot be opened.
    package init(
        to destination: FileDestination,
        staging: Staging = .temporary,
        permissions: Permissions = .standard
    ) throws(FileWriteError) {
        self.destination = destination
        self.staging = staging
        self.permissions = permissions
        let target = destination.target
        var descriptor: Int32
        switch (destination.kind, staging) {
        case (.standardOutput, _):
            // A copy, so closing it when done leaves the process's standard output open.
            descriptor = dup(STDOUT_FILENO)
            stagingFile = nil
        case (.stream, _):
            descriptor = open(target.path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            stagingFile = nil
        case (.newFile, .temporary), (.regularFile, .temporary):
            let file = target.deletingLastPathComponent()
                .appending(path: ".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
            stagingFile = file
            descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, Self.mode(permissions, destination))
        case (.newFile, .partial), (.regularFile, .partial):
            stagingFile = target.deletingLastPathComponent().appending(path: target.lastPathComponent + ".partial")
            descriptor = 0
        }
        guard descriptor >= 0 else { throw destination.failure(.system(errno: errno)) }
        state = Locked(State(descriptor: staging == .partial && !destination.isStream ? -1 : descriptor))
    }

    deinit {
        let (descriptor, finished) = state.withLock { ($0.descriptor, $0.finished) }
        guard !finished else { return }
        if descriptor >= 0 { FileDescriptorIO.close(descriptor) }
        if staging == .temporary, let stagingFile { unlink(stagingFile.path) }
    }

    /// Writes `data` to `destination` whole (or, for a stream, in place) and finishes.
    ///
    /// - Throws: ``FileWriteError``; a file destination is left as it was.
    package static func save(
        _ data: Data,
        to destination: FileDestination,
        permissions: Permissions = .standard
    ) throws(FileWriteError) {
        let writer = try FileWriter(to: destination, permissions: permissions)
        try writer.write(data)
        try writer.commit()
    }

    /// Puts `file`, complete and written by other means, at `destination`: renamed into place
    /// for a file destination (`file` must be in the target's folder), copied and removed for a
    /// stream.
    ///
    /// - Throws: ``FileWriteError``; `file` is kept when it could not be renamed.
    package static func move(_ file: URL, to destination: FileDestination) throws(FileWriteError) {
        guard destination.isStream else {
            if destination.kind == .regularFile, let mode = existingMode(destination) { _ = chmod(file.path, mode) }
            if let reason = place(file.path, at: destination) { throw destination.failure(reason) }
            return
        }
        defer { unlink(file.path) }
        let writer = try FileWriter(to: destination)
        let source = open(file.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw FileWriteError(path: file.path, reason: .system(errno: errno)) }
        defer { FileDescriptorIO.close(source) }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw FileWriteError(path: file.path, reason: .system(errno: errno))
            }
            try writer.write(Data(buffer[..<count]))
        }
        try writer.commit()
    }

    /// Bytes in the staging file, or written to the stream, so far.
    package var position: Int64 { state.withLock { $0.position } }

    /// Continues from `offset`: the staging file is cut to `offset` bytes (0 starts over); a
    /// stream can only go on where it is.
    ///
    /// - Throws: ``FileWriteError`` (``FileWriteError/Reason/streamRestarted`` for a stream
    ///   asked to go back).
    package func reposition(to offset: Int64) throws(FileWriteError) {
        let failure = state.withLock { state -> FileWriteError.Reason? in
            if destination.isStream {
                return offset == state.position ? nil : .streamRestarted
            }
            if let reason = openStaging(&state) { return reason }
            guard ftruncate(state.descriptor, off_t(offset)) == 0, lseek(state.descriptor, off_t(offset), SEEK_SET) >= 0
            else { return .system(errno: errno) }
            state.position = offset
            return nil
        }
        if let failure { throw destination.failure(failure) }
    }

    /// Appends `data`.
    ///
    /// - Throws: ``FileWriteError``; a temporary staging file is removed.
    package func write(_ data: Data) throws(FileWriteError) {
        let failure = state.withLock { state -> FileWriteError.Reason? in
            if state.descriptor < 0, let reason = openStaging(&state) { return reason }
            if let code = FileDescriptorIO.writeAll(data, to: state.descriptor) { return .system(errno: code) }
            state.position += Int64(data.count)
            return nil
        }
        guard let failure else { return }
        if staging == .temporary { discard() }
        throw destination.failure(failure)
    }

    /// Closes a staging file between attempts (the next write opens it again where it ends); a
    /// stream stays open.
    package func closeStaging() {
        guard !destination.isStream else { return }
        state.withLock { state in
            if state.descriptor >= 0 { FileDescriptorIO.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// Finishes: a staging file is flushed to disk and renamed over the target (never over an
    /// existing file when the destination may not replace one); a stream is closed.
    ///
    /// - Throws: ``FileWriteError``; the target is left as it was, a temporary staging file is
    ///   removed and a partial one kept.
    package func commit() throws(FileWriteError) {
        let failure = state.withLock { state -> FileWriteError.Reason? in
            guard !state.finished else { return nil }
            if destination.isStream {
                state.finished = true
                FileDescriptorIO.close(state.descriptor)
                return nil
            }
            // A download with no body never opened its partial file.
            if state.descriptor < 0, let reason = openStaging(&state) { return reason }
            defer {
                FileDescriptorIO.close(state.descriptor)
                state.descriptor = -1
            }
            guard fsync(state.descriptor) == 0 else { return .system(errno: errno) }
            if destination.kind == .regularFile, permissions == .standard, let mode = Self.existingMode(destination) {
                _ = fchmod(state.descriptor, mode)
            }
            guard let stagingFile, let reason = Self.place(stagingFile.path, at: destination) else {
                state.finished = true
                return nil
            }
            return reason
        }
        guard let failure else { return }
        if staging == .temporary { discard() }
        throw destination.failure(failure)
    }

    /// Stops and removes the staging file; the target is left as it was.
    package func discard() {
        state.withLock { state in
            if state.descriptor >= 0 { FileDescriptorIO.close(state.descriptor) }
            state.descriptor = -1
            state.finished = true
        }
        if let stagingFile { unlink(stagingFile.path) }
    }

    /// Opens the staging file for writing at its end, never through a symbolic link, and holds
    /// an exclusive lock on it while it is open, so two downloads to one target cannot write the
    /// same partial file; the reason when it cannot be.
    private func openStaging(_ state: inout State) -> FileWriteError.Reason? {
        guard state.descriptor < 0 else { return nil }
        guard let stagingFile else { return .system(errno: EBADF) }
        let descriptor = open(
            stagingFile.path,
            O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
            Self.mode(permissions, destination)
        )
        guard descriptor >= 0 else { return .system(errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            FileDescriptorIO.close(descriptor)
            return code == EWOULDBLOCK ? .inUse : .system(errno: code)
        }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            let code = errno
            FileDescriptorIO.close(descriptor)
            return .system(errno: code)
        }
        state.descriptor = descriptor
        state.position = Int64(end)
        return nil
    }

    /// The mode of the file a regular-file destination replaces, which the new file takes, as an
    /// editor's save keeps it.
    private static func existingMode(_ destination: FileDestination) -> mode_t? {
        var info = stat()
        guard stat(destination.target.path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// Renames `file` to the destination's target; without ``FileDestination/replacing``, never
    /// over a file that is there by now. Returns why it could not.
    private static func place(_ file: String, at destination: FileDestination) -> FileWriteError.Reason? {
        let target = destination.target.path
        guard !destination.replacing else {
            return rename(file, target) == 0 ? nil : .system(errno: errno)
        }
        // link(2) fails when the name is taken, so a file that appeared meanwhile is kept.
        if link(file, target) == 0 {
            unlink(file)
            return nil
        }
        let code = errno
        guard code != EEXIST else { return .exists }
        guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(code) else { return .system(errno: code) }
        // A file system without hard links: check, then rename.
        guard access(target, F_OK) != 0 else { return .exists }
        return rename(file, target) == 0 ? nil : .system(errno: errno)
    }

    /// The mode a staging file is created with: owner-only when asked; else that of the file it
    /// will replace, so a private file's new content is never readable by others on its way in.
    private static func mode(_ permissions: Permissions, _ destination: FileDestination) -> mode_t {
        guard permissions == .standard else { return 0o600 }
        return destination.kind == .regularFile ? existingMode(destination) ?? 0o666 : 0o666
    }
}

import APISandbox
import Foundation

/// What a Markbook sandbox state file holds: the school's data without its sessions, with the
/// layout's version, so a file from another layout is refused rather than misread.
struct SavedSchool: Codable, Equatable {
    /// Bumped when the layout changes.
    static let currentVersion = 1

    var version: Int
    var world: SandboxWorld

    init(_ world: SandboxWorld) {
        version = Self.currentVersion
        self.world = world
        self.world.sessions = [:]
    }

    /// The school saved in `file`, or `nil` when there is no file yet or it is empty.
    ///
    /// - Throws: ``APISandbox/SandboxStateFileError`` when the file cannot be used.
    static func load(from file: SandboxStateFile) throws -> SandboxWorld? {
        try file.load(SavedSchool.self, version: currentVersion)?.world
    }
}

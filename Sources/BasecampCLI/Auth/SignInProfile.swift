import ArgumentParser
import CLISupport
import Foundation

/// A named sign-in kept beside the others (`--profile work`, `BASECAMP_PROFILE=work`), each with
/// its own server, accounts and integration; the default profile is the sign-in `basecamp` has
/// always kept, in the config folder itself.
struct SignInProfile: Hashable, Sendable {
    /// What `--profile` and `BASECAMP_PROFILE` call the default profile.
    static let defaultName = "default"

    /// The default profile.
    static let `default` = SignInProfile(checked: defaultName)

    /// The profile's name; ``defaultName`` for the default one.
    let name: String

    /// Whether this is the default profile, kept in the config folder itself.
    var isDefault: Bool { name == Self.defaultName }

    private init(checked name: String) {
        self.name = name
    }

    /// A profile by name: letters, digits, `.`, `_` and `-`, at most 64, starting with a letter or
    /// digit, so a name is always one folder inside the config folder and never a path.
    ///
    /// - Throws: `ValidationError` (exit 64) naming what is wrong; `source` says where the name
    ///   came from (`--profile`, `BASECAMP_PROFILE`).
    init(_ name: String, source: String = "--profile") throws {
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
        guard !name.isEmpty, name.count <= 64, allowed, let first = name.unicodeScalars.first,
            CharacterSet.alphanumerics.contains(first), !name.contains("..")
        else {
            throw ValidationError(
                "\(source) \"\(name.prefix(64))\" is not a profile name: use letters, digits, '.', '_' and '-' "
                    + "(at most 64, starting with a letter or digit), e.g. work."
            )
        }
        self.init(checked: name)
    }

    /// The profile `--profile` names, else `BASECAMP_PROFILE`, else the default one.
    ///
    /// - Throws: `ValidationError` (exit 64) for a name that cannot be a profile.
    static func selected(option: String?, context: CommandContext) throws -> SignInProfile {
        if let option { return try SignInProfile(option) }
        if let variable = context.toolVariable("PROFILE") {
            return try SignInProfile(variable, source: "BASECAMP_PROFILE")
        }
        return .default
    }

    /// ` --profile NAME` for a command to suggest, or nothing for the default profile.
    var commandOption: String { isDefault ? "" : " --profile \(name)" }
}

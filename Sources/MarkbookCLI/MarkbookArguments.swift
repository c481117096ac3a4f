import ArgumentParser
import Foundation
import Markbook

extension Gender: ExpressibleByArgument {}

/// Checks of argument values that need no request, so a mistake is a usage error (exit 64)
/// before anything is sent.
enum MarkbookArgument {
    /// A markbook, student, task or class key: a whole number above 0.
    static func key(_ text: String) throws -> Int {
        guard let key = Int(text), key > 0 else {
            throw ValidationError("keys are whole numbers above 0 (see 'markbook list' and 'markbook show KEY').")
        }
        return key
    }

    /// Refuses a `--result` that is neither empty (which clears the result) nor acceptable to the
    /// SDK's result rules whatever the task: a plain decimal (an optional sign, digits, an optional
    /// point and fraction), or text under `--text`. `1e3`, `NaN`, `inf`, `0x10` and `12,5` look
    /// like numbers to some readers and not to others, so they are always refused.
    static func checkResult(_ text: String, allowsText: Bool) throws {
        let value = text.trimmingCharacters(in: .whitespaces)
        let rules = MarkbookResultRules(allowsOutOfRange: true, allowsText: allowsText)
        guard !value.isEmpty, let problem = rules.formatProblem(value) else { return }
        let shown = "--result \"\(value.prefix(40))\""
        switch problem {
        case .notADecimal, .notANumber:
            let comma =
                value.contains(",")
                ? " Use a point for the decimals, e.g. \(value.replacingOccurrences(of: ",", with: "."))." : ""
            let advice =
                allowsText
                ? "Text that looks like a number is never stored as text."
                : "To store text instead (a grade such as \"A\"), add --text."
            throw ValidationError("\(shown) is not a plain decimal number such as 42 or 42.5.\(comma) \(advice)")
        default:
            throw ValidationError("\(shown) cannot be a result: \(problem).")
        }
    }
}

/// The markbook a command works on: its first argument, shared by every command that takes one.
struct MarkbookKeyArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The markbook's key (see 'markbook list').", valueName: "key"),
        transform: MarkbookArgument.key
    )
    var key: Int
}

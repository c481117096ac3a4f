import Foundation

/// Swift names for wire names: lowerCamelCase with `ID` and `URL` as Swift spells them.
enum Naming {
    static let acronyms: [String: String] = ["id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs"]

    /// `due_on` → `dueOn`, `app_url` → `appURL`, `assignee_ids[]` → `assigneeIDs`.
    static func propertyName(_ wire: String) -> String {
        let base = wire.hasSuffix("[]") ? String(wire.dropLast(2)) : wire
        return join(words(base))
    }

    /// `todoId` → `todoID`, `assignee_ids[]` → `assigneeIDs`.
    static func parameterName(_ wire: String) -> String {
        propertyName(wire)
    }

    /// `status` → `Status`, `documentType` → `DocumentType`.
    static func typeName(fromProperty name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// `CreateTodoRequestContent` → `CreateTodoRequest`.
    static func typeName(schema: String) -> String {
        for suffix in ["RequestContent", "ResponseContent"] where schema.hasSuffix(suffix) {
            return String(schema.dropLast("Content".count))
        }
        return schema
    }

    /// `cardColumns` → `CardColumnsService`.
    static func serviceTypeName(_ service: String) -> String {
        typeName(fromProperty: service) + "Service"
    }

    /// `GetTodo` → `getTodo`.
    static func lowerFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// A retry policy's name, from how it differs from HTTPCore's default policy (3 attempts on
    /// 429 and 503, exponential backoff from 1 s): `standard`, `twoAttempts`, `baseDelay2s`,
    /// `twoAttemptsLinearOn429And500`.
    static func retryPolicyName(_ retry: RetryModel) -> String {
        let numbers = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        var parts: [String] = []
        if retry.maxAttempts != 3 {
            parts.append(
                numbers.indices.contains(retry.maxAttempts)
                    ? "\(numbers[retry.maxAttempts])Attempts" : "attempts\(retry.maxAttempts)"
            )
        }
        if retry.baseDelayMilliseconds != 1000 {
            let delay = retry.baseDelayMilliseconds
            parts.append(delay % 1000 == 0 ? "baseDelay\(delay / 1000)s" : "baseDelay\(delay)ms")
        }
        if retry.backoff != "exponential" { parts.append(retry.backoff) }
        if retry.retryOn != [429, 503] {
            parts.append("on" + retry.retryOn.map(String.init).joined(separator: "And"))
        }
        guard let first = parts.first else { return "standard" }
        return lowerFirst(first) + parts.dropFirst().map { typeName(fromProperty: $0) }.joined()
    }

    /// The `{name}` placeholders of a path template, in order.
    static func placeholders(in path: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in path {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                names.append(name)
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return names
    }

    /// Words of `snake_case` or `lowerCamelCase` text, lowercased.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character == "_" || character == "-" || character == "." {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = String(character).lowercased()
            } else {
                current += String(character).lowercased()
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func join(_ words: [String]) -> String {
        guard let first = words.first else { return "value" }
        return first + words.dropFirst().map { acronyms[$0] ?? ($0.prefix(1).uppercased() + $0.dropFirst()) }.joined()
    }

    /// An enum case for a wire value: `active` → `active`, `Sunday` → `sunday`.
    static func caseName(_ value: String) -> String {
        let name = join(words(value.filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }))
        if let first = name.first, first.isNumber { return "value" + name }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch",
        "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "unknown",
    ]

    /// Escapes a property or argument name that is a Swift keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) && name != "unknown" ? "`\(name)`" : name
    }
}

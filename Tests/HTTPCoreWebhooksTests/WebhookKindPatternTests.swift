import Testing

@testable import HTTPCoreWebhooks

@Suite struct WebhookKindPatternTests {
    @Test(arguments: [
        ("todo_*", "todo_created", true),
        ("todo_*", "todo_", true),
        ("todo_*", "todolist_created", false),
        ("todo_*", "comment_created", false),
        ("*_created", "comment_created", true),
        ("*_created", "todo_created", true),
        ("*_created", "todo_completed", false),
        ("*_created", "_created", true),
        ("*", "", true),
        ("*", "anything_at_all", true),
        ("todo_created", "todo_created", true),
        ("todo_created", "todo_created_again", false),
        ("todo_created", "Todo_created", false),
        ("todo_*_changed", "todo_content_changed", true),
        ("todo_*_changed", "todo_changed", false),
        ("*_*", "ab", false),
        ("*_*", "a_b", true),
        ("a*a", "a", false),
        ("a*a", "aa", true),
        ("**", "x", true),
        ("", "", true),
        ("", "x", false),
    ])
    func matches(_ pattern: String, _ kind: String, _ expected: Bool) {
        #expect(WebhookKindPattern(pattern).matches(kind) == expected)
    }
}

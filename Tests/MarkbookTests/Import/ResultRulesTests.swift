import Markbook
import Testing

@Suite("Result values: what an import may write")
struct ResultRulesTests {
    let task = ImportFixtures.algebra  // maximum 50

    @Test(
        "Plain decimals from 0 to the maximum pass, in their shortest form",
        arguments: [
            ("42.5", "42.5"), ("42.50", "42.5"), ("042", "42"), ("+7", "7"), ("0", "0"), ("-0", "0"),
            (".5", "0.5"), ("5.", "5"), ("50", "50"), ("50.000", "50"), (" 12.25 ", "12.25"),
            ("0.000001", "0.000001"),
        ]
    )
    func accepted(value: String, written: String) {
        #expect(MarkbookResultRules().check(value, for: task) == .success(written))
    }

    @Test(
        "Numbers that are not plain decimals are refused, even when text is allowed",
        arguments: ["1e3", "NaN", "nan", "inf", "-inf", "Infinity", "0x10", "12,5", "1_000", "4.5.6", "½", "--3", "3-"]
    )
    func notADecimal(value: String) {
        #expect(MarkbookResultRules().check(value, for: task) == .failure(.notADecimal))
        #expect(MarkbookResultRules(allowsText: true).check(value, for: task) == .failure(.notADecimal))
    }

    @Test("Free text is refused unless allowed")
    func text() {
        #expect(MarkbookResultRules().check("ABS", for: task) == .failure(.notANumber))
        #expect(MarkbookResultRules(allowsText: true).check(" ABS ", for: task) == .success("ABS"))
    }

    @Test("Out of range: below 0 or above the maximum, unless allowed", arguments: ["-1", "-0.5", "50.5", "51", "500"])
    func outOfRange(value: String) {
        #expect(MarkbookResultRules().check(value, for: task) == .failure(.outOfRange(maximum: 50)))
        #expect(MarkbookResultRules(allowsOutOfRange: true).check(value, for: task).isSuccess)
    }

    @Test("More decimal places than the API keeps are refused; control characters too")
    func precisionAndControls() {
        #expect(MarkbookResultRules().check("1.0000001", for: task) == .failure(.tooManyDecimalPlaces(allowed: 6)))
        #expect(MarkbookResultRules().check("1.5000000", for: task) == .success("1.5"), "trailing zeros are not places")
        #expect(MarkbookResultRules(allowsText: true).check("A\nB", for: task) == .failure(.controlCharacters))
    }

    @Test("sameResult compares decimals by value and text exactly; display shortens decimals")
    func comparing() {
        #expect(MarkbookResultRules.sameResult("67.500000", "67.5"))
        #expect(MarkbookResultRules.sameResult("0.000000", "0"))
        #expect(!MarkbookResultRules.sameResult("67.500000", "67.55"))
        #expect(MarkbookResultRules.sameResult("ABS", " ABS"))
        #expect(!MarkbookResultRules.sameResult("ABS", "abs"))
        #expect(MarkbookResultRules.display("81.000000") == "81")
        #expect(MarkbookResultRules.display("9.500000") == "9.5")
        #expect(MarkbookResultRules.display("ABS") == "ABS")
    }

    @Test("Problems have stable codes and readable descriptions")
    func problems() {
        #expect(MarkbookValueProblem.outOfRange(maximum: 50).code == "out_of_range")
        #expect(MarkbookValueProblem.outOfRange(maximum: 50).description.contains("50"))
        #expect(MarkbookValueProblem.notADecimal.code == "not_a_decimal")
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

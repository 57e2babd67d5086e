import AccessCore
import Testing

/// Each username rule on both sides of its edge.
@Suite struct UsernameRulesTests {
    @Test(arguments: ["abc", "jdoe", "j.doe_42", String(repeating: "a", count: 30), "  JDoe  "])
    func goodNames(name: String) {
        #expect(UsernameRules.problems(name) == [])
    }

    @Test func lengthIsThreeToThirty() {
        #expect(UsernameRules.problems("ab") == [.tooShort])
        #expect(UsernameRules.problems("") == [.tooShort])
        #expect(UsernameRules.problems(String(repeating: "a", count: 31)) == [.tooLong])
    }

    @Test(arguments: ["j doe", "jdoe!", "jdöe", "j-doe", "jd🙂e"])
    func onlyLettersDigitsDotsAndUnderscores(name: String) {
        #expect(UsernameRules.problems(name).contains(.characters))
    }

    @Test(arguments: ["1jdoe", ".jdoe", "_jdoe"])
    func startsWithALetter(name: String) {
        #expect(UsernameRules.problems(name) == [.firstCharacter])
    }

    @Test func storedLowercasedAndTrimmed() {
        #expect(UsernameRules.normalized("  JDoe ") == "jdoe")
        #expect(UsernameRules.Problem(rawValue: "first_character") == .firstCharacter)
    }
}

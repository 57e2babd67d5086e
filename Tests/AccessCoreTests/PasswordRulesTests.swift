import Foundation
import Testing

@testable import AccessCore

@Suite struct PasswordRulesTests {
    @Test func lengthCountsUnicodeScalarsLikePython() {
        #expect(PasswordRules.violations("vtk-93q", email: nil) == [.tooShort])
        #expect(PasswordRules.violations("vtk-93qz", email: nil) == [])
        // Python's len("e\u0301" * 4) is 8 (code points) though it shows four characters.
        #expect(PasswordRules.violations(String(repeating: "e\u{301}", count: 4), email: nil) == [])
        #expect(PasswordRules.violations("ééééééé", email: nil) == [.tooShort])
    }

    @Test func commonPasswordsAreRejectedIgnoringCaseAndSurroundingSpace() {
        #expect(PasswordRules.isCommon("password1"))
        #expect(PasswordRules.isCommon("qwerty123"))
        #expect(PasswordRules.isCommon("PassWord1"))
        #expect(PasswordRules.isCommon("  qwerty123\t"))
        // Python's str.strip() also removes U+001C...U+001F, which Unicode does not call white space.
        #expect(PasswordRules.isCommon("\u{1C}password1\u{1F}"))
        #expect(!PasswordRules.isCommon("violet-tractor-93"))
        #expect(!PasswordRules.isCommon("pass word1"))
        #expect(PasswordRules.violations("Password1", email: nil) == [.tooCommon])
        #expect(PasswordRules.violations("violet-tractor-93", email: nil) == [])
    }

    @Test func allDigitsFollowsPythonIsdigit() {
        #expect(PasswordRules.violations("80235716", email: nil) == [.allDigits])
        #expect(PasswordRules.violations("8023571a", email: nil) == [])
        // "１２３４５６７８".isdigit() and "٣٣٣٣٣٣٣٣".isdigit() are True in Python, "½½½½½½½½" False.
        #expect(PasswordRules.isAllDigits("１２３４５６７８"))
        #expect(PasswordRules.isAllDigits("٣٣٣٣٣٣٣٣"))
        #expect(!PasswordRules.isAllDigits("½½½½½½½½"))
        #expect(!PasswordRules.isAllDigits(""))
    }

    @Test func violationsListEveryBrokenRuleInOrder() {
        #expect(PasswordRules.violations("12345678", email: nil) == [.tooCommon, .allDigits])
        #expect(PasswordRules.violations("1234567", email: nil) == [.tooShort, .tooCommon, .allDigits])
        #expect(PasswordRules.violations("", email: nil) == [.tooShort])
        #expect(PasswordRules.violations("jdoe123", email: "jdoe@mail.com") == [.tooShort, .tooSimilar])
        #expect(PasswordRules.violations("jdoe123", email: nil) == [.tooShort])
    }

    // Expected values from Python 3.11's difflib, the way Django 5.2's validator calls it:
    //   SequenceMatcher(a=password.lower(), b=part).quick_ratio() for each part of
    //   re.split(r"\W+", local_part.lower()) + [local_part.lower()], similar when >= 0.7.
    @Test func similarityMatchesDjangoOnComputedCases() {
        // "jdoe123" vs "jdoe": 2 * 4 / 11 = 0.727 -> similar.
        #expect(PasswordRules.isSimilar("jdoe123", toEmail: "jdoe@mail.com"))
        #expect(PasswordRules.isSimilar("JDOE123", toEmail: "JDoe@Mail.com"))
        // "jdoe1234" vs "jdoe": 2 * 4 / 12 = 0.667 -> NOT similar under Django's rule.
        #expect(!PasswordRules.isSimilar("jdoe1234", toEmail: "jdoe@mail.com"))
        // "eodj1234": the same letters in any order give the same quick_ratio, 0.667.
        #expect(abs(ratio("eodj1234", "jdoe") - 2.0 * 4 / 12) < 1e-12)
        // "doejohn" vs "john" 0.727, vs "john.doe" 0.933 -> similar.
        #expect(PasswordRules.isSimilar("doejohn", toEmail: "john.doe@x.io"))
        // "mariaxx99" vs "maria" 0.714 (a part matches) -> similar.
        #expect(PasswordRules.isSimilar("mariaxx99", toEmail: "anna.maria@x.io"))
        // "ANNA-MARIA" vs "anna" 0.571, "maria" 0.667, the whole "anna.maria" 0.9 -> similar.
        #expect(PasswordRules.isSimilar("ANNA-MARIA", toEmail: "Anna.Maria@x.io"))
        // "lopezz2024" vs "maria" 0.0, "lopez" 0.667, "maria.lopez" 0.476 -> not similar.
        #expect(!PasswordRules.isSimilar("lopezz2024", toEmail: "maria.lopez@mail.com"))
        // "zebra-canyon-71" vs "jdoe" 0.211 -> not similar.
        #expect(!PasswordRules.isSimilar("zebra-canyon-71", toEmail: "jdoe@mail.com"))
        #expect(PasswordRules.violations("zebra-canyon-71", email: "jdoe@mail.com") == [])
        // "mailcom1" shares nothing with "jdoe", and 0.667 with "mail" and with the whole address.
        #expect(!PasswordRules.isSimilar("mailcom1", toEmail: "jdoe@mail.com"))
        // Django skips an empty attribute.
        #expect(!PasswordRules.isSimilar("anything", toEmail: "@mail.com"))
    }

    /// Issue 25, defect 9: "not similar to the email" covers the whole address (split on non-word
    /// characters as Django splits an attribute, so the domain's pieces count too), the local part and its
    /// pieces. Each expectation, and the best ratio beside it, is Python 3's difflib through Django's rule
    /// applied to both values; the pairs sit on both sides of 0.7.
    @Test(arguments: [
        ("jdoe@mail.com", "jdoe@mail.com", true),  // the whole address: 1.0
        ("JDoe@Mail.COM", "jdoe@mail.com", true),  // 1.0, case aside
        ("mail.com.jdoe", "jdoe@mail.com", true),  // 0.923 against the whole address
        ("jdoe@mail.xyzqw", "jdoe@mail.com", true),  // 0.714
        ("jdoe@mailxyzq", "jdoe@mail.com", false),  // 0.692
        ("gmail123", "john.smith@gmail.com", true),  // 0.769 against the domain's piece "gmail"
        ("gmailrocks", "john.smith@gmail.com", false),  // 0.667
        ("john.smith", "john.smith@gmail.com", true),  // the local part: 1.0
        ("smithjohn", "john.smith@gmail.com", true),  // 0.947
        ("abcdefgxyz", "abcdefghij@x.io", true),  // exactly 0.7 against the local part
        ("abcdefxxyz", "abcdefghij@x.io", false),  // 0.6
        ("jdoe123", "jdoe@mail.com", true),  // 0.727 against "jdoe"
        ("jdoe1234", "jdoe@mail.com", false),  // 0.667
        ("jdoe@mail.comjdoe@mail.com", "jdoe@mail.com", false),  // 0.667: twice the address is long enough
        ("zebra-canyon-71", "jdoe@mail.com", false),  // 0.286
    ])
    func similarityCoversTheWholeAddressTheLocalPartAndTheirPieces(password: String, email: String, similar: Bool) {
        #expect(PasswordRules.isSimilar(password, toEmail: email) == similar)
    }

    @Test func thePasswordEqualToTheEmailIsRefused() {
        #expect(PasswordRules.violations("jdoe@mail.com", email: "jdoe@mail.com") == [.tooSimilar])
        #expect(PasswordRules.violations("Jdoe@Mail.com", email: "jdoe@mail.com") == [.tooSimilar])
    }

    @Test func quickRatioCountsSharedCharactersWithMultiplicity() {
        #expect(ratio("aab", "ab") == 2.0 * 2 / 5)
        #expect(ratio("abc", "xyz") == 0)
        #expect(ratio("", "") == 1)
    }

    @Test func splitsLikePythonReSplitOnNonWordRuns() {
        // re.split(r"\W+", "a..b_c-d") == ['a', 'b_c', 'd']; ".jo" -> ['', 'jo']; "é١ⅷ" -> one word.
        #expect(split("a..b_c-d") == ["a", "b_c", "d"])
        #expect(split(".jo") == ["", "jo"])
        #expect(split("a.") == ["a", ""])
        #expect(split("é١ⅷ") == ["é١ⅷ"])
        // Django on an empty password and "a.": parts 'a' (0.0), '' (1.0), 'a.' (0.0) -> similar.
        #expect(PasswordRules.isSimilar("", toEmail: "a.@x.io"))
    }

    @Test func lengthRatioSkipsPartsFarShorterThanThePassword() {
        // Django's exceeds_maximum_length_ratio(password, 0.7, value) for these lengths.
        #expect(PasswordRules.exceedsMaximumLengthRatio(passwordLength: 10, partLength: 1))
        #expect(PasswordRules.exceedsMaximumLengthRatio(passwordLength: 20, partLength: 2))
        #expect(!PasswordRules.exceedsMaximumLengthRatio(passwordLength: 19, partLength: 2))
        #expect(!PasswordRules.exceedsMaximumLengthRatio(passwordLength: 0, partLength: 0))
    }

    @Test func bundledListIsDjangosWhole() {
        let list = PasswordRules.commonPasswords
        let entries = list.entries
        #expect(list.count > 19_000)
        #expect(entries.count == list.count)
        for known in ["123456", "password", "qwerty", "iloveyou", "password1", "qwerty123", "пароль"] {
            #expect(list.contains(known), "\(known) is missing from common-passwords.txt")
        }
        // Every entry is stored the way isCommon compares: lowercased and stripped, and in Normalization Form C,
        // which the list's byte comparison relies on.
        #expect(entries.allSatisfy { PasswordRules.isCommon($0) })
        #expect(entries.allSatisfy { Array($0.utf8) == Array($0.precomposedStringWithCanonicalMapping.utf8) })
    }

    /// Issue 34 item 3: the list answers as a `Set` of its strings did, canonical equivalence included.
    @Test func theListAnswersAsASetOfItsLinesDid() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/AccessCore/Resources/common-passwords.txt")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        let set = Set(lines)
        let list = PasswordRules.commonPasswords
        #expect(list.count == set.count)
        for line in lines { #expect(list.contains(line), "\(line)") }
        var misses = ["", "a", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "password12345x", "\u{0}", "пароль1", "123456 "]
        misses += lines.prefix(300).map { $0 + "x" } + lines.prefix(300).map { String($0.dropLast()) }
        for miss in misses { #expect(list.contains(miss) == set.contains(miss), "\(miss)") }
        // "й" written as и + combining breve is the same password as the list's precomposed one.
        #expect(list.contains("\u{0438}\u{0306}цукен"))
        #expect(set.contains("\u{0438}\u{0306}цукен"))
    }

    @Test func copyAndCodes() {
        #expect(
            PasswordRule.allCases.compactMap(\.checklistLabel) == [
                "At least 8 characters", "Not a common password", "Not all numbers",
            ])
        #expect(PasswordRule.tooSimilar.checklistLabel == nil)
        #expect(PasswordRule.tooShort.message == "Use at least 8 characters.")
        #expect(PasswordRule.allDigits.message == "A password can't be all numbers.")
        #expect(PasswordRule(rawValue: "password_too_common") == .tooCommon)
        #expect(PasswordRule.tooSimilar.rawValue == "password_too_similar")
    }

    private func ratio(_ a: String, _ b: String) -> Double {
        PasswordRules.quickRatio(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private func split(_ value: String) -> [String] {
        PasswordRules.splitOnNonWordRuns(Array(value.unicodeScalars)).map { String(String.UnicodeScalarView($0)) }
    }
}

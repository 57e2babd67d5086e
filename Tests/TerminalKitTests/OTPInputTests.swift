import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct OTPInputTests {
    func render(_ otp: OTPInput) -> CellGrid {
        var grid = canvas(60, otp.height)
        otp.render(into: &grid, in: grid.bounds)
        return grid
    }

    @Test func empty() {
        let grid = render(OTPInput())
        #expect(grid.text(row: 0).hasPrefix("            ┏━━━┓ ╭───╮"))
        assertSnapshot(of: grid, named: "otp-empty")
    }

    @Test func partial() {
        var otp = OTPInput()
        for c in "482" { otp.type(c) }
        assertSnapshot(of: render(otp), named: "otp-partial")
    }

    @Test func full() {
        assertSnapshot(of: render(OTPInput(digits: "482915")), named: "otp-full")
    }

    @Test func pasted() {
        var otp = OTPInput()
        #expect(changed(otp.paste("482 915")))
        #expect(otp.code == "482915")
        assertSnapshot(of: render(otp), named: "otp-pasted")
    }

    @Test func errorKeepsDigits() {
        var otp = OTPInput(digits: "482111")
        otp.error = "Code is incorrect. Try again."
        let grid = render(otp)
        #expect(otp.code == "482111")
        #expect(grid.text(row: 4).contains("Code is incorrect. Try again."))
        #expect(grid[12, 0].style.foreground == .danger)
        assertSnapshot(of: grid, named: "otp-error")
    }

    /// Seed 000 keeps a refused code in view; the next digit starts a new code instead of being
    /// refused by six full boxes (Backspace six times was the only way on).
    @Test func aDigitAfterARefusedCodeStartsANewCode() {
        var otp = OTPInput(digits: "482111")
        otp.startsOver = true
        #expect(otp.focusedIndex == 0)
        #expect(changed(otp.type("7")))
        #expect(otp.code == "7")
        #expect(!otp.startsOver)
        #expect(otp.caret == 1)
        var pasted = OTPInput(digits: "482111")
        pasted.startsOver = true
        #expect(pasted.fill(pasted: "4829") == .partial(digits: 4, missing: 2))
        #expect(pasted.code == "4829")
    }

    /// Moving the caret or erasing means the kept digits are being fixed: typing then edits them.
    @Test func editingARefusedCodeKeepsItsDigits() {
        var otp = OTPInput(digits: "482111")
        otp.startsOver = true
        otp.backspace()
        otp.type("5")
        #expect(otp.code == "482115")
        var moved = OTPInput(digits: "482111")
        moved.startsOver = true
        moved.moveCaret(by: -2)
        moved.type("9")
        #expect(moved.code == "482191")
    }

    @Test func disabled() {
        assertSnapshot(of: render(OTPInput(digits: "48", isDisabled: true)), named: "otp-disabled")
    }

    @Test func typingIgnoresNonDigitsAndStopsAtSix() {
        var otp = OTPInput()
        for c in "4a8-2 9١15７3" { otp.type(c) }
        #expect(otp.code == "482915")
        #expect(otp.isComplete)
        #expect(otp.focusedIndex == 5)
    }

    @Test func backspaceClearsTheLast() {
        var otp = OTPInput(digits: "482")
        #expect(changed(otp.backspace()))
        #expect(otp.code == "48")
        #expect(otp.focusedIndex == 2)
        otp.clear()
        #expect(!changed(otp.backspace()))
    }

    @Test func aWholeCodeReplacesEveryBoxWhereverTheCaretIs() {
        var otp = OTPInput(digits: "1")
        #expect(otp.fill(pasted: "482-915") == .code)
        #expect(otp.code == "482915")
        #expect(otp.caret == 6)
        #expect(changed(otp.handle(.paste(" 123 456\n"))))
        #expect(otp.code == "123456")
        #expect(!changed(otp.paste("4829155")))  // seven digits: refused, the code is kept
        #expect(otp.code == "123456")
    }

    // MARK: Issue 10 item 8: ← and → move between the boxes

    @Test func arrowsMoveTheCaretAndTypingReplacesAMiddleDigit() {
        var otp = OTPInput(digits: "482111")
        #expect(otp.caret == 6)
        for _ in 0..<3 { #expect(otp.edit(.key(.left)) == .moved) }
        #expect(otp.caret == 3)
        #expect(otp.focusedIndex == 3)
        #expect(otp.isReplacing)
        #expect(otp.edit(.key(.character("9"))) == .changed)
        #expect(otp.code == "482911")
        #expect(otp.caret == 4)
        #expect(otp.isComplete)
        #expect(otp.edit(.key(.right)) == .moved)
        #expect(otp.edit(.key(.character("5"))) == .changed)
        #expect(otp.code == "482915")
        #expect(otp.caret == 6)
    }

    @Test func theCaretStaysBetweenTheFirstBoxAndJustAfterTheDigits() {
        var otp = OTPInput(digits: "48")
        #expect(otp.edit(.key(.right)) == .unchanged)  // no box past the digits to reach
        #expect(otp.caret == 2)
        #expect(otp.edit(.key(.home)) == .moved)
        #expect(otp.caret == 0)
        #expect(otp.edit(.key(.left)) == .unchanged)
        #expect(otp.edit(.key(.end)) == .moved)
        #expect(otp.caret == 2)
    }

    @Test func backspaceErasesBeforeTheCaretAndDeleteAtIt() {
        var otp = OTPInput(digits: "482915")
        otp.moveCaret(to: 3)
        #expect(changed(otp.backspace()))  // the 2
        #expect(otp.code == "48915")
        #expect(otp.caret == 2)
        #expect(otp.edit(.key(.delete)) == .changed)  // the 9
        #expect(otp.code == "4815")
        #expect(otp.caret == 2)
        otp.moveCaret(to: 4)
        #expect(otp.edit(.key(.delete)) == .unchanged)  // nothing at the end
        otp.moveCaret(to: 0)
        #expect(otp.edit(.key(.backspace)) == .unchanged)  // nothing before the first box
        #expect(otp.code == "4815")
    }

    @Test func movingTheCaretIsNotAChangeOfTheCode() {
        // EnterCodeScreen sends a complete code when `handle` says it changed: an arrow key
        // over a wrong code must not send it again.
        var otp = OTPInput(digits: "482111")
        #expect(!changed(otp.handle(.key(.left))))
        #expect(otp.caret == 5)
        #expect(changed(otp.handle(.key(.character("5")))))
        #expect(otp.code == "482115")
        // Typing the digit a box already holds only moves on: the same code is not sent twice.
        otp.moveCaret(to: 0)
        #expect(!changed(otp.handle(.key(.character("4")))))
        #expect(otp.caret == 1)
        #expect(otp.edit(.key(.character("8"))) == .moved)
        #expect(otp.edit(.key(.enter)) == .ignored)
        #expect(otp.edit(.key(.escape)) == .ignored)
    }

    @Test func theDrawnCaretFollowsAndTheDigitItWouldReplaceIsReversed() {
        var otp = OTPInput(digits: "482915")
        otp.moveCaret(to: 1)
        let grid = render(otp)
        // Box n starts at column 12 + 6n; the caret is under its middle.
        #expect(grid[20, 3].grapheme == "▴")
        #expect(grid.text(row: 3).filter { $0 == "▴" }.count == 1)
        #expect(grid[18, 0].grapheme == "┏")
        #expect(grid[20, 1].style.attributes.contains(.reverse))
        #expect(!grid[14, 1].style.attributes.contains(.reverse))
        assertSnapshot(of: grid, named: "otp-caret-on-second-digit")
        // Past the end of a full code: under the last box, nothing reversed.
        otp.moveCaret(to: 6)
        let end = render(otp)
        #expect(!end[44, 1].style.attributes.contains(.reverse))
        #expect(end[42, 0].grapheme == "┏")
        #expect(end[44, 3].grapheme == "▴")
    }

    @Test func disabledBoxesIgnoreTheArrows() {
        var otp = OTPInput(digits: "48", isDisabled: true)
        #expect(otp.edit(.key(.left)) == .unchanged)
        #expect(otp.caret == 2)
    }

    // MARK: Issue 10 item 7: pasting 4 or 8 digits

    @Test(arguments: ["1234", "12 34", "12-34"])
    func aShortPasteGoesInFromTheCaretAndSaysWhatIsMissing(text: String) {
        var otp = OTPInput()
        let result = otp.fill(pasted: text)
        #expect(result == .partial(digits: 4, missing: 2))
        #expect(result.hint == "Pasted 4 digits. Type the other 2.")
        #expect(otp.code == "1234")
        #expect(otp.caret == 4)
    }

    @Test func aShortPasteThatFinishesTheCodeNeedsNoWord() {
        var otp = OTPInput(digits: "48")
        let result = otp.fill(pasted: "2915")
        #expect(result == .partial(digits: 4, missing: 0))
        #expect(result.hint == nil)
        #expect(otp.code == "482915")
        #expect(otp.isComplete)
    }

    @Test func aShortPasteOverwritesFromACaretMovedBack() {
        var otp = OTPInput(digits: "482111")
        otp.moveCaret(to: 3)
        #expect(otp.fill(pasted: "915") == .partial(digits: 3, missing: 0))
        #expect(otp.code == "482915")
    }

    @Test func eightDigitsAreRefusedRatherThanGuessedAt() {
        var otp = OTPInput(digits: "4")
        let result = otp.fill(pasted: "12345678")
        #expect(result == .refused(.tooManyDigits(found: 8, codeLength: 6)))
        #expect(result.hint == "That paste has 8 digits, the code 6. Nothing was pasted.")
        #expect(!result.changed)
        #expect(otp.code == "4")
        #expect(otp.caret == 1)
    }

    @Test func aWholeTextMessageGivesUpItsCode() {
        var otp = OTPInput()
        #expect(otp.fill(pasted: "Your AccessDeck code is 482915. It expires in 5 minutes.") == .code)
        #expect(otp.code == "482915")
        // Two six-digit numbers: which is the code is a guess.
        var other = OTPInput()
        #expect(other.fill(pasted: "Code 482915, ref 123456") == .refused(.tooManyDigits(found: 12, codeLength: 6)))
        #expect(other.code == "")
    }

    @Test func pastesThatDoNotFitOrHoldNoDigitsSayWhy() {
        var otp = OTPInput(digits: "4829")
        let result = otp.fill(pasted: "123")
        #expect(result == .refused(.doesNotFit(digits: 3, boxesLeft: 2)))
        #expect(result.hint == "That paste has 3 digits and 2 boxes are left. Nothing was pasted.")
        #expect(otp.code == "4829")
        var full = OTPInput(digits: "482915")
        #expect(full.fill(pasted: "12").hint == "The boxes are full. Nothing was pasted.")
        #expect(otp.fill(pasted: "code") == .refused(.noDigits))
        #expect(OTPInput.PasteResult.refused(.noDigits).hint == "There are no digits in what you pasted.")
        var disabled = OTPInput(isDisabled: true)
        #expect(disabled.fill(pasted: "482915") == .refused(.disabled))
        #expect(disabled.edit(.paste("1234")) == .pasted(.refused(.disabled)))
        #expect(disabled.code == "")
    }

    @Test func theOldBoolPasteStillSaysWhetherTheBoxesChanged() {
        var otp = OTPInput()
        #expect(changed(otp.paste("1234")))
        #expect(!changed(otp.paste("12345678")))
        #expect(otp.code == "1234")
    }

    @Test func handleRoutesKeys() {
        var otp = OTPInput()
        #expect(changed(otp.handle(.key(.character("7")))))
        #expect(!changed(otp.handle(.key(.character("x")))))
        #expect(changed(otp.handle(.key(.backspace))))
        #expect(!changed(otp.handle(.key(.enter))))
        #expect(!changed(otp.handle(.key(.left))))
        #expect(otp.code == "")
    }
}

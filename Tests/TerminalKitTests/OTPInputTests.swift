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

    @Test func pasteNeedsExactlySixDigits() {
        var otp = OTPInput(digits: "1")
        #expect(!changed(otp.paste("48291")))
        #expect(!changed(otp.paste("4829155")))
        #expect(otp.code == "1")
        #expect(changed(otp.paste("482-915")))
        #expect(otp.code == "482915")
        #expect(changed(otp.handle(.paste(" 123 456\n"))))
        #expect(otp.code == "123456")
    }

    @Test func handleRoutesKeys() {
        var otp = OTPInput()
        #expect(changed(otp.handle(.key(.character("7")))))
        #expect(!changed(otp.handle(.key(.character("x")))))
        #expect(changed(otp.handle(.key(.backspace))))
        #expect(!changed(otp.handle(.key(.enter))))
        #expect(otp.code == "")
    }
}

import Foundation
import SnapshotSupport
import Testing

@testable import TerminalKit

/// Components laid out together at 80×24 the way the app's screens use them, to check that
/// margins and columns agree across components (what designers see in a demo).
@Suite struct ScreenCompositionTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func footer(_ grid: inout CellGrid, glyphs: Glyphs = .unicode) {
        KeyHintFooter(sampleKeymap).render(into: &grid, in: grid.bounds.splitBottom(1).bottom, glyphs: glyphs)
    }

    @Test func hubOfflineWithDisabledWrites() {
        var grid = canvas()
        let title = TitleBar("Account access", canGoBack: true)
        title.render(into: &grid, in: grid.bounds)
        Banner.offline.render(into: &grid, in: grid.bounds.splitTop(title.height).rest, now: now)
        let rows = [
            ListRow("Phone number", detail: "+995 511 100 000", control: .pencil, isSelected: true, isDisabled: true),
            ListRow("Email & password", detail: "Not set up", control: .pill("Add"), isDisabled: true),
            ListRow("Apple", detail: "Not connected", control: .pill("Connect"), isDisabled: true),
            ListRow("Google", detail: "Connected", control: .chevron, isDisabled: true),
            ListRow("Active sessions", detail: "Manage where you're signed in", control: .badge("Soon")),
            ListRow("Delete account", detail: "Permanently remove your data", control: .chevron, isDisabled: true),
        ]
        var y = title.height + 2
        for row in rows {
            row.render(into: &grid, in: Rect(x: 0, y: y, width: 80, height: row.height))
            y += row.height + 1
        }
        footer(&grid)
        assertSnapshot(of: grid, named: "screen-hub-offline")
    }

    @Test func hubLoading() {
        var grid = canvas()
        TitleBar("Account access", canGoBack: true).render(into: &grid, in: grid.bounds)
        SkeletonRows(count: 4).render(into: &grid, in: Rect(x: 0, y: 3, width: 80, height: 16))
        footer(&grid)
        assertSnapshot(of: grid, named: "screen-hub-loading")
    }

    func otpScreen(glyphs: Glyphs) -> CellGrid {
        var grid = canvas()
        let title = TitleBar("Enter the code", canGoBack: true)
        title.render(into: &grid, in: grid.bounds, glyphs: glyphs)
        let content = grid.bounds.inset(horizontal: 2)
        grid.putCentered("We texted a 6-digit code to +995 511 200 300.", row: 4, in: content, style: .plain)
        var otp = OTPInput(digits: "482111")
        otp.error = "Code is incorrect. Try again."
        otp.render(into: &grid, in: Rect(x: 0, y: 6, width: 80, height: otp.height), glyphs: glyphs)
        grid.putCentered("Resend in \(TextLayout.countdown(seconds: 27))", row: 13, in: content, style: .muted)
        footer(&grid, glyphs: glyphs)
        return grid
    }

    @Test func otpWithError() { assertSnapshot(of: otpScreen(glyphs: .unicode), named: "screen-otp-error") }

    @Test func otpWithErrorASCII() {
        let grid = otpScreen(glyphs: .ascii)
        #expect(grid.text().unicodeScalars.allSatisfy { $0.isASCII })
        assertSnapshot(of: grid, named: "screen-otp-error-ascii")
    }

    @Test func phoneEntryTaken() {
        var grid = canvas()
        let title = TitleBar("New phone number", canGoBack: true, subtitle: "Current: +995 511 100 000")
        title.render(into: &grid, in: grid.bounds)
        let field = TextField(
            label: "Phone number", value: "511 100 000", prefix: "🇬🇪 +995",
            error: "This number is already in use by another account.", isFocused: true)
        field.render(into: &grid, in: Rect(x: 2, y: title.height + 1, width: 76, height: field.height))
        footer(&grid)
        assertSnapshot(of: grid, named: "screen-phone-taken")
    }

    @Test func deleteConfirmSheetASCII() {
        var grid = hubScreen()
        let sheet = BottomSheet(
            title: "Delete your account forever?",
            body: "This can't be undone. You'll be signed out and your data will be permanently removed.",
            actions: [.init("Delete account", isDestructive: true), .init("Cancel")])
        sheet.render(into: &grid, glyphs: .ascii)
        assertSnapshot(of: grid, named: "screen-delete-sheet-ascii")
    }
}

import SnapshotSupport
import Testing

@testable import TerminalKit

@Suite struct TextFieldTests {
    func render(_ field: TextField, width: Int = 60) -> CellGrid {
        var grid = canvas(width, field.height)
        field.render(into: &grid, in: grid.bounds)
        return grid
    }

    @Test func emptyWithPlaceholder() {
        let field = TextField(label: "New email", placeholder: "name@example.com")
        assertSnapshot(of: render(field), named: "textfield-placeholder")
    }

    /// Issue 50 item 4: the placeholder was muted and dim, 2.25:1 (dark) and 1.9:1 (light). It is text to read, not
    /// an inactive control: muted, which meets 4.5:1 in both themes (ContrastTests checks every cell not dim).
    @Test func thePlaceholderIsNotDim() throws {
        let grid = render(TextField(label: "New email", placeholder: "name@example.com"))
        let y = try #require(grid.textLines().firstIndex { $0.contains("name@example.com") })
        let x = try #require(grid.textLines()[y].range(of: "name")).lowerBound.utf16Offset(in: grid.textLines()[y])
        #expect(grid[x, y].style == .muted)
    }

    @Test func focusedEmpty() {
        let field = TextField(label: "New email", placeholder: "name@example.com", isFocused: true)
        let grid = render(field)
        #expect(grid.text(row: 1).hasPrefix("┏"))
        assertSnapshot(of: grid, named: "textfield-focused-empty")
    }

    @Test func typedWithPrefix() {
        var field = TextField(label: "New phone number", prefix: "🇬🇪 +995", isFocused: true)
        field.insert("511 200 300")
        assertSnapshot(of: render(field), named: "textfield-typed-prefix")
    }

    @Test func typedUnfocused() {
        let field = TextField(label: "Email", value: "jdoe@mail.com")
        assertSnapshot(of: render(field), named: "textfield-typed")
    }

    @Test func masked() {
        var field = TextField(label: "New password", isMasked: true, isFocused: true)
        field.insert("hunter22")
        let grid = render(field)
        #expect(!grid.text().contains("hunter"))
        assertSnapshot(of: grid, named: "textfield-masked")
    }

    @Test func error() {
        let field = TextField(
            label: "New phone number", value: "511 100 000", prefix: "🇬🇪 +995",
            error: "This number is already in use by another account.", isFocused: true)
        let grid = render(field)
        #expect(grid.text(row: 4).hasPrefix("This number is already in use"))
        #expect(grid[0, 4].style.foreground == .danger)
        assertSnapshot(of: grid, named: "textfield-error")
    }

    /// Issue 28 item 19: a long error wraps under the box, every word of it, and the field is that much taller.
    @Test func aLongErrorWraps() {
        let message =
            "This number belonged to an account that was deleted less than 7 days ago. Try again later or use another number."
        let field = TextField(label: "Number", value: "511 100 000", error: message)
        #expect(field.height(width: 40) == 1 + 3 + TextLayout.wrap(message, width: 40).count)
        #expect(field.height(width: 40) > field.height)
        var grid = canvas(40, field.height(width: 40))
        field.render(into: &grid, in: grid.bounds)
        let below = (4..<grid.size.rows).map { grid.text(row: $0).trimmingCharacters(in: .whitespaces) }
        #expect(below.joined(separator: " ") == message)
        #expect(TextField(label: "Number", value: "5").height(width: 40) == field.height)
    }

    @Test func disabled() {
        let field = TextField(label: "Email", value: "jdoe@mail.com", isDisabled: true, isFocused: true)
        assertSnapshot(of: render(field), named: "textfield-disabled")
        var copy = field
        copy.insert("x")
        copy.backspace()
        #expect(copy.value == "jdoe@mail.com")
    }

    @Test func longValueScrollsToKeepTheCursorVisible() {
        var field = TextField(label: "Email", isFocused: true)
        field.insert("a.very.long.address.that.does.not.fit@example.com")
        let grid = render(field, width: 30)
        #expect(grid.text(row: 2).contains("example.com"))
        assertSnapshot(of: grid, named: "textfield-scrolled")
    }

    /// The first character drawn is the one after which the cursor, and one cell beyond it, fit: wide
    /// characters count two columns, and what follows the cursor does not count.
    @Test func scrollStartKeepsTheCursorAndOneCellInView() {
        let ascii = Array("abcdefghij")
        #expect(TextField.scrollStart(ascii, cursor: 10, width: 11) == 0)
        #expect(TextField.scrollStart(ascii, cursor: 10, width: 10) == 1)
        #expect(TextField.scrollStart(ascii, cursor: 10, width: 4) == 7)
        #expect(TextField.scrollStart(ascii, cursor: 3, width: 4) == 0)
        #expect(TextField.scrollStart(ascii, cursor: 0, width: 1) == 0)
        let wide = Array("日本語テキスト")  // two columns each
        #expect(TextField.scrollStart(wide, cursor: 7, width: 15) == 0)
        #expect(TextField.scrollStart(wide, cursor: 7, width: 6) == 5)
        #expect(TextField.scrollStart(wide, cursor: 7, width: 5) == 5)
    }

    @Test func renderReturnsTheCursorWhenFocused() {
        var field = TextField(label: "Email", value: "abc", isFocused: true)
        field.moveLeft()
        var grid = canvas(30, 5)
        let cursor = field.render(into: &grid, in: grid.bounds)
        #expect(cursor == Point(x: 4, y: 2))
        #expect(grid[4, 2].style.attributes.contains(.reverse))
        field.isFocused = false
        #expect(field.render(into: &grid, in: grid.bounds) == nil)
    }

    // MARK: Editing

    @Test func insertsAtTheCursor() {
        var field = TextField(value: "jdoe@mail.com")
        field.moveHome()
        field.insert("x")
        #expect(field.value == "xjdoe@mail.com")
        #expect(field.cursor == 1)
        field.moveEnd()
        field.insert("!")
        #expect(field.value == "xjdoe@mail.com!")
    }

    @Test func backspaceAndDelete() {
        var field = TextField(value: "abcd")
        field.backspace()
        #expect(field.value == "abc")
        field.moveHome()
        field.backspace()
        #expect(field.value == "abc")
        field.deleteForward()
        #expect(field.value == "bc")
        #expect(field.cursor == 0)
        field.moveEnd()
        field.deleteForward()
        #expect(field.value == "bc")
    }

    @Test func cursorStaysInBounds() {
        var field = TextField(value: "ab")
        field.moveRight()
        #expect(field.cursor == 2)
        field.moveLeft()
        field.moveLeft()
        field.moveLeft()
        #expect(field.cursor == 0)
    }

    @Test func editingStepsOverWholeGraphemes() {
        var field = TextField(value: "🇬🇪e\u{301}")
        field.backspace()
        #expect(field.value == "🇬🇪")
        field.backspace()
        #expect(field.value == "")
    }

    @Test func pasteStripsControlCharactersAndNewlines() {
        var field = TextField()
        field.paste("new.email@\ngmail.com\r\t\u{7}")
        #expect(field.value == "new.email@gmail.com")
        #expect(field.cursor == field.value.count)
    }

    @Test func maxLengthCapsInsertAndPaste() {
        var field = TextField(maxLength: 4)
        field.paste("123456")
        #expect(field.value == "1234")
        field.insert("5")
        #expect(field.value == "1234")
    }

    @Test func handleRoutesKeys() {
        var field = TextField()
        #expect(changed(field.handle(.key(.character("a")))))
        #expect(changed(field.handle(.key(.character("b")))))
        #expect(changed(field.handle(.key(.home))))
        #expect(changed(field.handle(.key(.delete))))
        #expect(field.value == "b")
        #expect(!changed(field.handle(.key(.enter))))
        #expect(changed(field.handle(.paste("cd"))))
        #expect(field.value == "cdb")
    }
}

/// Readline's editing keys, as every one-line field takes them (issue 28 item 20).
@Suite struct TextFieldReadlineKeysTests {
    func field(_ text: String, cursor: Int) -> TextField {
        var field = TextField(placeholder: "")
        field.setValue(text)
        field.handle(.key(.home))
        for _ in 0..<cursor { field.handle(.key(.right)) }
        return field
    }

    @Test func ctrlUDeletesWhatIsBeforeTheCursor() {
        var field = field("jdoe@mail.com", cursor: 5)
        let handled = field.handle(.key(.control("u")))
        #expect(handled)
        #expect(field.value == "mail.com" && field.cursor == 0)
    }

    @Test func ctrlKDeletesFromTheCursorOn() {
        var field = field("jdoe@mail.com", cursor: 4)
        let handled = field.handle(.key(.control("k")))
        #expect(handled)
        #expect(field.value == "jdoe" && field.cursor == 4)
    }

    @Test func ctrlWDeletesTheWordBeforeTheCursorAndTheSpacesAfterIt() {
        var field = field("scenario resend  x", cursor: 17)
        var handled = field.handle(.key(.control("w")))
        #expect(handled)
        #expect(field.value == "scenario x" && field.cursor == 9)
        handled = field.handle(.key(.control("w")))
        #expect(handled)
        #expect(field.value == "x" && field.cursor == 0)
        handled = field.handle(.key(.control("w")))
        #expect(handled)
        #expect(field.value == "x" && field.cursor == 0)
    }

    @Test func aDisabledFieldKeepsItsText() {
        var field = field("511 200", cursor: 7)
        field.isDisabled = true
        field.handle(.key(.control("u")))
        field.handle(.key(.control("w")))
        #expect(field.value == "511 200")
    }
}

import CursesDriver
import TerminalKit
import Testing

@Suite struct KeyDecoderTests {
    func character(_ code: UInt32) -> Key? { KeyDecoder.decode(code: code, isFunctionKey: false) }
    func functionKey(_ code: Int32) -> Key? { KeyDecoder.decode(code: UInt32(bitPattern: code), isFunctionKey: true) }

    @Test func arrows() {
        #expect(functionKey(KeyDecoder.Code.up) == .up)
        #expect(functionKey(KeyDecoder.Code.down) == .down)
        #expect(functionKey(KeyDecoder.Code.left) == .left)
        #expect(functionKey(KeyDecoder.Code.right) == .right)
    }

    @Test func enterArrivesAsLineFeedCarriageReturnOrKeyEnter() {
        #expect(character(10) == .enter)
        #expect(character(13) == .enter)
        #expect(functionKey(KeyDecoder.Code.enter) == .enter)
    }

    @Test func escapeTabAndBackTab() {
        #expect(character(27) == .escape)
        #expect(character(9) == .tab)
        #expect(functionKey(KeyDecoder.Code.backTab) == .backTab)
    }

    @Test func backspaceHasThreeSpellings() {
        #expect(functionKey(KeyDecoder.Code.backspace) == .backspace)
        #expect(character(127) == .backspace)
        #expect(character(8) == .backspace)
    }

    @Test func editingAndPagingKeys() {
        #expect(functionKey(KeyDecoder.Code.delete) == .delete)
        #expect(functionKey(KeyDecoder.Code.home) == .home)
        #expect(functionKey(KeyDecoder.Code.end) == .end)
        #expect(functionKey(KeyDecoder.Code.pageUp) == .pageUp)
        #expect(functionKey(KeyDecoder.Code.pageDown) == .pageDown)
    }

    @Test(arguments: 1...26)
    func controlLetters(code: Int) {
        let expected: Key
        switch code {
        case 8: expected = .backspace
        case 9: expected = .tab
        case 10, 13: expected = .enter
        default: expected = .control(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        }
        #expect(character(UInt32(code)) == expected)
    }

    @Test func controlCIsAKeyNotASignal() {
        #expect(character(3) == .control("c"))
    }

    @Test(arguments: 1...12)
    func functionKeys(n: Int) {
        #expect(functionKey(KeyDecoder.Code.function(n)) == .function(n))
    }

    @Test func textIsCharacters() {
        #expect(character(UInt32(("q" as Unicode.Scalar).value)) == .character("q"))
        #expect(character(0x20) == .character(" "))
        #expect(character(0xE9) == .character("é"))
        #expect(character(0x65E5) == .character("日"))
        #expect(character(0x1F44D) == .character("👍"))
    }

    @Test func nonKeysDecodeToNil() {
        #expect(character(0) == nil)
        #expect(character(28) == nil)
        #expect(character(0x85) == nil)
        #expect(character(0xD800) == nil)
        #expect(functionKey(KeyDecoder.Code.resize) == nil)
        #expect(functionKey(KeyDecoder.Code.pasteStart) == nil)
        #expect(functionKey(KeyDecoder.Code.pasteEnd) == nil)
    }

    @Test func privatePasteCodesDoNotCollideWithCurses() {
        let known = [
            KeyDecoder.Code.up, KeyDecoder.Code.down, KeyDecoder.Code.resize, KeyDecoder.Code.backTab,
            KeyDecoder.Code.function(12),
        ]
        #expect(!known.contains(KeyDecoder.Code.pasteStart))
        #expect(!known.contains(KeyDecoder.Code.pasteEnd))
        #expect(KeyDecoder.Code.pasteStart != KeyDecoder.Code.pasteEnd)
    }
}

@Suite struct MouseDecoderTests {
    @Test func aLeftPressIsAClickAtItsCell() {
        #expect(
            KeyDecoder.decodeMouse(buttons: KeyDecoder.MouseButton.leftPress, column: 12, row: 3)
                == MouseEvent(.leftClick, at: Point(x: 12, y: 3)))
    }

    @Test func theWheelIsUpOrDown() {
        #expect(KeyDecoder.decodeMouse(buttons: KeyDecoder.MouseButton.wheelUp, column: 0, row: 0)?.kind == .wheelUp)
        #expect(
            KeyDecoder.decodeMouse(buttons: KeyDecoder.MouseButton.wheelDown, column: 0, row: 0)?.kind == .wheelDown)
    }

    @Test func whatTheAppDoesNotUseIsNothing() {
        #expect(KeyDecoder.decodeMouse(buttons: 0, column: 5, row: 5) == nil)
        #expect(KeyDecoder.decodeMouse(buttons: KeyDecoder.MouseButton.leftPress, column: -1, row: 5) == nil)
    }

    @Test func theMaskAsksForClicksAndTheWheel() {
        let reported = KeyDecoder.MouseButton.reported
        #expect(reported & KeyDecoder.MouseButton.leftPress != 0)
        #expect(reported & KeyDecoder.MouseButton.wheelUp != 0)
        #expect(reported & KeyDecoder.MouseButton.wheelDown != 0)
    }
}

import CNcursesw
import TerminalKit

/// Turns what `wget_wch` returns into a `Key`. Pure, so every mapping is unit-tested.
public enum KeyDecoder {
    /// ncurses key codes the decoder knows, named so tests need not import ncurses.
    public enum Code {
        public static let up = KEY_UP
        public static let down = KEY_DOWN
        public static let left = KEY_LEFT
        public static let right = KEY_RIGHT
        public static let home = KEY_HOME
        public static let end = KEY_END
        public static let pageUp = KEY_PPAGE
        public static let pageDown = KEY_NPAGE
        public static let delete = KEY_DC
        public static let backspace = KEY_BACKSPACE
        public static let backTab = KEY_BTAB
        public static let enter = KEY_ENTER
        public static let resize = KEY_RESIZE
        /// A mouse report is waiting for `getmouse`.
        public static let mouse = KEY_MOUSE
        public static func function(_ n: Int) -> Int32 { accessdeck_key_f(Int32(n)) }
        /// Private codes that `define_key` binds to the bracketed-paste markers.
        public static let pasteStart = accessdeck_key_max() + 1
        public static let pasteEnd = accessdeck_key_max() + 2
    }

    /// `code` is a key code when `isFunctionKey` (wget_wch returned KEY_CODE_YES), else a
    /// character. Returns nil for codes that are not keys (resize, paste markers, unknown).
    public static func decode(code: UInt32, isFunctionKey: Bool) -> Key? {
        isFunctionKey ? decodeFunctionKey(Int32(bitPattern: code)) : decodeCharacter(code)
    }

    private static func decodeCharacter(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        case 0..<32, 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    private static func decodeFunctionKey(_ code: Int32) -> Key? {
        switch code {
        case Code.up: return .up
        case Code.down: return .down
        case Code.left: return .left
        case Code.right: return .right
        case Code.home: return .home
        case Code.end: return .end
        case Code.pageUp: return .pageUp
        case Code.pageDown: return .pageDown
        case Code.delete: return .delete
        case Code.backspace: return .backspace
        case Code.backTab: return .backTab
        case Code.enter: return .enter
        default:
            for n in 1...12 where Code.function(n) == code { return .function(n) }
            return nil
        }
    }

    /// The mouse buttons `getmouse` reports, named so tests need not import ncurses.
    public enum MouseButton {
        public static let leftPress = UInt32(accessdeck_button1_pressed())
        public static let leftClick = UInt32(accessdeck_button1_clicked())
        public static let wheelUp = UInt32(accessdeck_button4_pressed())
        public static let wheelDown = UInt32(accessdeck_button5_pressed())
        /// What the app asks the terminal to report: a press of the left button and the wheel.
        public static let reported = leftPress | leftClick | wheelUp | wheelDown
    }

    /// A mouse report (`MEVENT.bstate` and its cell) as an event; nil for what the app does not
    /// use (a release, another button, a move). A press counts as the click: with
    /// `mouseinterval(0)` ncurses never waits to make a click of a press and its release.
    public static func decodeMouse(buttons: UInt32, column: Int, row: Int) -> MouseEvent? {
        let point = Point(x: column, y: row)
        guard column >= 0, row >= 0 else { return nil }
        if buttons & MouseButton.wheelUp != 0 { return MouseEvent(.wheelUp, at: point) }
        if buttons & MouseButton.wheelDown != 0 { return MouseEvent(.wheelDown, at: point) }
        if buttons & (MouseButton.leftPress | MouseButton.leftClick) != 0 { return MouseEvent(.leftClick, at: point) }
        return nil
    }
}

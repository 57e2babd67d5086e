/// The symbols components draw. `ascii` is for `--ascii` and terminals such as `TERM=linux`
/// that cannot draw box lines or these marks.
public struct Glyphs: Hashable, Sendable {
    public var box: BoxLines
    public var focusBox: BoxLines
    public var disabledBox: BoxLines
    public var selected: String
    public var back: String
    public var pencil: String
    public var chevron: String
    public var bullet: String
    /// Under the focused OTP box.
    public var caret: String
    public var skeleton: Character
    public var rule: Character
    /// At the right edge of a list that has more above or below.
    public var moreAbove: String
    public var moreBelow: String
    public var spinner: [String]
    /// Before the title of the delete-account confirmation.
    public var trash: String
    /// Key names in footers and help use words instead of arrows ("Up/Down").
    public var asciiKeys: Bool = false
    /// Half blocks (▀ ▄ █) draw two rows of a QR code in one terminal row; without them (ASCII) a
    /// module is two spaces, the light ones in reverse video (`QRCodeBlock`).
    public var halfBlocks: Bool = true

    /// How a key is named on screen with these glyphs.
    public func label(for key: Key) -> String {
        guard asciiKeys else { return key.label }
        switch key {
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        default: return key.label
        }
    }

    public static let unicode = Glyphs(
        box: .rounded, focusBox: .heavy, disabledBox: .dashed, selected: "▸", back: "‹ Back", pencil: "✎",
        chevron: "›", bullet: "•", caret: "▴", skeleton: "░", rule: "─", moreAbove: "↑", moreBelow: "↓",
        spinner: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"], trash: "🗑")

    public static let ascii = Glyphs(
        box: .ascii, focusBox: .asciiHeavy, disabledBox: .asciiDashed, selected: ">", back: "< Back", pencil: "edit",
        chevron: ">", bullet: "*", caret: "^", skeleton: ".", rule: "-", moreAbove: "^", moreBelow: "v",
        spinner: ["|", "/", "-", "\\"], trash: "[x]", asciiKeys: true, halfBlocks: false)
}

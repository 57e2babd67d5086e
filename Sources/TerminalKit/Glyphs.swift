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
    public var spinner: [String]

    public static let unicode = Glyphs(
        box: .rounded, focusBox: .heavy, disabledBox: .dashed, selected: "▸", back: "‹ Back", pencil: "✎",
        chevron: "›", bullet: "•", caret: "▴", skeleton: "░", rule: "─",
        spinner: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"])

    public static let ascii = Glyphs(
        box: .ascii, focusBox: .asciiHeavy, disabledBox: .asciiDashed, selected: ">", back: "< Back", pencil: "edit",
        chevron: ">", bullet: "*", caret: "^", skeleton: ".", rule: "-", spinner: ["|", "/", "-", "\\"])
}

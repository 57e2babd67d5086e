/// The six-box one-time-code entry.
///
/// Digits only; typing fills the next box, backspace clears the last. An error keeps the digits
/// (the user edits them) and shows danger borders plus a message line. The focused box has a
/// heavy border, so focus does not depend on colour.
public struct OTPInput: Hashable, Sendable {
    public let length: Int
    public private(set) var digits: [Character]
    public var error: String?
    public var isFocused: Bool
    public var isDisabled: Bool

    public init(
        length: Int = 6, digits: String = "", error: String? = nil, isFocused: Bool = true, isDisabled: Bool = false
    ) {
        self.length = length
        self.digits = Array(digits.filter(Self.isDigit).prefix(length))
        self.error = error
        self.isFocused = isFocused
        self.isDisabled = isDisabled
    }

    /// ASCII digits only: a code never holds "٤" or "４".
    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isWholeNumber }

    public var code: String { String(digits) }
    public var isComplete: Bool { digits.count == length }
    /// The box the next digit goes into (the last one when all are full).
    public var focusedIndex: Int { min(digits.count, length - 1) }

    /// Adds a digit; anything else is ignored. Returns whether the code changed.
    @discardableResult
    public mutating func type(_ character: Character) -> Bool {
        guard !isDisabled, Self.isDigit(character), digits.count < length else { return false }
        digits.append(character)
        return true
    }

    @discardableResult
    public mutating func backspace() -> Bool {
        guard !isDisabled, !digits.isEmpty else { return false }
        digits.removeLast()
        return true
    }

    public mutating func clear() { digits = [] }

    /// Fills every box from pasted text holding exactly `length` digits ("482915", "482 915",
    /// "482-915"); any other paste is ignored. Returns whether it was taken.
    @discardableResult
    public mutating func paste(_ text: String) -> Bool {
        let found = text.filter(Self.isDigit)
        guard !isDisabled, found.count == length else { return false }
        digits = Array(found)
        return true
    }

    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .paste(let text): return paste(text)
        case .key(.character(let c)): return type(c)
        case .key(.backspace), .key(.delete): return backspace()
        default: return false
        }
    }

    public static let boxWidth = 5
    public static let gap = 1
    public var width: Int { length * Self.boxWidth + (length - 1) * Self.gap }
    /// Rows used: three for the boxes, one under them for the caret, one for the message.
    public var height: Int { 5 }

    /// Draws the boxes centred in `rect`, the caret under the focused box and the error line.
    public func render(into grid: inout CellGrid, in rect: Rect, glyphs: Glyphs = .unicode) {
        guard rect.height >= 3 else { return }
        let x0 = TextLayout.centeredX(width: width, in: rect.width, from: rect.x)
        for index in 0..<length {
            let box = Rect(x: x0 + index * (Self.boxWidth + Self.gap), y: rect.y, width: Self.boxWidth, height: 3)
            let focused = isFocused && !isDisabled && index == focusedIndex
            var style: Style = error != nil ? Style.danger.with(.bold) : (focused ? .accent : .border)
            if isDisabled { style = Style.border.with(.dim) }
            let lines = isDisabled ? glyphs.disabledBox : (focused ? glyphs.focusBox : glyphs.box)
            grid.drawBox(box, lines: lines, style: style)
            if index < digits.count {
                grid.put(String(digits[index]), at: Point(x: box.x + 2, y: box.y + 1), style: .bold)
            }
            if focused, rect.height > 3 {
                grid.put(glyphs.caret, at: Point(x: box.x + 2, y: box.maxY), style: .accent)
            }
        }
        if let error, rect.height > 4 {
            grid.putCentered(error, row: rect.y + 4, in: rect, style: Style.danger.with(.bold))
        }
    }
}

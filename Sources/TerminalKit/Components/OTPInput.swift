/// The six-box one-time-code entry.
///
/// Digits only. A caret sits on a box: typing puts the digit there (over the one it holds, so a
/// middle digit is fixed without erasing) and moves on; ← → Home End move the caret; Backspace
/// erases the digit before the caret and Delete the one at it, the digits after closing up (a
/// code has no holes). After the last digit of a full code the caret is past the end, drawn
/// under the last box: Backspace there erases the last digit, as it always did.
///
/// An error keeps the digits and shows danger borders plus a message line. A refused code stays
/// visible (`startsOver`): the next digit typed starts a new code in the first box, while moving the
/// caret or erasing edits the digits kept. The caret's box has a heavy border and a "▴" under it,
/// and a digit that typing would replace is drawn in reverse, so neither focus nor the caret depends on colour.
public struct OTPInput: Hashable, Sendable {
    public let length: Int
    public private(set) var digits: [Character]
    /// Where the next digit goes: 0 is the first box, `digits.count` is after the last digit.
    public private(set) var caret: Int
    public var error: String?
    public var isFocused: Bool
    public var isDisabled: Bool
    /// The digits are a refused code kept for reading (seed 000): the next digit or paste starts a
    /// new code rather than being refused by full boxes; a caret move or an erase clears this, as the
    /// user has chosen to fix the kept digits instead.
    public var startsOver: Bool = false
    /// Each digit drawn as a dot: for recordings, which are shared (`ScreenModel.concealingSecrets`).
    public var isConcealed = false

    public init(
        length: Int = 6, digits: String = "", error: String? = nil, isFocused: Bool = true, isDisabled: Bool = false
    ) {
        self.length = length
        self.digits = Array(digits.filter(Self.isDigit).prefix(length))
        self.caret = self.digits.count
        self.error = error
        self.isFocused = isFocused
        self.isDisabled = isDisabled
    }

    /// ASCII digits only: a code never holds "٤" or "４".
    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isWholeNumber }

    public var code: String { String(digits) }
    public var isComplete: Bool { digits.count == length }
    /// The box the caret is drawn under (the last one when the caret is past a full code).
    /// The first box while the next digit starts a new code.
    public var focusedIndex: Int { startsOver ? 0 : min(caret, length - 1) }
    /// The caret is on a box holding a digit, so typing replaces it (drawn in reverse).
    public var isReplacing: Bool { caret < digits.count }

    // MARK: Editing

    /// Puts a digit at the caret, over the one there if any, and moves on; anything else is
    /// ignored. Returns whether the code changed: typing the digit a box already holds only
    /// moves on, so a screen does not send the same wrong code twice.
    @discardableResult
    public mutating func type(_ character: Character) -> Bool {
        guard !isDisabled, Self.isDigit(character) else { return false }
        if startsOver { clear() }
        guard caret < length else { return false }
        let changed: Bool
        if caret < digits.count {
            changed = digits[caret] != character
            digits[caret] = character
        } else {
            changed = true
            digits.append(character)
        }
        caret += 1
        return changed
    }

    /// Erases the digit before the caret.
    @discardableResult
    public mutating func backspace() -> Bool {
        guard !isDisabled, caret > 0 else { return false }
        startsOver = false
        digits.remove(at: caret - 1)
        caret -= 1
        return true
    }

    /// Erases the digit at the caret; the caret stays.
    @discardableResult
    public mutating func deleteForward() -> Bool {
        guard !isDisabled, caret < digits.count else { return false }
        startsOver = false
        digits.remove(at: caret)
        return true
    }

    /// Moves the caret by `offset` boxes, no further than the first box or just after the
    /// last digit (there is no box to reach beyond the digits). Returns whether it moved.
    @discardableResult
    public mutating func moveCaret(by offset: Int) -> Bool {
        moveCaret(to: caret + offset)
    }

    @discardableResult
    public mutating func moveCaret(to position: Int) -> Bool {
        guard !isDisabled else { return false }
        startsOver = false
        let clamped = max(0, min(position, digits.count))
        defer { caret = clamped }
        return clamped != caret
    }

    public mutating func clear() {
        digits = []
        caret = 0
        startsOver = false
    }

    // MARK: Paste

    /// What a paste did, with the one line a screen shows about it (`hint`).
    public enum PasteResult: Hashable, Sendable {
        /// A whole code replaced every box (`"482 915"`, or the only 6-digit number in a pasted
        /// text message).
        case code
        /// Fewer digits than a code has went in from the caret, as if typed; `missing` boxes
        /// are still empty.
        case partial(digits: Int, missing: Int)
        /// Nothing changed.
        case refused(PasteRefusal)

        /// Whether the boxes changed.
        public var changed: Bool {
            if case .refused = self { return false }
            return true
        }

        /// One line for under the boxes, or nil when the paste needs no word.
        public var hint: String? {
            switch self {
            case .code, .partial(_, missing: 0): return nil
            case .partial(let count, let missing):
                return "Pasted \(count) \(count == 1 ? "digit" : "digits"). Type the other \(missing)."
            case .refused(let refusal): return refusal.hint
            }
        }
    }

    /// Why a paste changed nothing.
    public enum PasteRefusal: Hashable, Sendable {
        /// The boxes are off (code expired, request under way).
        case disabled
        case noDigits
        /// More digits than a code has and no single code among them: which ones to take would
        /// be a guess, and a guessed full code is sent at once and spends one of five attempts.
        case tooManyDigits(found: Int, codeLength: Int)
        /// Fewer digits than a code, but more than the boxes from the caret on can take.
        case doesNotFit(digits: Int, boxesLeft: Int)

        public var hint: String? {
            switch self {
            case .disabled: return nil
            case .noDigits: return "There are no digits in what you pasted."
            case .tooManyDigits(let found, let codeLength):
                return "That paste has \(found) digits, the code \(codeLength). Nothing was pasted."
            case .doesNotFit(_, boxesLeft: 0): return "The boxes are full. Nothing was pasted."
            case .doesNotFit(let count, let left):
                return
                    "That paste has \(count) digits and \(left) \(left == 1 ? "box is" : "boxes are") left. Nothing was pasted."
            }
        }
    }

    /// Takes pasted text: exactly `length` digits (spaces and dashes between them are fine)
    /// replace the whole code wherever the caret is; a text message pasted whole gives up its one
    /// `length`-digit number ("Your code is 482915. It expires in 5 minutes."); fewer digits
    /// go in from the caret as if typed, when they all fit. Anything else changes nothing and
    /// says why: digits are never dropped, because the code that is left would be a guess.
    public mutating func fill(pasted text: String) -> PasteResult {
        guard !isDisabled else { return .refused(.disabled) }
        let found = text.filter(Self.isDigit)
        if found.count >= length, let code = Self.onlyCode(in: text, length: length) {
            digits = Array(code)
            caret = length
            startsOver = false
            return .code
        }
        if found.isEmpty { return .refused(.noDigits) }
        if startsOver, found.count < length { clear() }
        if found.count > length { return .refused(.tooManyDigits(found: found.count, codeLength: length)) }
        let boxesLeft = length - caret
        guard found.count <= boxesLeft else { return .refused(.doesNotFit(digits: found.count, boxesLeft: boxesLeft)) }
        for digit in found { type(digit) }
        return .partial(digits: found.count, missing: length - digits.count)
    }

    /// The code in a pasted text: all its digits when there are exactly `length`, else its one
    /// run of exactly `length` digits in a row (a text message with other numbers in it).
    static func onlyCode(in text: String, length: Int) -> String? {
        let all = text.filter(isDigit)
        if all.count == length { return all }
        let runs = text.split(whereSeparator: { !isDigit($0) }).filter { $0.count == length }
        return runs.count == 1 ? String(runs[0]) : nil
    }

    /// Fills every box from pasted text holding exactly `length` digits, or a text message's one
    /// code; other pastes go in from the caret or change nothing (see `fill(pasted:)`, which says
    /// why). Returns whether the boxes changed.
    @discardableResult
    public mutating func paste(_ text: String) -> Bool { fill(pasted: text).changed }

    // MARK: Keys

    /// What a key or paste did to the boxes.
    public enum Edit: Hashable, Sendable {
        /// Not a key the boxes use: the screen may act on it.
        case ignored
        /// A key the boxes use that changed nothing (← on the first box, a letter, Backspace on
        /// empty boxes).
        case unchanged
        /// Only the caret moved.
        case moved
        /// The digits changed.
        case changed
        case pasted(PasteResult)

        /// Whether the digits changed.
        public var changedCode: Bool {
            switch self {
            case .changed: return true
            case .pasted(let result): return result.changed
            default: return false
            }
        }
    }

    /// Applies a key or paste. Screens that show a paste's hint, or keep the caret's moves
    /// apart from edits (so moving over a complete code does not send it again), use this.
    public mutating func edit(_ event: InputEvent) -> Edit {
        let before = digits
        let caretBefore = caret
        switch event {
        case .paste(let text): return .pasted(fill(pasted: text))
        case .key(.character(let c)): type(c)
        case .key(.backspace): backspace()
        case .key(.delete): deleteForward()
        case .key(.left): moveCaret(by: -1)
        case .key(.right): moveCaret(by: 1)
        case .key(.home), .key(.control("a")): moveCaret(to: 0)
        case .key(.end), .key(.control("e")): moveCaret(to: digits.count)
        default: return .ignored
        }
        if digits != before { return .changed }
        return caret != caretBefore ? .moved : .unchanged
    }

    /// Applies a key or paste; returns whether the code changed. Moving the caret returns false
    /// (the caret still moves), so a screen that sends a complete code on `true` does not send
    /// it again for an arrow key.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool { edit(event).changedCode }

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
                // The digit typing would replace is reversed: the caret is on it, not after it.
                let replacing = focused && isReplacing
                grid.put(
                    isConcealed ? glyphs.bullet : String(digits[index]), at: Point(x: box.x + 2, y: box.y + 1),
                    style: replacing ? Style.plain.with(.bold).with(.reverse) : .bold)
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

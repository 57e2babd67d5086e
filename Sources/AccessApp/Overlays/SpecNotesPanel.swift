import Foundation
import TerminalKit

/// The top screen's spec notes over it (F4, from any screen): why it behaves as it does, the calls
/// it makes with what each answer leads to, and the seed sections behind it. For support staff
/// explaining what a user saw, QA and designers. Scrolls when the notes do not fit.
public struct SpecNotesPanel: OverlayModel {
    /// The screen's id, as `accessdeck screens` lists it.
    public var screen: String
    public var notes: SpecNotes
    /// The first line shown.
    public var scroll: Int

    public init(screen: String, notes: SpecNotes, scroll: Int = 0) {
        self.screen = screen
        self.notes = notes
        self.scroll = scroll
    }

    /// The notes of the screen a person sees: in the gallery's full-screen preview, the previewed one.
    public init(over top: AnyScreen) {
        var shown = top.base
        if let preview = top.as(PreviewScreen.self), let state = preview.shownState() { shown = state.top.base }
        self.init(screen: shown.id, notes: type(of: shown).specNotes)
    }

    public static let keys: [Key] = [.function(4)]

    public enum Intent: Sendable { case up, down, pageUp, pageDown, close }

    public var id: String { "spec-notes" }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        [
            KeyBinding.move(up: .up, down: .down).described("Scroll"),
            KeyBinding(KeyHint([.pageUp, .pageDown], "Page"), intents: [.pageUp: .pageUp, .pageDown: .pageDown]),
            KeyBinding([.escape] + Self.keys, "Close", .close),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        let page = max(1, Self.content(in: context.size).height - 1)
        let last = lastScroll(in: context.size)
        switch intent {
        case .up: scroll = max(0, scroll - 1)
        case .down: scroll = min(last, scroll + 1)
        case .pageUp: scroll = max(0, scroll - page)
        case .pageDown: scroll = min(last, scroll + page)
        case .close: return [.dismissOverlay]
        }
        return []
    }

    /// Text to read: a click outside does nothing (the wheel scrolls it, the footer's hints still work).
    public var clickOutside: Key? { nil }

    public func frame(_ context: OverlayContext) -> Rect { Self.frame(in: context.size) }

    /// Over the content column (at most `Canvas.maxContentWidth`), not the whole width: at 160 columns its lines
    /// ran to 150 while the screen under it was 96 wide (issue 50).
    static func frame(in size: Size) -> Rect {
        let column = min(size.cols, Canvas.maxContentWidth)
        return Rect(x: (size.cols - column) / 2, y: 0, width: column, height: size.rows).inset(
            horizontal: 4, vertical: 2)
    }
    static func content(in size: Size) -> Rect { frame(in: size).inset(horizontal: 2, vertical: 1) }

    func lastScroll(in size: Size) -> Int {
        let content = Self.content(in: size)
        return max(0, lines(width: content.width).count - content.height)
    }

    struct Line: Equatable {
        var text: String
        var style: Style
        var indent = 0
    }

    /// Every line of the notes at this width, wrapped, before scrolling.
    func lines(width: Int) -> [Line] {
        var lines: [Line] = []
        func heading(_ text: String) {
            if !lines.isEmpty { lines.append(Line(text: "", style: .plain)) }
            lines.append(Line(text: text, style: Style.accent.with(.bold)))
        }
        /// Wrapped text whose first line starts with `label` and whose next lines hang under the text.
        func hanging(_ label: String, _ text: String, indent: Int = 0, style: Style = .plain) {
            let hang = DisplayWidth.of(label)
            for (index, line) in TextLayout.wrap(text, width: max(1, width - indent - hang)).enumerated() {
                lines.append(
                    Line(
                        text: (index == 0 ? label : String(repeating: " ", count: hang)) + line, style: style,
                        indent: indent))
            }
        }

        heading("Why")
        for (index, paragraph) in notes.why.enumerated() {
            if index > 0 { lines.append(Line(text: "", style: .plain)) }
            hanging("", paragraph)
        }
        heading("API")
        if notes.calls.isEmpty { hanging("", "No backend calls.", style: .muted) }
        for (index, call) in notes.calls.enumerated() {
            if index > 0 { lines.append(Line(text: "", style: .plain)) }
            hanging("", "\(call.method.rawValue) \(call.path)", style: .bold)
            hanging("", "When: \(call.when)", indent: 2, style: .muted)
            for answer in call.answers { hanging("\(answer.status)  ", answer.then, indent: 2) }
            if let noAnswer = call.noAnswer { hanging("No answer: ", noAnswer, indent: 2) }
        }
        heading("From the spec")
        if notes.seeds.isEmpty { hanging("", "No seed: a tool of AccessDeck itself.", style: .muted) }
        for reference in notes.seeds { hanging("Seed \(reference.seed.label) · ", reference.title) }
        return lines
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        let glyphs = context.glyphs
        _ = grid.drawPanel(frame, title: "Spec notes · \(screen)", glyphs: glyphs)
        let content = Self.content(in: grid.size)
        let all = lines(width: content.width)
        let first = min(scroll, lastScroll(in: grid.size))
        for (row, line) in all.dropFirst(first).prefix(content.height).enumerated() {
            var style = line.style
            style.background = .surface
            grid.put(
                line.text, at: Point(x: content.x + line.indent, y: content.y + row), style: style, maxX: content.maxX)
        }
        // Where the view stands in the notes, on the bottom border, so a cut-off end is never missed.
        let shown = min(all.count, first + content.height)
        let position = all.count > content.height ? " \(first + 1)–\(shown) of \(all.count) · " : " "
        let hint = "\(position)\(glyphs.label(for: .up))\(glyphs.label(for: .down)) PgUp PgDn · Esc closes "
        grid.put(
            TextLayout.truncate(hint, width: frame.width - 4), at: Point(x: frame.x + 2, y: frame.maxY - 1),
            style: Style(foreground: .muted, background: .surface))
    }
}

/// The panel has no screen of its own; registered as a feature for its gallery state (and snapshot).
enum SpecNotesFeature: Feature {
    static let screens: [any ScreenModel.Type] = []
    static var sheetGallery: [GalleryEntry] {
        [
            GalleryEntry("enter-code:spec-notes", "F4: the spec notes of Enter the code, over it") { now in
                let below =
                    EnterCodeScreen.gallery.first { $0.id == "enter-code:incorrect" } ?? EnterCodeScreen.gallery[0]
                var state = below.makeState(now)
                state.overlay = .specNotes(SpecNotesPanel(over: state.top))
                return state
            }
        ]
    }
}

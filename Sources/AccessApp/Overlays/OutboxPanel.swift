import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The reference backend's outbox over the current screen: the texts and emails it "sent".
/// Enter on a code fills the code boxes; Enter on a link opens it in the app. This is how a
/// person completes the flows without a phone (the only place codes are shown).
public struct OutboxPanel: OverlayModel, FilterableList {
    public var messages: [OutboxMessage]
    public var selection: Int
    public var isLoading: Bool
    public var error: String?
    /// `/`: only the messages whose address, code, kind, purpose or state hold every word typed.
    public var filter = ListFilter()

    public init(messages: [OutboxMessage] = [], selection: Int = 0, isLoading: Bool = true, error: String? = nil) {
        self.messages = messages
        self.selection = selection
        self.isLoading = isLoading
        self.error = error
    }

    public static let keys: [Key] = [.control("o"), .function(2)]

    /// Enter on a message the screen on top did not take: a notice carries nothing to use (issue 28 item 5).
    static func unusableText(_ message: OutboxMessage) -> String {
        if message.code == nil, message.link == nil { return "That's a notice: there is nothing in it to use." }
        return "Nothing on this screen takes that \(message.code == nil ? "link" : "code")."
    }

    public enum Intent: Sendable { case list(ListIntent), use, reload, close }
    public enum Reply: Equatable, Sendable { case loaded(Result<[OutboxMessage], APIError>) }

    public var id: String { "outbox" }
    /// Letters go to the filter while it is being typed.
    public var takesText: Bool { filter.isEditing }

    /// The messages listed: all of them, or those the filter keeps. The selection indexes into these.
    var shown: [OutboxMessage] {
        messages.filter { message in
            filter.matches([
                Self.title(message), message.purpose.replacingOccurrences(of: "_", with: " "),
                Self.mark(message.status) ?? "",
            ])
        }
    }

    var shownCount: Int { shown.count }

    /// As the journal's: Enter ends the typing and keeps the filter; Esc clears it, then closes.
    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        listBindings(
            open: KeyBinding([.enter], "Use here", .use), more: [KeyBinding([.character("r")], "Reload", .reload)],
            close: .close, panelKeys: Self.keys, Intent.list)
    }

    public func onAppear(_ context: OverlayContext) -> [Command] { [.call(LoadOutbox(), Reply.loaded)] }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        switch intent {
        case .list(let intent):
            perform(intent, page: layout(frame(context).inset(horizontal: 2, vertical: 1)).rows.count)
        case .use:
            let shown = self.shown
            guard shown.indices.contains(selection) else { return [] }
            return [.dismissOverlay, .useOutboxMessage(shown[selection])]
        case .reload:
            isLoading = true
            return [.call(LoadOutbox(), Reply.loaded)]
        case .close: return [.dismissOverlay]
        }
        return []
    }

    public mutating func handle(_ event: InputEvent, _ context: OverlayContext) -> [Command]? {
        typeIntoFilter(event)
    }

    public mutating func receive(_ reply: Reply, _ context: OverlayContext) -> [Command] {
        guard case .loaded(let result) = reply else { return [] }
        isLoading = false
        switch result {
        case .success(let loaded):
            messages = loaded.sorted { $0.id > $1.id }
            selection = 0
            error = nil
        case .failure(let failure):
            error = failure.message
        }
        return []
    }

    /// Ages are read on the app's clock, which is the backend's: a message sent 31 backend-minutes
    /// ago says "31 min ago" however little wall time has passed.
    static func describe(_ message: OutboxMessage, now: Date) -> (title: String, detail: String) {
        let age = max(0, Int(now.timeIntervalSince(message.sentAt)))
        let ago = age < 60 ? "\(age) s ago" : age < 3600 ? "\(age / 60) min ago" : "\(age / 3600) h ago"
        return (
            title(message), "for \(message.purpose.replacingOccurrences(of: "_", with: " ")) · \(ago)"
        )
    }

    /// "SMS to +995 511 200 300 · code 123456": what the filter reads, with the purpose and the state.
    static func title(_ message: OutboxMessage) -> String {
        let isText = message.outboxChannel == .sms
        let channel = isText ? "SMS" : "Email"
        let to = isText ? PhoneNumberRules.display(e164: message.to) : message.to
        let what: String
        switch (message.code, message.outboxKind) {
        case (let code?, _): what = "code \(code)"
        case (nil, .emailVerifyLink?): what = "verification link"
        case (nil, .emailChangedNotice?): what = "email changed, with a revert link"
        case (nil, .passwordChangedNotice?): what = "password changed"
        case (nil, .recoveryLink?): what = "recovery link"
        case (nil, .passwordResetLink?): what = "password reset link"
        case (nil, .recoveryStartedNotice?): what = "recovery requested"
        case (nil, .recoveryCompletedNotice?): what = "account recovered"
        case (nil, .lockoutNotice?): what = "sign-in locked after failed attempts"
        case (nil, .newDeviceNotice?): what = "new device signed in"
        case (nil, .sessionSignedOutNotice?): what = "a device was signed out"
        case (nil, _) where message.link != nil: what = "sign-in link"
        default: what = message.kind
        }
        return "\(channel) to \(to) · \(what)"
    }

    /// The word on a code or link that no longer works (the backend's verdict); nil while it works.
    static func mark(_ status: OutboxStatus) -> String? {
        switch status {
        case .live: nil
        case .used: "used"
        case .expired: "expired"
        case .superseded: "replaced"
        case .cancelled: "cancelled"
        case .exhausted: "too many tries"
        }
    }

    public func frame(_ context: OverlayContext) -> Rect { Rect(size: context.size).inset(horizontal: 4, vertical: 2) }

    /// The list starts under the panel's line of explanation and a blank line; two lines a message.
    private static func listTop(_ inner: Rect) -> Int { inner.y + 2 }

    /// The messages shown, scrolled so the selection is among them: the first one's index and where each
    /// is drawn.
    private func layout(_ inner: Rect) -> (first: Int, rows: [Rect]) {
        let top = Self.listTop(inner) + (isLoading ? 1 : 0) + (error == nil ? 0 : 1)
        let fits = max(1, (inner.maxY - top) / 2)
        let count = shown.count
        let position = ListPosition(selection: selection, count: count)
        let first = position.firstShown(rows: fits, current: max(0, selection - fits + 1))
        let drawn = max(0, min(count - first, fits, (inner.maxY - top) / 2))
        return (first, (0..<drawn).map { Rect(x: inner.x - 1, y: top + 2 * $0, width: inner.width + 2, height: 2) })
    }

    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] {
        layout(frame.inset(horizontal: 2, vertical: 1)).rows
    }

    public mutating func select(row: Int, _ context: OverlayContext) {
        let index = layout(frame(context).inset(horizontal: 2, vertical: 1)).first + row
        if shown.indices.contains(index) { selection = index }
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        let glyphs = context.glyphs
        let now = context.now
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Outbox", glyphs: glyphs)
        var y = inner.y
        func line(_ text: String, _ style: Style) { grid.putLine(text, in: inner, y: &y, style: style) }
        line("What the reference backend sent, newest first. Enter uses it here.", surface.with(.dim))
        let shown = self.shown
        if filter.isActive {
            filter.render(
                into: &grid, at: Point(x: inner.x, y: y), width: inner.width, style: surface, matched: shown.count,
                of: messages.count)
        }
        y = Self.listTop(inner)
        if isLoading { line("Loading…", surface) }
        if let error { line(error, Style(foreground: .danger, background: .surface)) }
        if !isLoading, error == nil, shown.isEmpty {
            line(messages.isEmpty ? "Nothing sent yet." : "No message matches the filter.", surface)
        }
        if !shown.isEmpty {
            ListPosition(selection: selection, count: shown.count).render(
                onBottomBorderOf: frame, into: &grid, style: Style(foreground: .muted, background: .surface))
        }
        let layout = layout(inner)
        for (offset, row) in layout.rows.enumerated() {
            let index = layout.first + offset
            let message = shown[index]
            let selected = index == selection
            let style = Style.panelRow(isSelected: selected)
            let text = Self.describe(message, now: now)
            grid.drawRow(row, style: style, isSelected: selected, glyphs: glyphs)
            // A column after the selection mark, as the palette's rows: "▸ SMS to…", not "▸SMS to…" (issue 50).
            func put(_ text: String, line: Int, _ style: Style, width: Int = inner.width - 1) {
                grid.put(
                    TextLayout.truncate(text, width: width), at: Point(x: inner.x + 1, y: row.y + line), style: style)
            }
            guard let mark = Self.mark(message.status) else {
                put(text.title, line: 0, style)
                put(text.detail, line: 1, Style(foreground: .muted, background: style.background))
                continue
            }
            // A dead code or link is dimmed and says why in words, so the state shows without colour.
            let badge = " \(mark) "
            let badgeWidth = DisplayWidth.of(badge)
            grid.put(
                badge, at: Point(x: inner.maxX - badgeWidth, y: row.y),
                style: Style(foreground: .muted, background: style.background, attributes: .reverse))
            var faded = style
            faded.foreground = .muted
            faded.attributes.insert(.dim)
            put(text.title, line: 0, faded, width: inner.width - 1 - badgeWidth - 1)
            put(text.detail, line: 1, faded)
        }
    }
}

/// The reference backend's outbox: what it "sent" by SMS and email.
struct LoadOutbox: APIRequest {
    func perform(_ api: APIContext) async throws -> [OutboxMessage] { try await api.client.adminOutbox() }
}

import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The reference backend's outbox over the current screen: the texts and emails it "sent", as the customer got
/// them, and the sends a limit refused (issue 49 item 4). Each row is labelled in words at its time on the
/// backend's clock (UTC) with how long ago; the selected message's full text shows under the list. Enter on a code
/// fills the code boxes; Enter on a link opens it in the app. This is how a person completes the flows without a
/// phone (the only place codes are shown).
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
        if message.outboxKind == .sendRefused { return "That send was refused: nothing went out." }
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
            filter.matches([Self.title(message), Self.mark(message) ?? "", message.subject ?? "", message.text])
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

    /// "19:42:07 · 31 s ago · Verify it's you": when, at the backend's clock (UTC) and as an age, then the email's
    /// subject, or for a refused send which limit refused it and when one can go again. Ages are read on the app's
    /// clock, which is the backend's: a message sent 31 backend-minutes ago says "31 min ago" however little wall
    /// time has passed.
    static func describe(_ message: OutboxMessage, now: Date) -> (title: String, detail: String) {
        let when = "\(clock(message.sentAt)) · \(TimelinePanel.ago(message.sentAt, now: now))"
        if message.outboxKind == .sendRefused {
            let limit = message.limit.map(limitWords) ?? "a send limit"
            let again = message.retryAt.map { " · again from \(clock($0))" } ?? ""
            return (title(message), "\(when) · \(limit)\(again)")
        }
        let said = message.subject ?? message.text
        return (title(message), said.isEmpty ? when : "\(when) · \(said)")
    }

    /// "19:42:07": a time of day on the backend's clock, in UTC as the timeline's.
    static func clock(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let time = calendar.dateComponents([.hour, .minute, .second], from: date)
        return [time.hour, time.minute, time.second].map { String(format: "%02d", $0 ?? 0) }.joined(separator: ":")
    }

    /// "SMS to +995 511 200 300 · code 123456 · sign-in": what the filter reads, in words.
    static func title(_ message: OutboxMessage) -> String {
        let isText = message.outboxChannel == .sms
        let channel = isText ? "SMS" : "Email"
        let to = isText ? PhoneNumberRules.display(e164: message.to) : message.to
        return "\(channel) to \(to) · \(label(message))"
    }

    /// What a message is, in words: "code 123456 · sign-in", "Recovery code used — 9 left", "not sent: a sign-in
    /// code". Never the wire's `recovery_code_used_notice · for remaining:9`.
    static func label(_ message: OutboxMessage) -> String {
        switch message.outboxKind {
        case .otp?: return "code \(message.code ?? "") · \(codePurpose(message.purpose))"
        case .reauthLink?: return "Verify it's you link"
        case .emailVerifyLink?: return "verification link"
        case .emailChangedNotice?: return "email changed, with a revert link"
        case .passwordChangedNotice?: return "password changed"
        case .providerConnectedNotice?: return "\(provider(message.purpose)) connected"
        case .providerDisconnectedNotice?: return "\(provider(message.purpose)) disconnected"
        case .accountDeletedNotice?: return "account deleted"
        case .recoveryLink?: return "recovery link"
        case .recoveryStartedNotice?: return "recovery requested"
        case .recoveryCompletedNotice?: return "account recovered"
        case .lockoutNotice?: return "sign-in locked after failed attempts"
        case .newDeviceNotice?: return "new device signed in"
        case .passwordResetLink?: return "password reset link"
        case .sessionSignedOutNotice?: return "a device was signed out"
        case .twoFactorEnabledNotice?: return "two-factor turned on"
        case .twoFactorDisabledNotice?: return "two-factor turned off"
        case .recoveryCodeUsedNotice?:
            let left = message.purpose.hasPrefix("remaining:") ? message.purpose.dropFirst("remaining:".count) : "?"
            return "Recovery code used — \(left) left"
        case .passkeyAddedNotice?: return "passkey added"
        case .passkeyRemovedNotice?: return "passkey removed"
        case .passkeyClonedNotice?: return "passkey turned off: it looked copied"
        case .sendRefused?: return "not sent: \(askedFor(message))"
        case nil: return message.link != nil ? "link" : message.kind
        }
    }

    /// What a refused send would have been: a code's purpose, or a link's kind.
    private static func askedFor(_ message: OutboxMessage) -> String {
        switch message.purpose {
        case "sign_in": "a sign-in code"
        case "change_phone": "a code for the new number"
        case "add_phone": "a code to add a phone"
        case "reverify_phone": "a code to confirm the phone"
        case "reauth": "a Verify it's you \(message.outboxChannel == .sms ? "code" : "link")"
        case "password_reset": "a password reset link"
        case "recovery": "a recovery link"
        case "register", "email_change", "email_add": "a verification link"
        default: message.purpose.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// What a code is for, in words.
    private static func codePurpose(_ purpose: String) -> String {
        switch purpose {
        case "sign_in": "sign-in"
        case "change_phone": "new number"
        case "add_phone": "add a phone"
        case "reauth": "Verify it's you"
        case "reverify_phone": "phone check after recovery"
        default: purpose.replacingOccurrences(of: "_", with: " ")
        }
    }

    private static func provider(_ purpose: String) -> String { purpose.hasPrefix("google") ? "Google" : "Apple" }

    /// A send limit in words, its numbers from the rule's constants: "30 s between sends".
    static func limitWords(_ limit: RateLimitKind) -> String {
        switch limit {
        case .cooldown: "\(RuleText.duration(SendLimits.cooldown, .short)) between sends"
        case .resendWindow:
            "\(SendLimits.maxResendsPerWindow) resends per \(RuleText.duration(SendLimits.resendWindow, .short))"
        case .dailyCap: "\(SendLimits.maxCodesPerDay) sends per \(RuleText.duration(SendLimits.dailyWindow, .short))"
        case .clientAddressHourly: "\(SendLimits.maxSendsPerClientAddress) sends an hour per network"
        case .accountHourly: "\(SendLimits.maxSendsPerAccount) sends an hour per account"
        case .globalHourly: "\(SendLimits.maxSendsPerHour) sends an hour in all"
        case .passwordAttempts, .loginLockout, .twoFactorAttempts:
            limit.rawValue.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// The word on a message that cannot be used: a refused send's, or a code or link that no longer works (the
    /// backend's verdict); nil while it works.
    static func mark(_ message: OutboxMessage) -> String? {
        message.outboxKind == .sendRefused ? "not sent" : mark(message.status)
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
    /// Under the list, the selected message as the customer got it: a blank line, its subject (or what it is),
    /// and its text, wrapped to the lines left.
    static let previewHeight = 6

    /// Where the list may draw: above the preview, once the panel is tall enough for both.
    private static func listBottom(_ inner: Rect) -> Int {
        inner.height >= 3 * previewHeight ? inner.maxY - previewHeight : inner.maxY
    }

    private func layout(_ inner: Rect) -> (first: Int, rows: [Rect]) {
        let top = Self.listTop(inner) + (isLoading ? 1 : 0) + (error == nil ? 0 : 1)
        let bottom = Self.listBottom(inner)
        let fits = max(1, (bottom - top) / 2)
        let count = shown.count
        let position = ListPosition(selection: selection, count: count)
        let first = position.firstShown(rows: fits, current: max(0, selection - fits + 1))
        let drawn = max(0, min(count - first, fits, (bottom - top) / 2))
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
            guard let mark = Self.mark(message) else {
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
        if shown.indices.contains(selection), Self.listBottom(inner) < inner.maxY {
            renderPreview(of: shown[selection], into: &grid, inner: inner, surface: surface)
        }
    }

    /// The selected message in full: "Subject: …" for an email, then its text as the customer got it (a refused
    /// send's, the refusal's message as the backend answered it; the app words the limit on screen its own way).
    private func renderPreview(of message: OutboxMessage, into grid: inout CellGrid, inner: Rect, surface: Style) {
        var y = Self.listBottom(inner) + 1
        let heading =
            message.outboxKind == .sendRefused
            ? "Not sent. The backend answered:"
            : message.subject.map { "Subject: \($0)" } ?? "Text message:"
        grid.putLine(heading, in: inner, y: &y, style: surface.with(.bold))
        for text in TextLayout.wrap(message.text, width: inner.width) {
            grid.putLine(text, in: inner, y: &y, style: surface)
        }
    }
}

/// The reference backend's outbox: what it "sent" by SMS and email.
struct LoadOutbox: APIRequest {
    func perform(_ api: APIContext) async throws -> [OutboxMessage] { try await api.client.adminOutbox() }
}

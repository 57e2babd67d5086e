import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// The reference backend's outbox over the current screen: the texts and emails it "sent".
/// Enter on a code fills the code boxes; Enter on a link opens it in the app. This is how a
/// person completes the flows without a phone (the only place codes are shown).
public struct OutboxPanel: Equatable, Sendable {
    public var messages: [OutboxMessage]
    public var selection: Int
    public var isLoading: Bool
    public var error: String?
    /// The load the panel waits for; a reply to an older one is dropped.
    public var awaiting: RequestID?

    public init(messages: [OutboxMessage] = [], selection: Int = 0, isLoading: Bool = true, error: String? = nil) {
        self.messages = messages
        self.selection = selection
        self.isLoading = isLoading
        self.error = error
    }

    public static let keys: [Key] = [.control("o"), .function(2)]

    enum Outcome: Equatable {
        case stay
        case close
        case reload
        case use(OutboxMessage)
    }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .up, .character("k"): selection = max(0, selection - 1)
        case .down, .character("j"): selection = min(max(0, messages.count - 1), selection + 1)
        case .character("r"): return .reload
        case .enter: return messages.indices.contains(selection) ? .use(messages[selection]) : .stay
        case .escape, .control("o"), .function(2), .character("q"): return .close
        default: break
        }
        return .stay
    }

    mutating func receive(_ result: Result<AnyValue, APIError>) {
        isLoading = false
        awaiting = nil
        switch result {
        case .success:
            messages = (result.reply([OutboxMessage].self) ?? []).sorted { $0.id > $1.id }
            selection = 0
            error = nil
        case .failure(let failure):
            error = failure.message
        }
    }

    /// Ages are read on the app's clock, which is the backend's: a message sent 31 backend-minutes
    /// ago says "31 min ago" however little wall time has passed.
    static func describe(_ message: OutboxMessage, now: Date) -> (title: String, detail: String) {
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
        case (nil, .recoveryStartedNotice?): what = "recovery requested"
        case (nil, .recoveryCompletedNotice?): what = "account recovered"
        case (nil, .lockoutNotice?): what = "sign-in locked after failed attempts"
        case (nil, .newDeviceNotice?): what = "new device signed in"
        case (nil, _) where message.link != nil: what = "sign-in link"
        default: what = message.kind
        }
        let age = max(0, Int(now.timeIntervalSince(message.sentAt)))
        let ago = age < 60 ? "\(age) s ago" : age < 3600 ? "\(age / 60) min ago" : "\(age / 3600) h ago"
        return (
            "\(channel) to \(to) · \(what)", "for \(message.purpose.replacingOccurrences(of: "_", with: " ")) · \(ago)"
        )
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

    func render(into grid: inout CellGrid, now: Date, glyphs: Glyphs) {
        let frame = grid.bounds.inset(horizontal: 4, vertical: 2)
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Outbox", glyphs: glyphs)
        var y = inner.y
        func line(_ text: String, _ style: Style, width: Int? = nil) {
            guard y < inner.maxY else { return }
            let width = width ?? inner.width
            grid.put(TextLayout.truncate(text, width: width), at: Point(x: inner.x, y: y), style: style)
            y += 1
        }
        line("What the reference backend sent, newest first. Enter uses it here.", surface.with(.dim))
        y += 1
        if isLoading { line("Loading…", surface) }
        if let error { line(error, Style(foreground: .danger, background: .surface)) }
        if !isLoading, error == nil, messages.isEmpty { line("Nothing sent yet.", surface) }
        for (index, message) in messages.enumerated() where y + 1 < inner.maxY {
            let selected = index == selection
            let style = selected ? Style(background: .selection, attributes: .bold) : surface
            let text = Self.describe(message, now: now)
            grid.fill(Rect(x: inner.x - 1, y: y, width: inner.width + 2, height: 2), style: style)
            grid.put(selected ? glyphs.selected : " ", at: Point(x: inner.x - 1, y: y), style: style)
            guard let mark = Self.mark(message.status) else {
                line(text.title, style)
                line(text.detail, Style(foreground: .muted, background: style.background))
                continue
            }
            // A dead code or link is dimmed and says why in words, so the state shows without colour.
            let badge = " \(mark) "
            let badgeWidth = DisplayWidth.of(badge)
            grid.put(
                badge, at: Point(x: inner.maxX - badgeWidth, y: y),
                style: Style(foreground: .muted, background: style.background, attributes: .reverse))
            var faded = style
            faded.foreground = .muted
            faded.attributes.insert(.dim)
            line(text.title, faded, width: inner.width - badgeWidth - 1)
            line(text.detail, faded)
        }
    }
}

/// The reference backend's outbox: what it "sent" by SMS and email.
struct LoadOutbox: APIRequest {
    func perform(_ api: APIContext) async throws -> [OutboxMessage] { try await api.client.adminOutbox() }
}

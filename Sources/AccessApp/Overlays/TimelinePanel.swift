import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// One person's story from the reference backend's event log (issue 49 item 2, `GET /_admin/timeline`): every
/// decision about them, newest first, each at its time on the backend's clock (UTC) with how long ago. `/`
/// filters; Enter shows one event whole: the rule's plain words (`Rule.summary`) and what the person saw. Opened
/// from the palette for the signed-in user ("Timeline: this account") or anyone ("Timeline: find user…").
public struct TimelinePanel: OverlayModel, FilterableList {
    /// Whom it shows: an account id, a phone number or an email address; nil for the signed-in user.
    public var user: String?
    public var events: [TimelineEvent] = []
    public var selection = 0
    public var isLoading = true
    public var error: String?
    /// Showing the selected event whole instead of the list.
    public var showsDetail = false
    /// `/`: only the events whose kind, words, details, rule or time hold every word typed.
    public var filter = ListFilter()

    public init(user: String? = nil) { self.user = user }

    public enum Intent: Sendable { case list(ListIntent), toggleDetail, closeDetail, reload, close }
    public enum Reply: Equatable, Sendable { case loaded(Result<Timeline, APIError>) }

    public var id: String { "timeline" }
    public var takesText: Bool { filter.isEditing }

    var shown: [TimelineEvent] {
        events.filter { event in
            filter.matches([event.kind, Self.words(event), Self.details(event), event.rule ?? "", Self.time(event.at)])
        }
    }

    var shownCount: Int { shown.count }

    var selected: TimelineEvent? { shown.indices.contains(selection) ? shown[selection] : nil }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        if showsDetail {
            return [
                KeyBinding([.enter], "List", .toggleDetail),
                KeyBinding([.character("r")], "Reload", .reload),
                KeyBinding([.escape], "Back", aliases: [.left], .closeDetail),
                KeyBinding([.character("q")], "Close", inFooter: false, .close),
            ]
        }
        return listBindings(
            open: KeyBinding([.enter], "Details", .toggleDetail),
            more: [KeyBinding([.character("r")], "Reload", .reload)], close: .close, Intent.list)
    }

    public func onAppear(_ context: OverlayContext) -> [Command] { [.call(LoadTimeline(user: user), Reply.loaded)] }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        switch intent {
        case .list(let intent):
            perform(intent, page: layout(frame(context).inset(horizontal: 2, vertical: 1)).rows.count)
        case .toggleDetail:
            if selected != nil { showsDetail.toggle() }
        case .closeDetail:
            showsDetail = false
        case .reload:
            isLoading = true
            return [.call(LoadTimeline(user: user), Reply.loaded)]
        case .close:
            return [.dismissOverlay]
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
        case .success(let timeline):
            events = timeline.events.sorted { $0.id > $1.id }
            if user == nil { user = timeline.userId }
            selection = 0
            showsDetail = false
            error = nil
        case .failure(let failure):
            error = failure.message
        }
        return []
    }

    // MARK: - Words

    /// The kind in words; a kind this build does not know, as the backend spelt it.
    static func words(_ event: TimelineEvent) -> String { EventKind(rawValue: event.kind)?.words ?? event.kind }

    /// "channel sms · purpose sign in · tries left 4", in the backend's order of keys (sorted).
    static func details(_ event: TimelineEvent) -> String {
        event.detail.additionalProperties.sorted { $0.key < $1.key }
            .filter { $0.key != "message" }
            .map {
                "\($0.key.replacingOccurrences(of: "_", with: " ")) \($0.value.replacingOccurrences(of: "_", with: " "))"
            }
            .joined(separator: " · ")
    }

    /// "2026-11-29 10:42:07 UTC": the date too, since a moved clock may be days ahead.
    static func time(_ date: Date) -> String {
        let text = date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
        return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }

    /// "3 min ago", on the app's clock, which is the backend's.
    static func ago(_ date: Date, now: Date) -> String {
        let age = max(0, Int(now.timeIntervalSince(date)))
        if age < 60 { return "\(age) s ago" }
        if age < 3600 { return "\(age / 60) min ago" }
        if age < 86_400 { return "\(age / 3600) h ago" }
        return "\(age / 86_400) d ago"
    }

    /// What the person saw for this event, when the event says: a refusal's words as the backend gave them, or
    /// the sentence a signed-out device shows for a session's end.
    static func seen(_ event: TimelineEvent) -> String? {
        let detail = event.detail.additionalProperties
        if let message = detail["message"] { return message }
        if event.kind == EventKind.sessionEnded.rawValue { return SessionEndReason.signedOutText(detail["reason"]) }
        return nil
    }

    /// The selected event whole: each line with its style.
    static func detailLines(_ event: TimelineEvent, now: Date) -> [(String, Style)] {
        var lines: [(String, Style)] = [
            (words(event), Style.plain.with(.bold)),
            ("\(time(event.at)) · \(ago(event.at, now: now))", .muted),
            ("", .plain),
        ]
        for (key, value) in event.detail.additionalProperties.sorted(by: { $0.key < $1.key }) where key != "message" {
            lines.append(("\(key.replacingOccurrences(of: "_", with: " ")): \(value)", .plain))
        }
        if let subject = event.subject { lines.append(("about: \(subject)", .plain)) }
        if let session = event.sessionId { lines.append(("session: \(session)", .plain)) }
        if let device = event.deviceId { lines.append(("device: \(device)", .plain)) }
        if let address = event.clientAddress { lines.append(("from: \(address)", .plain)) }
        if let rule = event.rule {
            lines.append(("", .plain))
            lines.append(("Rule \(rule)", Style.plain.with(.bold)))
            lines.append((Rule(rawValue: rule)?.summary ?? "A rule this build does not know.", .plain))
        }
        if let seen = seen(event) {
            lines.append(("", .plain))
            lines.append(("What they saw", Style.plain.with(.bold)))
            lines.append(("\u{201C}\(seen)\u{201D}", .plain))
        }
        return lines
    }

    // MARK: - Drawing

    public func frame(_ context: OverlayContext) -> Rect { Rect(size: context.size).inset(horizontal: 2, vertical: 1) }

    private static func listTop(_ inner: Rect) -> Int { inner.y + 2 }

    /// Two lines an event, scrolled so the selection shows.
    private func layout(_ inner: Rect) -> (first: Int, rows: [Rect]) {
        let top = Self.listTop(inner) + (isLoading ? 1 : 0) + (error == nil ? 0 : 1)
        let fits = max(1, (inner.maxY - top) / 2)
        let count = shown.count
        let first = ListPosition(selection: selection, count: count).firstShown(
            rows: fits, current: max(0, selection - fits + 1))
        let drawn = max(0, min(count - first, fits, (inner.maxY - top) / 2))
        return (first, (0..<drawn).map { Rect(x: inner.x - 1, y: top + 2 * $0, width: inner.width + 2, height: 2) })
    }

    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] {
        showsDetail ? [] : layout(frame.inset(horizontal: 2, vertical: 1)).rows
    }

    public mutating func select(row: Int, _ context: OverlayContext) {
        let index = layout(frame(context).inset(horizontal: 2, vertical: 1)).first + row
        if shown.indices.contains(index) { selection = index }
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        let glyphs = context.glyphs
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Timeline: \(user ?? "this account")", glyphs: glyphs)
        var y = inner.y
        func line(_ text: String, _ style: Style) { grid.putLine(text, in: inner, y: &y, style: style) }
        if showsDetail, let selected {
            for (text, style) in Self.detailLines(selected, now: context.now) {
                for wrapped in text.isEmpty ? [""] : TextLayout.wrap(text, width: inner.width) {
                    line(wrapped, style.on(.surface))
                }
            }
            return
        }
        line(
            "What the backend decided about them, newest first, at its time (UTC) · Enter shows one", surface.with(.dim)
        )
        let shown = self.shown
        if filter.isActive {
            filter.render(
                into: &grid, at: Point(x: inner.x, y: y), width: inner.width, style: surface, matched: shown.count,
                of: events.count)
        }
        y = Self.listTop(inner)
        if isLoading { line("Loading…", surface) }
        if let error { line(error, Style(foreground: .danger, background: .surface)) }
        if !isLoading, error == nil, shown.isEmpty {
            line(events.isEmpty ? "No events." : "No event matches the filter.", surface)
        }
        if !shown.isEmpty {
            ListPosition(selection: selection, count: shown.count).render(
                onBottomBorderOf: frame, into: &grid, style: Style(foreground: .muted, background: .surface))
        }
        let layout = layout(inner)
        for (offset, row) in layout.rows.enumerated() {
            let index = layout.first + offset
            let event = shown[index]
            let selected = index == selection
            let style = Style.panelRow(isSelected: selected)
            grid.drawRow(row, style: style, isSelected: selected, glyphs: glyphs)
            let title = "\(Self.time(event.at)) · \(Self.ago(event.at, now: context.now)) · \(Self.words(event))"
            grid.put(
                TextLayout.truncate(title, width: inner.width - 1), at: Point(x: inner.x + 1, y: row.y), style: style)
            let detail = [Self.details(event), event.rule.map { "rule \($0)" } ?? ""].filter { !$0.isEmpty }
                .joined(separator: " · ")
            grid.put(
                TextLayout.truncate(detail, width: inner.width - 1), at: Point(x: inner.x + 1, y: row.y + 1),
                style: Style(foreground: .muted, background: style.background))
        }
    }
}

/// `GET /_admin/timeline` for `user`; nil: the signed-in user, found with `GET /auth/me` first.
struct LoadTimeline: APIRequest {
    var user: String?

    func perform(_ api: APIContext) async throws -> Timeline {
        let who: String
        if let user {
            who = user
        } else {
            who = try await api.client.me().userId
        }
        return try await api.client.adminTimeline(user: who)
    }
}

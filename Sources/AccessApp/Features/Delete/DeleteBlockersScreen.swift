import AccessAPI
import Foundation
import TerminalKit

/// Delete blockers (seed 001): shown instead of "Verify it's you" while something must be
/// cleared first. Several blockers are stacked in the server's order (sessions or bookings,
/// then the payout); ↑/↓ scroll a section at a time when they do not all fit. The way on is to clear
/// them (in the app that holds the sessions and the money) and check again; Contact support stays pinned
/// at the bottom (seed 000: the delete flow's ambiguous states).
public struct DeleteBlockersScreen: ScreenModel {
    public var blockers: [DeleteBlocker]
    /// The first section drawn.
    public var firstSection: Int
    /// The blocker check is asked again.
    public var isChecking: Bool
    public var error: String?

    public init(blockers: [DeleteBlocker], firstSection: Int = 0, isChecking: Bool = false, error: String? = nil) {
        self.blockers = blockers
        self.firstSection = firstSection
        self.isChecking = isChecking
        self.error = error
    }

    static let stillBlockedText = "Still blocked. Clear what's listed, then check again."

    public var id: String { "delete-blockers" }

    /// "releases in 18h" follows the app clock while money is on hold. (Sessions and bookings are days away:
    /// they are drawn from the clock on every frame, so a moved clock redraws them without a tick.)
    public var needsClock: Bool {
        blockers.contains { $0.payout.map { $0.onHoldMinor > 0 && $0.holdReleasesAt != nil } ?? false }
    }

    /// A blocker made of sessions or bookings that each block until they start (RULES.md, delete.preflight_blocked).
    static func listsStarts(_ blocker: DeleteBlocker) -> Bool {
        switch blocker.kind.known {
        case .upcomingSessions?, .upcomingBookings?: return !(blocker.items ?? []).isEmpty
        default: return false
        }
    }

    /// The blockers as they stand at `now`, worked out from the clock as the server works them out: a session
    /// or booking that has started is no longer upcoming, and a section with none left is gone. Never stored,
    /// so a moved clock changes the list without Check again (issue 48).
    static func standing(_ blockers: [DeleteBlocker], now: Date) -> [DeleteBlocker] {
        blockers.compactMap { blocker in
            guard listsStarts(blocker) else { return blocker }
            var left = blocker
            left.items = (blocker.items ?? []).filter { $0.startsAt > now }
            return left.items?.isEmpty == false ? left : nil
        }
    }

    static let nothingLeftText = "Nothing on this list stands in the way any more. Check again to go on."

    /// Lists longer than this end in "and N more", so one section never fills the screen.
    static let shownItems = 5

    public enum Intent: Sendable { case scrollUp, scrollDown, checkAgain, contactSupport }
    public enum Reply: Equatable, Sendable { case preflight(Result<DeletePreflight, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = []
        if Self.standing(blockers, now: context.now).count > 1 {
            bindings.append(
                KeyBinding(KeyHint([.up, .down], "Scroll"), intents: [.up: .scrollUp, .down: .scrollDown]))
        }
        bindings.append(KeyBinding([.enter], "Check again", .checkAgain))
        bindings.append(KeyBinding([.character("c")], "Contact support", .contactSupport))
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .scrollUp: firstSection = max(0, firstSection - 1)
        case .scrollDown:
            firstSection = max(0, min(Self.standing(blockers, now: context.now).count - 1, firstSection + 1))
        case .contactSupport: return [.contactSupport(typed: nil)]
        case .checkAgain:
            guard !isChecking else { return [] }
            isChecking = true
            error = nil
            return [.call(Endpoint.DeletePreflight(), Reply.preflight)]
        }
        return []
    }

    /// Cleared: on to "Verify it's you" in this screen's place; else the blockers as they stand now.
    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isChecking = false
        switch reply {
        case .preflight(.success(let preflight)) where preflight.blockers.isEmpty:
            return [.pop] + DeleteAccountFlow.afterPreflight(preflight, context)
        case .preflight(.success(let preflight)):
            blockers = preflight.blockers
            firstSection = 0
            return [.showToast(Self.stillBlockedText)]
        case .preflight(.failure(let failure)):
            error = failure.message
            return []
        }
    }

    /// A drawn line of a section.
    enum Line: Equatable {
        case heading(String)
        /// Word-wrapped across the width.
        case text(String)
        /// A session or booking: "Mon, Apr 28 · 10:00" and its title.
        case item(when: String, title: String)
        /// "Available balance" and "€245.50 · can withdraw now".
        case amount(label: String, value: String)
        case more(String)
        case blank
    }

    /// Text drawn `column` columns in from the left margin.
    struct Piece: Equatable {
        var text: String
        var style: Style
        var column: Int
        init(_ text: String, _ style: Style, at column: Int = 0) {
            self.text = text
            self.style = style
            self.column = column
        }
    }

    static func lines(_ blocker: DeleteBlocker, _ context: ScreenContext) -> [Line] {
        let zone = context.options.timeZone
        let items = blocker.items ?? []
        var lines: [Line]
        switch blocker.kind.known {
        case nil:
            // A kind this app does not know (seed 000 foresees other disputes and holds; the contract's
            // enum is extensible): the server's own words, and support stays pinned below.
            lines = [
                .heading(blocker.title ?? unknownHeading),
                .text(blocker.message ?? unknownText(blocker.kind.rawValue)),
            ]
        case .upcomingSessions:
            lines = [.heading("Cancel your upcoming sessions first"), .text(sessionsText(count: items.count))]
        case .upcomingBookings:
            lines = [.heading("Cancel your upcoming bookings first"), .text(bookingsText(count: items.count))]
        case .pendingPayout:
            lines = [.heading("Withdraw your pending balance first")]
            guard let payout = blocker.payout else {
                return lines + [.text("You have a pending payout. Withdraw it before deleting your account.")]
            }
            let total = Money(minor: payout.availableMinor + payout.onHoldMinor, currency: payout.currency)
            let weekday = DeleteDates.weekday(payout.nextAutomaticPayoutAt, in: zone)
            lines += [
                .text(
                    "You have \(total.formatted) pending payout. Withdraw it, or wait for \(weekday)'s automatic payout, before deleting your account."
                ),
                .blank,
            ]
            // Once the hold's time has passed (the answer is as old as the screen), the held money
            // counts as available: one balance, not a "pending" line saying it can be withdrawn.
            let ended = DeleteDates.holdEnded(releasesAt: payout.holdReleasesAt, now: context.now)
            let availableMinor = payout.availableMinor + (ended ? payout.onHoldMinor : 0)
            let onHoldMinor = ended ? 0 : payout.onHoldMinor
            // Nothing available while money is on hold: only the hold line says anything.
            if availableMinor > 0 || onHoldMinor == 0 {
                let available = Money(minor: availableMinor, currency: payout.currency).formatted
                lines.append(.amount(label: "Available balance", value: "\(available) · can withdraw now"))
            }
            if onHoldMinor > 0 {
                let held = Money(minor: onHoldMinor, currency: payout.currency).formatted
                let status = DeleteDates.hold(releasesAt: payout.holdReleasesAt, now: context.now)
                lines.append(.amount(label: "Pending (24h hold)", value: "\(held) · \(status)"))
            }
            return lines
        }
        guard !items.isEmpty else { return lines }
        lines.append(.blank)
        lines += items.prefix(shownItems).map { .item(when: DeleteDates.slot($0.startsAt, in: zone), title: $0.title) }
        if items.count > shownItems { lines.append(.more("and \(items.count - shownItems) more")) }
        return lines
    }

    static let unknownHeading = "Resolve this first"

    /// A blocker of a kind this app does not know that came without a message of its own.
    static func unknownText(_ kind: String) -> String {
        "Something on your account stops it from being deleted (the server calls it \"\(kind)\"). Contact support to find out what to do."
    }

    static func sessionsText(count: Int) -> String {
        switch count {
        case 0:
            return
                "You have upcoming sessions with athletes. Cancel them before deleting your account so your athletes aren't left hanging."
        case 1:
            return
                "You have 1 upcoming session. Cancel it before deleting your account so your athletes aren't left hanging."
        default:
            return
                "You have \(count) upcoming sessions with athletes. Cancel them before deleting your account so your athletes aren't left hanging."
        }
    }

    static func bookingsText(count: Int) -> String {
        switch count {
        case 0:
            return
                "You have upcoming bookings with coaches. Cancel them before deleting your account — refunds depend on each coach's policy."
        case 1:
            return
                "You have 1 upcoming booking with a coach. Cancel it before deleting your account — refunds depend on the coach's policy."
        default:
            return
                "You have \(count) upcoming bookings with coaches. Cancel them before deleting your account — refunds depend on each coach's policy."
        }
    }

    /// The rows of every section from `firstSection`, a blank row between sections, at `width`.
    func rows(width: Int, _ context: ScreenContext) -> [[Piece]] {
        let standing = Self.standing(blockers, now: context.now)
        guard !standing.isEmpty else { return Self.layout(.text(Self.nothingLeftText), width: width) }
        let first = shownFirst(context)
        var rows: [[Piece]] = []
        for (index, blocker) in standing.enumerated() where index >= first {
            if index > first { rows.append([]) }
            for line in Self.lines(blocker, context) { rows += Self.layout(line, width: width) }
        }
        return rows
    }

    func shownFirst(_ context: ScreenContext) -> Int {
        min(firstSection, max(0, Self.standing(blockers, now: context.now).count - 1))
    }

    /// One line as rows: a date or label and its value side by side when they fit, else stacked.
    static func layout(_ line: Line, width: Int) -> [[Piece]] {
        switch line {
        case .heading(let text):
            return TextLayout.wrap(text, width: width).map { [Piece($0, .bold)] }
        case .text(let text):
            return TextLayout.wrap(text, width: width).map { [Piece($0, .plain)] }
        case .blank:
            return [[]]
        case .more(let text):
            return [[Piece(text, .muted)]]
        case .item(let when, let title):
            return pair(when, title, column: DisplayWidth.of(when) + 3, width: width)
        case .amount(let label, let value):
            return pair(label, value, column: 22, width: width)
        }
    }

    private static func pair(_ first: String, _ second: String, column: Int, width: Int) -> [[Piece]] {
        if column + DisplayWidth.of(second) <= width {
            return [[Piece(first, .muted), Piece(second, .plain, at: column)]]
        }
        return [[Piece(first, .muted)], [Piece(second, .plain, at: 2)]]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Delete account")
        let width = canvas.innerWidth
        let rows = rows(width: width, context)
        // The actions keep the last rows, with a blank above them (and the error, when there is one).
        let errorRows = error.map { TextLayout.wrap($0, width: width).count } ?? 0
        let actions = actionPieces(width: width)
        let height = max(0, canvas.remaining.height - 1 - actions.count - errorRows)
        let shown = rows.prefix(height)
        let left = canvas.left
        let right = canvas.area.maxX - Canvas.margin
        let glyphs = canvas.glyphs
        let hasAbove = shownFirst(context) > 0
        let hasBelow = rows.count > height
        canvas.draw(height: height, spacing: 0) { grid, rect in
            for (offset, row) in shown.enumerated() {
                for piece in row {
                    grid.put(
                        piece.text, at: Point(x: left + piece.column, y: rect.y + offset), style: piece.style,
                        maxX: right)
                }
            }
            if hasAbove, rect.height > 0 {
                grid.put(glyphs.moreAbove, at: Point(x: rect.maxX - 1, y: rect.y), style: .muted)
            }
            if hasBelow, rect.height > 0 {
                grid.put(glyphs.moreBelow, at: Point(x: rect.maxX - 1, y: rect.maxY - 1), style: .muted)
            }
        }
        canvas.skip(1)
        if let error { canvas.paragraph(error, style: .danger, spacing: 0) }
        for row in actions {
            let rowWidth = row.map { $0.column + DisplayWidth.of($0.text) }.max() ?? 0
            let start = left + max(0, (width - rowWidth) / 2)
            canvas.draw(height: 1, spacing: 0) { grid, rect in
                for piece in row {
                    grid.put(piece.text, at: Point(x: start + piece.column, y: rect.y), style: piece.style, maxX: right)
                }
            }
        }
    }

    /// "[ Check again ]  Enter" and "Contact support  c": side by side when they fit, else one a row.
    func actionPieces(width: Int) -> [[Piece]] {
        let check =
            isChecking
            ? Piece("Checking…", .muted) : Piece("[ Check again ]  Enter", Style.accent.with(.bold))
        let support = "Contact support  c"
        let column = DisplayWidth.of(check.text) + 4
        if column + DisplayWidth.of(support) <= width { return [[check, Piece(support, .plain, at: column)]] }
        return [[check], [Piece(support, .plain)]]
    }
}

import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Every request the app made, newest first, over the current screen (F3): when the backend took it (its
/// clock, so a moved clock shows), method, path, status, time taken and, from the reference backend's
/// journal, the rule that decided it. Enter shows the headers and bodies as
/// kept (redacted); `c` copies the call as a curl command. Works against any backend: the list is the app's
/// own; only the rules need the reference backend.
public struct JournalPanel: OverlayModel, FilterableList {
    public var rows: [JournalRow] = []
    public var selection = 0
    /// Showing the selected call whole instead of the list.
    public var showsDetail = false
    /// The first line of the detail shown (it scrolls).
    public var detailOffset = 0
    /// The app's own calls to the admin API (the outbox, this panel) are hidden unless asked for.
    public var showsAdminCalls = false
    public var isLoading = true
    public var error: String?
    /// The reference backend's entries, by request id: the rule that decided each call.
    var rules: [String: JournalEntry] = [:]
    /// `/`: only the calls whose path, status, rule, method or time hold every word typed; `name:value` words are
    /// the backend journal's filters (`status:429 path:/auth/phone/*`, `JournalFilter`).
    public var filter = ListFilter()

    public init() {}

    /// Opened on a filter, as the palette's `journal status:429 path:/auth/phone/*` does.
    public init(filter words: String) {
        filter = ListFilter(query: words)
    }

    public static let keys: [Key] = [.function(3)]

    /// One call: the app's record, and the backend's entry for it when the backend kept one.
    public struct JournalRow: Equatable, Sendable {
        public var record: RequestRecord
        public var server: JournalEntry?
    }

    /// The calls listed before any filter: the admin API's only when asked for.
    var scopedRows: [JournalRow] { rows.filter { showsAdminCalls || !$0.record.path.hasPrefix("/_admin") } }

    /// The `/` query read: its `name:value` filters and its other words; a filter that does not read, its reason.
    var query: Result<(filter: JournalFilter, rest: [String]), JournalFilter.Invalid> {
        Result { () throws(JournalFilter.Invalid) in try JournalFilter.parse(words: filter.query, rules: Self.ruleIDs) }
    }

    static let ruleIDs = Set(Rule.allCases.map(\.rawValue))

    var visibleRows: [JournalRow] {
        guard case .success(let (structured, words)) = query else { return [] }
        return scopedRows.filter { row in
            let texts = [
                row.record.method, row.record.path, Self.status(row.record),
                row.server?.rule ?? "", row.server?.user ?? "", row.record.errorCode ?? "", Self.time(row),
                Self.retry(row.record) ?? "",
            ].map { $0.lowercased() }
            return structured.matches(
                method: row.record.method, path: row.record.path, status: row.record.status, rule: row.server?.rule,
                user: row.server?.user, at: row.server?.at)
                && words.allSatisfy { word in texts.contains { $0.contains(word.lowercased()) } }
        }
    }

    var shownCount: Int { visibleRows.count }

    var selected: JournalRow? { visibleRows.indices.contains(selection) ? visibleRows[selection] : nil }

    public enum Intent: Sendable {
        case list(ListIntent), scroll(up: Bool), toggleDetail, closeDetail, copy, fault, adminCalls, reload, close
    }

    /// Letters go to the filter while it is being typed.
    public var takesText: Bool { filter.isEditing }
    public enum Reply: Equatable, Sendable {
        /// The app's own records: they come at once, whatever the backend does.
        case records(Result<[RequestRecord], APIError>)
        /// The backend's journal, when it answers: each row gets its rule.
        case rules(Result<[JournalEntry], APIError>)
    }

    public var id: String { "journal" }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        if showsDetail {
            return [
                KeyBinding(
                    KeyHint([.up, .down], "Scroll", aliases: [.character("k"), .character("j")]),
                    intents: [
                        .up: .scroll(up: true), .character("k"): .scroll(up: true), .down: .scroll(up: false),
                        .character("j"): .scroll(up: false),
                    ]),
                KeyBinding([.enter], "List", aliases: [.right], .toggleDetail),
                KeyBinding([.character("c")], "Copy as curl", .copy),
                KeyBinding([.character("f")], "Fault it", .fault),
                KeyBinding([.character("a")], "Admin calls", .adminCalls),
                KeyBinding([.character("r")], "Reload", .reload),
                KeyBinding([.escape], "Back", aliases: [.left], .closeDetail),
                KeyBinding(Self.keys, "Close", inFooter: false, aliases: [.character("q")], .close),
            ]
        }
        return listBindings(
            open: KeyBinding([.enter], "Details", aliases: [.right], .toggleDetail),
            more: [
                KeyBinding([.character("c")], "Copy as curl", .copy),
                KeyBinding([.character("f")], "Fault it", .fault),
                KeyBinding([.character("a")], "Admin calls", .adminCalls),
                KeyBinding([.character("r")], "Reload", .reload),
            ], close: .close, panelKeys: Self.keys, Intent.list)
    }

    public func onAppear(_ context: OverlayContext) -> [Command] { Self.load(context) }

    private static func load(_ context: OverlayContext) -> [Command] {
        var calls: [Command] = [.call(LoadJournal(), Reply.records)]
        if context.screen.options.hasReferenceBackend { calls.append(.call(Endpoint.AdminJournal(), Reply.rules)) }
        return calls
    }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        switch intent {
        case .list(let intent):
            perform(intent, page: listLayout(frame(context).inset(horizontal: 2, vertical: 1)).rows.count)
        case .scroll(let up):
            detailOffset = up ? max(0, detailOffset - 1) : detailOffset + 1
        case .toggleDetail:
            if selected != nil {
                showsDetail.toggle()
                detailOffset = 0
            }
        case .closeDetail:
            showsDetail = false
        case .adminCalls:
            showsAdminCalls.toggle()
            selection = 0
            showsDetail = false
        case .copy:
            guard let selected else { return [] }
            return [
                .run(.copy(Self.curl(selected.record, baseURL: context.screen.options.backendURL))),
                .showToast("Copied as curl (secrets redacted)"),
            ]
        case .fault:
            guard let selected, !selected.record.path.hasPrefix("/_admin") else { return [] }
            return [.showPalette(search: "fault \(selected.record.path)")]
        case .reload:
            isLoading = true
            return Self.load(context)
        case .close:
            return [.dismissOverlay]
        }
        return []
    }

    public mutating func handle(_ event: InputEvent, _ context: OverlayContext) -> [Command]? {
        typeIntoFilter(event)
    }

    public mutating func receive(_ reply: Reply, _ context: OverlayContext) -> [Command] { take(reply) }

    private mutating func take(_ reply: Reply) -> [Command] {
        switch reply {
        case .records(.success(let records)):
            isLoading = false
            error = nil
            rows = records.reversed().map { JournalRow(record: $0, server: rules[$0.requestID]) }
            selection = min(selection, max(0, visibleRows.count - 1))
            return [.noteEndpoints(rows.map(\.record.path))]
        case .records(.failure(let failure)):
            isLoading = false
            error = failure.message
        case .rules(.success(let entries)):
            rules = Dictionary(
                entries.compactMap { entry in entry.requestId.map { ($0, entry) } }, uniquingKeysWith: { $1 })
            for index in rows.indices { rows[index].server = rules[rows[index].record.requestID] }
        case .rules(.failure):
            break
        }
        return []
    }

    /// Fills the panel as its two loads would (gallery states and tests).
    mutating func load(records: [RequestRecord]? = nil, rules entries: [JournalEntry]? = nil) {
        if let records { _ = take(.records(.success(records))) }
        if let entries { _ = take(.rules(.success(entries))) }
    }

    /// The call as a curl command, secrets as the journal kept them: "[redacted]".
    static func curl(_ record: RequestRecord, baseURL: String?) -> String {
        let query = record.query.map { "?" + $0 } ?? ""
        var words = ["curl", "-X", record.method, quote((baseURL ?? "http://BACKEND") + record.path + query)]
        for header in record.requestHeaders where !["content-length", "host"].contains(header.name.lowercased()) {
            words += ["-H", quote("\(header.name): \(header.value)")]
        }
        if let body = record.requestBody { words += ["--data-raw", quote(body)] }
        return words.joined(separator: " ")
    }

    private static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// When the backend took the call, on its own clock (UTC, as its admin API says it): "10:42:07". After the
    /// clock was moved this is the moved time, the one the backend's rules counted with; the app's own clock
    /// may differ (another backend's, or not moved with it). "--:--:--" when the backend kept no entry.
    static func time(_ row: JournalRow) -> String {
        guard let at = row.server?.at else { return noTime }
        let seconds = Int(at.timeIntervalSince1970.rounded(.down))
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02d:%02d:%02d", day / 3600, day / 60 % 60, day % 60)
    }

    static let noTime = "--:--:--"

    /// Beside a call whose proxy exchange has a finding.
    static let proxyMarker = "!"

    static func hasProxyFinding(_ row: JournalRow, _ findings: [Int: [String]]) -> Bool {
        guard let exchange = row.record.proxyExchange else { return false }
        return !(findings[exchange] ?? []).isEmpty
    }

    /// "POST /auth/request-otp  202  45 ms  otp.sent"; a GET the client asked again says so beside its status,
    /// "503, retried as #13", before the rule that a narrow panel cuts.
    static func summary(_ row: JournalRow) -> (call: String, outcome: String) {
        let record = row.record
        let status = Self.status(record)
        var outcome = "\([status, retry(record)].compactMap { $0 }.joined(separator: ", "))  \(record.milliseconds) ms"
        if let rule = row.server?.rule {
            outcome += "  \(rule)"
        } else if let code = record.errorCode {
            outcome += "  \(code)"
        }
        // Issue 49 item 5: who the call acted for, as the backend's journal says.
        if let user = row.server?.user { outcome += "  \(user)" }
        return ("\(record.method) \(record.path)", outcome)
    }

    /// The answer's status; without one, "timed out" for a call the client's time-out ended (the backend was
    /// there, only slow, and may have answered since: its rule then shows beside it), else "no answer".
    static func status(_ record: RequestRecord) -> String {
        if let status = record.status { return String(status) }
        return record.errorCode == APIError.timedOutCode ? "timed out" : "no answer"
    }

    /// Issue 48 item 19: a GET whose answer was lost (or a 502/503/504) is asked again by the client, and the person
    /// sees the retry's answer only: "retried as #13" on the first, "retry of #12" on the retry.
    static func retry(_ record: RequestRecord) -> String? {
        if let retriedBy = record.retriedBy { return "retried as \(shortID(retriedBy))" }
        if let retryOf = record.retryOf { return "retry of \(shortID(retryOf))" }
        return nil
    }

    /// The app's request ids are its run's prefix and a number ("5f3a9c1e-13"): in one app's list the number
    /// tells them apart. Any other id is shown whole.
    static func shortID(_ id: String) -> String {
        guard let number = id.split(separator: "-").last, number.allSatisfy(\.isNumber), number.count < id.count
        else { return id }
        return "#\(number)"
    }

    /// The selected call whole, as lines to wrap.
    static func detailLines(
        _ row: JournalRow, baseURL: String?, proxyFindings: [Int: [String]] = [:]
    ) -> [(
        String, Style
    )] {
        let record = row.record
        var lines: [(String, Style)] = []
        func heading(_ text: String) { lines.append((text, .bold)) }
        func text(_ value: String) {
            for line in value.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append(("  " + line, .plain))
            }
        }
        heading("\(record.method) \(record.path)\(record.query.map { "?" + $0 } ?? "")")
        text("Request ID \(record.requestID.isEmpty ? "—" : record.requestID)")
        text("Status \(Self.status(record)) · \(record.milliseconds) ms")
        if let retriedBy = record.retriedBy {
            text("Retried: the client asked again as request \(retriedBy); the screen got that answer, not this one.")
        }
        if let retryOf = record.retryOf {
            text("A retry of request \(retryOf), whose answer was lost or a 502/503/504.")
        }
        let timedOut = record.errorCode == APIError.timedOutCode
        if timedOut {
            text("Timed out: no answer within the client's time-out (--timeout); the backend may have taken it still.")
        }
        if let server = row.server {
            text("Backend time \(server.at.formatted(Self.backendTimeStyle)) (its clock, UTC)")
            text("Rule \(server.rule)\(server.fault.map { " · fault \($0)" } ?? "")")
            // Issue 49 item 5: the rule in plain words, and whom the call acted for.
            if let rule = Rule(rawValue: server.rule) { text(rule.summary) }
            text("For user \(server.user ?? "— (no session, no sign-in)")")
        } else if !timedOut {
            text(
                record.status == nil
                    ? "The backend never answered: nothing in its journal."
                    : "No rule: the backend's journal has no entry for this id (not the reference backend?).")
        }
        if let exchange = record.proxyExchange {
            let found = proxyFindings[exchange] ?? []
            heading(
                "Proxy exchange #\(exchange): \(found.isEmpty ? "no finding" : "\(found.count) finding\(found.count == 1 ? "" : "s")")"
            )
            for finding in found { text(finding) }
        }
        heading("Request headers")
        for header in record.requestHeaders { text("\(header.name): \(header.value)") }
        heading("Request body")
        text(record.requestBody.map(indentedJSON) ?? "(none)")
        heading("Response body")
        text(record.responseBody.map(indentedJSON) ?? "(none)")
        lines.append(("", .plain))
        lines.append(("c copies it as curl (secrets stay redacted) · f faults this endpoint", .muted))
        return lines
    }

    /// A body one member a line, two columns a level (issue 48 item 19: wrapped as prose, the bodies lost the
    /// generated client's indentation, and a compact one from another backend had none). Re-indented from the
    /// text, so the order of members stays as sent; strings are copied as they are. A body cut at the journal's
    /// limit is indented as far as it goes; text that is neither JSON nor a cut object (the journal's "[N bytes,
    /// not JSON]") is left as it is.
    static func indentedJSON(_ body: String) -> String {
        let isJSON = (try? JSONSerialization.jsonObject(with: Data(body.utf8), options: .fragmentsAllowed)) != nil
        guard isJSON || body.hasPrefix("{") else { return body }
        let characters = Array(body)
        var output = ""
        var depth = 0
        var index = 0
        func newline() { output += "\n" + String(repeating: "  ", count: depth) }
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\"":
                // A string whole, as written, escapes and all.
                output.append(character)
                var escaped = false
                while index < characters.count {
                    let inside = characters[index]
                    index += 1
                    output.append(inside)
                    if escaped {
                        escaped = false
                    } else if inside == "\\" {
                        escaped = true
                    } else if inside == "\"" {
                        break
                    }
                }
            case "{", "[":
                output.append(character)
                var next = index
                while next < characters.count, characters[next].isWhitespace { next += 1 }
                if next < characters.count, characters[next] == "}" || characters[next] == "]" {
                    // Empty: `{}` on its line.
                    output.append(characters[next])
                    index = next + 1
                } else {
                    depth += 1
                    newline()
                }
            case "}", "]":
                depth = max(0, depth - 1)
                newline()
                output.append(character)
            case ",":
                output.append(character)
                newline()
            case ":":
                output += ": "
            case _ where character.isWhitespace:
                // The writer's layout between tokens: replaced by the one above.
                break
            default:
                output.append(character)
            }
        }
        return output
    }

    /// `TextLayout.wrap` for a line that keeps its indentation: the leading spaces start every piece of it.
    static func wrapped(_ line: String, width: Int) -> [String] {
        let indent = String(line.prefix { $0 == " " })
        guard !indent.isEmpty, indent.count < width - 1 else { return TextLayout.wrap(line, width: width) }
        return TextLayout.wrap(String(line.dropFirst(indent.count)), width: width - indent.count).map { indent + $0 }
    }

    /// "2026-11-25T10:42:07Z": the date as well, since a moved clock may be days ahead.
    static let backendTimeStyle = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)

    public func frame(_ context: OverlayContext) -> Rect { Rect(size: context.size).inset(horizontal: 2, vertical: 1) }

    /// The list under its line of explanation and a blank line, scrolled so the selection shows: the
    /// first row shown and where each shown row is drawn.
    private func listLayout(_ inner: Rect) -> (first: Int, rows: [Rect]) {
        let top = inner.y + 2 + (isLoading && rows.isEmpty ? 1 : 0) + (error == nil ? 0 : 1)
        let visible = visibleRows
        let height = max(1, inner.maxY - top)
        let first = min(max(0, selection - height + 1), max(0, visible.count - height))
        let shown = max(0, min(visible.count, first + height) - first)
        return (
            first, (0..<shown).map { Rect(x: inner.x - 1, y: top + $0, width: inner.width + 2, height: 1) }
        )
    }

    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] {
        showsDetail ? [] : listLayout(frame.inset(horizontal: 2, vertical: 1)).rows
    }

    public mutating func select(row: Int, _ context: OverlayContext) {
        let index = listLayout(frame(context).inset(horizontal: 2, vertical: 1)).first + row
        if visibleRows.indices.contains(index) { selection = index }
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        let glyphs = context.glyphs
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Requests", glyphs: glyphs)
        var y = inner.y
        func line(_ text: String, _ style: Style) { grid.putLine(text, in: inner, y: &y, style: style) }
        func onSurface(_ style: Style) -> Style {
            style.on(style.background == .background ? .surface : style.background)
        }
        if showsDetail, let selected {
            let wrapped = Self.detailLines(
                selected, baseURL: context.screen.options.backendURL, proxyFindings: context.screen.proxyFindings
            ).flatMap {
                text, style in
                Self.wrapped(text, width: inner.width).map { ($0, style) }
            }
            for (text, style) in wrapped.dropFirst(min(detailOffset, max(0, wrapped.count - 1))) {
                line(text, onSurface(style))
            }
            return
        }
        let scope = showsAdminCalls ? "every call, admin API included (a hides it)" : "a shows the admin API calls too"
        line(
            "What this app sent, newest first, at the backend's time (UTC) · Enter shows one · \(scope)",
            Style.muted.on(.surface))
        let visible = visibleRows
        if filter.isActive {
            filter.render(
                into: &grid, at: Point(x: inner.x, y: y), width: inner.width, style: surface, matched: visible.count,
                of: scopedRows.count)
        }
        y += 1
        if isLoading, rows.isEmpty { line("Loading…", surface) }
        if let error { line(error, Style.danger.on(.surface)) }
        if case .failure(let invalid) = query {
            line(invalid.message, Style.danger.on(.surface))
        } else if !isLoading, error == nil, visible.isEmpty {
            line(filter.isActive && !rows.isEmpty ? "No call matches the filter." : "No requests yet.", surface)
        }
        ListPosition(selection: selection, count: visible.count).render(
            onBottomBorderOf: frame, into: &grid, style: Style(foreground: .muted, background: .surface))
        let layout = listLayout(inner)
        for (offset, rect) in layout.rows.enumerated() {
            let row = visible[layout.first + offset]
            let isSelected = layout.first + offset == selection
            let style = Style.panelRow(isSelected: isSelected)
            let (call, outcome) = Self.summary(row)
            grid.drawRow(rect, style: style, isSelected: isSelected, glyphs: glyphs)
            let outcomeWidth = min(DisplayWidth.of(outcome), inner.width / 2)
            let failed = (row.record.status ?? 500) >= 400
            grid.put(
                TextLayout.truncate(outcome, width: outcomeWidth), at: Point(x: inner.maxX - outcomeWidth, y: rect.y),
                style: Style(foreground: failed ? .danger : .muted, background: style.background))
            let time = Self.time(row)
            // A column after the selection mark, as the palette's rows (issue 50).
            let callX = inner.x + 1 + DisplayWidth.of(Self.noTime) + 2
            var timeStyle = style
            if row.server == nil { timeStyle.foreground = .muted }
            grid.put(time, at: Point(x: inner.x + 1, y: rect.y), style: timeStyle)
            // Behind `accessdeck proxy`: the exchange has a finding (Enter shows it).
            let marked = Self.hasProxyFinding(row, context.screen.proxyFindings)
            if marked {
                grid.put(
                    Self.proxyMarker, at: Point(x: callX, y: rect.y),
                    style: Style(foreground: .danger, background: style.background).with(.bold))
            }
            let markWidth = marked ? DisplayWidth.of(Self.proxyMarker) + 1 : 0
            grid.put(
                TextLayout.truncate(call, width: inner.maxX - outcomeWidth - 2 - callX - markWidth),
                at: Point(x: callX + markWidth, y: rect.y), style: style)
        }
    }
}

/// The app's own journal: what it sent, kept in memory.
struct LoadJournal: APIRequest {
    func perform(_ api: APIContext) async throws -> [RequestRecord] { api.client.journal.records }
    /// Read from the app's memory: its answer says nothing of whether the backend is there.
    var reachesBackend: Bool { false }
}

/// The console's panels have no screen of their own; registered as a feature for their gallery states
/// (and snapshots): the palette, and the journal's list and one call whole.
enum ConsoleFeature: Feature {
    static let screens: [any ScreenModel.Type] = []
    static var sheetGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:palette", "Ctrl+P: the command palette over the hub, searching \"clock\"") { now in
                var state = hub(now)
                var palette = CommandPalette(commands: CommandPalette.commands(for: state))
                palette.search("clock")
                state.overlay = .palette(palette)
                return state
            },
            GalleryEntry("hub:journal", "F3: the requests the app made, the backend's rule beside each") { now in
                var state = hub(now)
                state.overlay = .journal(sampleJournal(now))
                return state
            },
            GalleryEntry("hub:journal-call", "F3, Enter: one call whole, secrets redacted") { now in
                var state = hub(now)
                var panel = sampleJournal(now)
                panel.showsDetail = true
                state.overlay = .journal(panel)
                return state
            },
        ]
    }

    private static func hub(_ now: Date) -> AppState {
        (HubScreen.gallery.first { $0.id == "hub:default" } ?? HubScreen.gallery[0]).makeState(now)
    }

    private static func sampleJournal(_ now: Date) -> JournalPanel {
        let sent = RequestRecord(
            requestID: "5f3a-12", method: "POST", path: "/auth/phone/request-otp",
            requestHeaders: [
                .init(name: "Authorization", value: "[redacted]"),
                .init(name: "Content-Type", value: "application/json"),
                .init(name: "X-Request-ID", value: "5f3a-12"),
            ],
            requestBody: #"{"phone":"+995511999999","purpose":"change_phone"}"#,
            responseBody: #"{"error":{"code":"rate_limited","message":"Too many attempts.","retry_after":290}}"#,
            status: 429, milliseconds: 14, errorCode: "rate_limited")
        let methods = RequestRecord(
            requestID: "5f3a-11", method: "GET", path: "/me/auth-methods", status: 200, milliseconds: 6, errorCode: nil)
        var panel = JournalPanel()
        panel.load(records: [methods, sent])
        panel.load(
            rules: [
                JournalEntry(
                    id: 7, requestId: "5f3a-12", at: now, method: "POST", path: sent.path, status: 429, ms: 3,
                    rule: "otp.resend_window"),
                JournalEntry(
                    id: 6, requestId: "5f3a-11", at: now, method: "GET", path: methods.path, status: 200, ms: 2,
                    rule: "ok"),
            ])
        return panel
    }
}

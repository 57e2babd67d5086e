import AccessAPI
import Foundation
import TerminalKit

/// Every request the app made, newest first, over the current screen (F3): method, path, status, time and,
/// from the reference backend's journal, the rule that decided it. Enter shows the headers and bodies as
/// kept (redacted); `c` copies the call as a curl command. Works against any backend: the list is the app's
/// own; only the rules need the reference backend.
public struct JournalPanel: Equatable, Sendable {
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
    /// The loads the panel waits for (the app's own records, the backend's rules); a reply to an older one
    /// is dropped.
    public var awaiting: RequestID?
    public var awaitingRules: RequestID?
    /// The reference backend's entries, by request id: the rule that decided each call.
    var rules: [String: JournalEntry] = [:]

    public init() {}

    public static let keys: [Key] = [.function(3)]

    /// One call: the app's record, and the backend's entry for it when the backend kept one.
    public struct JournalRow: Equatable, Sendable {
        public var record: RequestRecord
        public var server: JournalEntry?
    }

    var visibleRows: [JournalRow] { showsAdminCalls ? rows : rows.filter { !$0.record.path.hasPrefix("/_admin") } }

    var selected: JournalRow? { visibleRows.indices.contains(selection) ? visibleRows[selection] : nil }

    enum Outcome: Equatable {
        case stay
        case close
        case reload
        case copy(String)
        /// Fault this call's endpoint: the palette opens on the faults for its path.
        case faultEndpoint(String)
    }

    mutating func handle(_ key: Key, baseURL: String?) -> Outcome {
        switch key {
        case .up, .character("k"):
            if showsDetail { detailOffset = max(0, detailOffset - 1) } else { selection = max(0, selection - 1) }
        case .down, .character("j"):
            if showsDetail {
                detailOffset += 1
            } else {
                selection = min(max(0, visibleRows.count - 1), selection + 1)
            }
        case .enter, .right:
            if selected != nil {
                showsDetail.toggle()
                detailOffset = 0
            }
        case .left where showsDetail:
            showsDetail = false
        case .character("a"):
            showsAdminCalls.toggle()
            selection = 0
            showsDetail = false
        case .character("c"):
            if let selected { return .copy(Self.curl(selected.record, baseURL: baseURL)) }
        case .character("f"):
            if let selected, !selected.record.path.hasPrefix("/_admin") { return .faultEndpoint(selected.record.path) }
        case .character("r"): return .reload
        case .escape where showsDetail:
            showsDetail = false
        case .escape, .function(3), .character("q"): return .close
        default: break
        }
        return .stay
    }

    /// The app's own records: they come at once, whatever the backend does.
    mutating func receive(_ result: Result<AnyValue, APIError>) {
        isLoading = false
        awaiting = nil
        guard let records = result.reply([RequestRecord].self) else {
            if case .failure(let failure) = result { error = failure.message }
            return
        }
        error = nil
        rows = records.reversed().map { JournalRow(record: $0, server: rules[$0.requestID]) }
        selection = min(selection, max(0, visibleRows.count - 1))
    }

    /// The backend's journal, when it answers: each row gets its rule.
    mutating func receiveRules(_ result: Result<AnyValue, APIError>) {
        awaitingRules = nil
        guard let entries = result.reply([JournalEntry].self) else { return }
        rules = Dictionary(
            entries.compactMap { entry in entry.requestId.map { ($0, entry) } }, uniquingKeysWith: { $1 })
        for index in rows.indices { rows[index].server = rules[rows[index].record.requestID] }
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

    /// "POST /auth/request-otp  202  45 ms  otp.sent".
    static func summary(_ row: JournalRow) -> (call: String, outcome: String) {
        let record = row.record
        let status = record.status.map(String.init) ?? "no answer"
        var outcome = "\(status)  \(record.milliseconds) ms"
        if let rule = row.server?.rule {
            outcome += "  \(rule)"
        } else if let code = record.errorCode {
            outcome += "  \(code)"
        }
        return ("\(record.method) \(record.path)", outcome)
    }

    /// The selected call whole, as lines to wrap.
    static func detailLines(_ row: JournalRow, baseURL: String?) -> [(String, Style)] {
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
        text("Status \(record.status.map(String.init) ?? "no answer") · \(record.milliseconds) ms")
        if let server = row.server {
            text("Rule \(server.rule)\(server.fault.map { " · fault \($0)" } ?? "")")
        } else {
            text(
                record.status == nil
                    ? "The backend never answered: nothing in its journal."
                    : "No rule: the backend's journal has no entry for this id (not the reference backend?).")
        }
        heading("Request headers")
        for header in record.requestHeaders { text("\(header.name): \(header.value)") }
        heading("Request body")
        text(record.requestBody ?? "(none)")
        heading("Response body")
        text(record.responseBody ?? "(none)")
        lines.append(("", .plain))
        lines.append(("c copies it as curl (secrets stay redacted) · f faults this endpoint", .muted))
        return lines
    }

    func render(into grid: inout CellGrid, baseURL: String?, glyphs: Glyphs) {
        let frame = grid.bounds.inset(horizontal: 2, vertical: 1)
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Requests", glyphs: glyphs)
        var y = inner.y
        func line(_ text: String, _ style: Style) {
            guard y < inner.maxY else { return }
            grid.put(TextLayout.truncate(text, width: inner.width), at: Point(x: inner.x, y: y), style: style)
            y += 1
        }
        func onSurface(_ style: Style) -> Style {
            style.on(style.background == .background ? .surface : style.background)
        }
        if showsDetail, let selected {
            let wrapped = Self.detailLines(selected, baseURL: baseURL).flatMap { text, style in
                TextLayout.wrap(text, width: inner.width).map { ($0, style) }
            }
            for (text, style) in wrapped.dropFirst(min(detailOffset, max(0, wrapped.count - 1))) {
                line(text, onSurface(style))
            }
            return
        }
        let scope = showsAdminCalls ? "every call, admin API included (a hides it)" : "a shows the admin API calls too"
        line("What this app sent, newest first · Enter shows one · \(scope)", Style.muted.on(.surface))
        y += 1
        if isLoading, rows.isEmpty { line("Loading…", surface) }
        if let error { line(error, Style.danger.on(.surface)) }
        let visible = visibleRows
        if !isLoading, error == nil, visible.isEmpty { line("No requests yet.", surface) }
        let height = max(1, inner.maxY - y)
        let first = min(max(0, selection - height + 1), max(0, visible.count - height))
        for (offset, row) in visible[first..<min(visible.count, first + height)].enumerated() {
            let isSelected = first + offset == selection
            let style = isSelected ? Style(background: .selection, attributes: .bold) : surface
            let (call, outcome) = Self.summary(row)
            grid.fill(Rect(x: inner.x - 1, y: y, width: inner.width + 2, height: 1), style: style)
            grid.put(isSelected ? glyphs.selected : " ", at: Point(x: inner.x - 1, y: y), style: style)
            let outcomeWidth = min(DisplayWidth.of(outcome), inner.width / 2)
            let failed = (row.record.status ?? 500) >= 400
            grid.put(
                TextLayout.truncate(outcome, width: outcomeWidth), at: Point(x: inner.maxX - outcomeWidth, y: y),
                style: Style(foreground: failed ? .danger : .muted, background: style.background))
            grid.put(
                TextLayout.truncate(call, width: inner.width - outcomeWidth - 2), at: Point(x: inner.x, y: y),
                style: style)
            y += 1
        }
    }
}

/// The app's own journal: what it sent, kept in memory.
struct LoadJournal: APIRequest {
    func perform(_ api: APIContext) async throws -> [RequestRecord] { api.client.journal.records }
}

/// The reference backend's journal, for the rule that decided each call.
struct LoadBackendJournal: APIRequest {
    func perform(_ api: APIContext) async throws -> [JournalEntry] { try await api.client.adminJournal(limit: 500) }
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
        panel.receive(.success(AnyValue([methods, sent])))
        panel.receiveRules(
            .success(
                AnyValue([
                    JournalEntry(
                        id: 7, requestId: "5f3a-12", at: now, method: "POST", path: sent.path, status: 429, ms: 3,
                        rule: "otp.resend_window"),
                    JournalEntry(
                        id: 6, requestId: "5f3a-11", at: now, method: "GET", path: methods.path, status: 200, ms: 2,
                        rule: "ok"),
                ])))
        return panel
    }
}

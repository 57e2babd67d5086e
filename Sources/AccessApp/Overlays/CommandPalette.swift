import AccessAPI
import Foundation
import TerminalKit

/// One thing the palette can do. Commands with a key come from the keymap (the same table as the footer
/// and the help), so the palette shows that key and running the command is pressing it.
public struct PaletteCommand: Equatable, Sendable {
    public var title: String
    public var detail: String
    /// The key that does the same outside the palette ("Ctrl+O"), if any.
    public var keyLabel: String?
    public var action: PaletteAction

    public init(_ title: String, detail: String = "", keyLabel: String? = nil, _ action: PaletteAction) {
        self.title = title
        self.detail = detail
        self.keyLabel = keyLabel
        self.action = action
    }
}

public enum PaletteAction: Equatable, Sendable {
    /// A keymap binding: run as if its key was pressed on the screen below.
    case key(Key)
    /// A gallery state ("hub:offline"), shown full screen.
    case showState(String)
    case switchScenario(String)
    /// Issue 33: the app goes over to world NAME (nil: the default world).
    case switchWorld(String?)
    /// Issue 33: `POST /_admin/worlds {name, scenario}`, then the app goes over to it.
    case newWorld(name: String, scenario: String)
    case moveClock(ClockMove)
    case setFaults(FaultSettings, label: String)
    case clearFaults
    /// QA: a sign-in of the scenario's user from another device (issue 30), to watch in Active sessions.
    case signInOtherDevice(OtherDevice)
    /// QA: this device's own sign-in ended by the backend as another device would (issue 49 item 3), so its next
    /// call shows how a signed-out device is told why.
    case signOutThisDeviceElsewhere
    /// QA: a passkey edge state made on the backend and in this device's authenticator (issue 53 item 3).
    case devicePasskey(DevicePasskeyAction)
    /// Support (issue 49): the timeline of an account id, phone or email; nil: the signed-in user's.
    case timeline(String?)
    /// QA: the code the scenario user's authenticator app shows now (issue 31), from the admin API.
    case authenticatorCode
    /// Issue 32: `accessdeck conform`'s checks against this backend, in a panel.
    case runConformance
    case theme(Theme.Name)
    case platform(AppOptions.Platform)
    case ascii(Bool)
    /// Write the screen below to a file in the working directory.
    case export(ExportFormat)
    /// Issue 51 item 4: a state QA ask for most, made on the backend for real (`StatePreset`).
    case preset(StatePreset)
    /// Issue 51 item 5: this session's tape, world, cast, journal and timeline in one zip in the working directory.
    case saveBugReport
    /// F3 opened on these `/` words (`journal status:429 path:/auth/phone/*`).
    case showJournal(filter: String)
    /// A grammar's row: running it starts its words in the query ("clock "), to be finished by typing.
    case typed(TypedCommand)
    /// Nothing to run (a line such as "Loading scenarios…").
    case none
}

/// The command palette over the screen (Ctrl+P, or `:` where no text is typed): fuzzy search over every
/// command, Enter runs the chosen one.
public struct CommandPalette: OverlayModel {
    public private(set) var query = ""
    /// Room for a typed command's words: a body fault's JSON (`TypedCommand`) outgrows a search's 60.
    static let maxQuery = 500
    /// The commands made from the query (`TypedCommand`), then the catalog's.
    public private(set) var commands: [PaletteCommand]
    /// Indices into `commands`, best match first.
    public private(set) var matches: [Int]
    public private(set) var selection = 0
    /// The catalog's commands, without those made from the query.
    private var listed: [PaletteCommand]
    /// What went wrong with the query's command (a world the backend refused): first, until the query changes.
    public private(set) var notice: PaletteCommand?

    public static let keys: [Key] = [.control("p")]
    /// Opens the palette where typed letters are not text.
    public static let shortKey: Key = .character(":")
    /// How far a page key moves the selection.
    static let page = 10

    public init(commands: [PaletteCommand], query: String = "") {
        listed = commands
        self.commands = commands
        self.query = query
        matches = []
        match()
    }

    public var selected: PaletteCommand? {
        matches.indices.contains(selection) ? commands[matches[selection]] : nil
    }

    /// New commands (the scenarios arrived) under the same query.
    mutating func refresh(_ commands: [PaletteCommand]) {
        listed = commands
        match()
        selection = min(selection, max(0, matches.count - 1))
    }

    /// The query's own commands first (each grammar the catalog offers, where the query reads as one),
    /// then the catalog's that match it.
    private mutating func match() {
        let typed = listed.compactMap { command -> PaletteCommand? in
            guard case .typed(let grammar) = command.action, let typed = grammar.command(for: query),
                typed.action == .none || !listed.contains(where: { $0.action == typed.action })
            else { return nil }
            return typed
        }
        let first = (notice.map { [$0] } ?? []) + typed
        commands = first + listed
        matches = Array(first.indices) + Self.rank(listed, query).map { $0 + first.count }
    }

    public enum Intent: Sendable { case list(ListPosition.Move), run, close }

    public var id: String { "palette" }
    public var takesText: Bool { true }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        // A long list whose letters are the search: ↑/↓, PgUp/PgDn, Home/End (the query has no caret to move).
        KeyBinding.longList(typing: true, moves: "Choose", Intent.list) + [
            KeyBinding([.enter], "Run", .run),
            KeyBinding([.escape], "Close", aliases: Self.keys, .close),
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        switch intent {
        case .list(let move):
            var position = ListPosition(selection: selection, count: matches.count)
            position.move(move, page: Self.page)
            selection = position.selection
        case .run:
            guard let selected, selected.action != .none else { return [] }
            if case .typed(let grammar) = selected.action {
                setQuery(grammar.rawValue + " ")
                return []
            }
            return [.dismissOverlay, .runPalette(selected.action)]
        case .close: return [.dismissOverlay]
        }
        return []
    }

    /// Typing searches.
    public mutating func handle(_ event: InputEvent, _ context: OverlayContext) -> [Command]? {
        switch event {
        case .paste(let text): setQuery(query + text.filter { !$0.isNewline })
        case .key(.character(let character)): setQuery(query + String(character))
        case .key(.backspace): if !query.isEmpty { setQuery(String(query.dropLast())) }
        case .key(.control("u")), .key(.control("w")):
            // Readline's keys, as in every text field: the query's editing is the field's, at its end.
            var field = TextField(placeholder: "")
            field.setValue(query)
            field.handle(event)
            setQuery(field.value)
        default: return nil
        }
        return []
    }

    /// Opens on this search, as if typed.
    mutating func search(_ text: String) { setQuery(text) }

    /// Shows `problem` above the query's commands; typing takes it away.
    mutating func pin(_ problem: String) {
        notice = PaletteCommand(problem, detail: "change what you typed and press Enter again", .none)
        match()
        selection = 0
    }

    private mutating func setQuery(_ text: String) {
        query = String(text.prefix(Self.maxQuery))
        notice = nil
        match()
        selection = 0
    }

    /// Every command in order for an empty query; else those whose title (or, weaker, detail) holds the
    /// query's characters in order, best first, ties in list order.
    static func rank(_ commands: [PaletteCommand], _ query: String) -> [Int] {
        let needle = query.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return Array(commands.indices) }
        let scored = commands.indices.compactMap { index -> (Int, Int)? in
            let command = commands[index]
            if let score = FuzzyMatch.score(needle, in: command.title) { return (index, score * 2) }
            if let score = FuzzyMatch.score(needle, in: command.title + " " + command.detail) { return (index, score) }
            return nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    // MARK: - Drawing

    static let placeholder = "Type to search: a screen, a scenario, clock, fault, theme…"

    public func frame(_ context: OverlayContext) -> Rect {
        let size = context.size
        let width = min(size.cols - 4, 76)
        return Rect(x: (size.cols - width) / 2, y: 1, width: width, height: min(size.rows - 3, 20))
    }

    /// The matches shown (scrolled so the selection shows): the first one's index and where each is drawn.
    private func listLayout(_ inner: Rect) -> (first: Int, rows: [Rect]) {
        let top = inner.y + 2
        let visible = max(1, inner.maxY - top)
        let first = min(max(0, selection - visible + 1), max(0, matches.count - visible))
        let shown = max(0, min(matches.count, first + visible) - first)
        return (first, (0..<shown).map { Rect(x: inner.x - 1, y: top + $0, width: inner.width + 2, height: 1) })
    }

    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] {
        listLayout(frame.inset(horizontal: 2, vertical: 1)).rows
    }

    public mutating func select(row: Int, _ context: OverlayContext) {
        let index = listLayout(frame(context).inset(horizontal: 2, vertical: 1)).first + row
        if matches.indices.contains(index) { selection = index }
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        let glyphs = context.glyphs
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Commands", glyphs: glyphs)
        let count = "\(matches.count)/\(commands.count)"
        let countX = inner.maxX - DisplayWidth.of(count)
        grid.put(count, at: Point(x: countX, y: inner.y), style: Style(foreground: .muted, background: .surface))
        // The query and its placeholder end a space before the count, cut to fit on a narrow terminal.
        let promptEnd = countX - 1
        let prompt = "> " + query
        grid.put(prompt, at: Point(x: inner.x, y: inner.y), style: surface.with(.bold), maxX: promptEnd)
        if query.isEmpty {
            grid.put(
                TextLayout.truncate(Self.placeholder, width: promptEnd - inner.x - 2),
                at: Point(x: inner.x + 2, y: inner.y), style: Style(foreground: .muted, background: .surface),
                maxX: promptEnd)
        }
        ListPosition(selection: selection, count: matches.count).render(
            onBottomBorderOf: frame, into: &grid, style: Style(foreground: .muted, background: .surface))
        guard !matches.isEmpty else {
            grid.put("No command matches.", at: Point(x: inner.x, y: inner.y + 2), style: surface)
            return
        }
        let layout = listLayout(inner)
        for (offset, rect) in layout.rows.enumerated() {
            let command = commands[matches[layout.first + offset]]
            let isSelected = layout.first + offset == selection
            let style = Style.panelRow(isSelected: isSelected)
            let y = rect.y
            grid.drawRow(rect, style: style, isSelected: isSelected, glyphs: glyphs)
            var right = inner.maxX
            if let key = command.keyLabel {
                right -= DisplayWidth.of(key)
                grid.put(
                    key, at: Point(x: right, y: y), style: Style(foreground: .accent, background: style.background))
                right -= 2
            }
            let title = TextLayout.truncate(command.title, width: max(1, right - inner.x - 1))
            grid.put(title, at: Point(x: inner.x + 1, y: y), style: style)
            let detailX = inner.x + 1 + DisplayWidth.of(title) + 2
            if !command.detail.isEmpty, detailX < right - 4 {
                grid.put(
                    TextLayout.truncate(command.detail, width: right - detailX), at: Point(x: detailX, y: y),
                    style: Style(foreground: .muted, background: style.background))
            }
        }
    }
}

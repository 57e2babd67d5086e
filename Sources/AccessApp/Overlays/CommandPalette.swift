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
    case moveClock(ClockMove)
    case setFaults(FaultSettings, label: String)
    case clearFaults
    case theme(Theme.Name)
    case platform(AppOptions.Platform)
    case ascii(Bool)
    /// Write the screen below to a file in the working directory.
    case export(ExportFormat)
    /// Nothing to run (a line such as "Loading scenarios…").
    case none
}

/// The command palette over the screen (Ctrl+P, or `:` where no text is typed): fuzzy search over every
/// command, Enter runs the chosen one.
public struct CommandPalette: Equatable, Sendable {
    public private(set) var query = ""
    public private(set) var commands: [PaletteCommand]
    /// Indices into `commands`, best match first.
    public private(set) var matches: [Int]
    public private(set) var selection = 0

    public static let keys: [Key] = [.control("p")]
    /// Opens the palette where typed letters are not text.
    public static let shortKey: Key = .character(":")

    public init(commands: [PaletteCommand], query: String = "") {
        self.commands = commands
        self.query = query
        matches = Self.rank(commands, query)
    }

    public var selected: PaletteCommand? {
        matches.indices.contains(selection) ? commands[matches[selection]] : nil
    }

    /// New commands (the scenarios arrived) under the same query.
    mutating func refresh(_ commands: [PaletteCommand]) {
        self.commands = commands
        matches = Self.rank(commands, query)
        selection = min(selection, max(0, matches.count - 1))
    }

    enum Outcome: Equatable {
        case stay
        case close
        case run(PaletteAction)
    }

    mutating func handle(_ event: InputEvent) -> Outcome {
        switch event {
        case .paste(let text):
            setQuery(query + text.filter { !$0.isNewline })
        case .key(.character(let character)):
            setQuery(query + String(character))
        case .key(.backspace):
            if !query.isEmpty { setQuery(String(query.dropLast())) }
        case .key(.up): selection = max(0, selection - 1)
        case .key(.down): selection = min(max(0, matches.count - 1), selection + 1)
        case .key(.pageUp): selection = max(0, selection - 10)
        case .key(.pageDown): selection = min(max(0, matches.count - 1), selection + 10)
        case .key(.enter):
            guard let selected, selected.action != .none else { return .stay }
            return .run(selected.action)
        case .key(.escape), .key(.control("p")):
            return .close
        default:
            break
        }
        return .stay
    }

    /// Opens on this search, as if typed.
    mutating func search(_ text: String) { setQuery(text) }

    private mutating func setQuery(_ text: String) {
        query = String(text.prefix(60))
        matches = Self.rank(commands, query)
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

    func render(into grid: inout CellGrid, glyphs: Glyphs) {
        let width = min(grid.size.cols - 4, 76)
        let height = min(grid.size.rows - 3, 20)
        let frame = Rect(x: (grid.size.cols - width) / 2, y: 1, width: width, height: height)
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Commands", glyphs: glyphs)
        let prompt = "> " + query
        grid.put(prompt, at: Point(x: inner.x, y: inner.y), style: surface.with(.bold), maxX: inner.maxX)
        if query.isEmpty {
            grid.put(
                "Type to search: a screen, a scenario, clock, fault, theme…",
                at: Point(x: inner.x + 2, y: inner.y), style: Style(foreground: .muted, background: .surface),
                maxX: inner.maxX)
        }
        let count = "\(matches.count)/\(commands.count)"
        grid.put(
            count, at: Point(x: inner.maxX - DisplayWidth.of(count), y: inner.y),
            style: Style(foreground: .muted, background: .surface))
        let listTop = inner.y + 2
        let visible = max(1, inner.maxY - listTop)
        guard !matches.isEmpty else {
            grid.put("No command matches.", at: Point(x: inner.x, y: listTop), style: surface)
            return
        }
        let first = min(max(0, selection - visible + 1), max(0, matches.count - visible))
        for (row, match) in matches[first..<min(matches.count, first + visible)].enumerated() {
            let command = commands[match]
            let isSelected = first + row == selection
            let style = isSelected ? Style(background: .selection, attributes: .bold) : surface
            let y = listTop + row
            grid.fill(Rect(x: inner.x - 1, y: y, width: inner.width + 2, height: 1), style: style)
            grid.put(isSelected ? glyphs.selected : " ", at: Point(x: inner.x - 1, y: y), style: style)
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

/// Subsequence matching as command palettes do it: every character of the query in order, case ignored;
/// runs of adjacent characters and matches at word starts score higher.
public enum FuzzyMatch {
    public static func score(_ query: String, in text: String) -> Int? {
        let needle = Array(query.lowercased()).filter { $0 != " " }
        let haystack = Array(text.lowercased())
        guard let first = needle.first else { return 0 }
        // Greedy from every place the first character occurs, keeping the best: the first "r" of
        // "Scenario: resend" must not hide the run that starts at "resend".
        var best: Int?
        for start in haystack.indices where haystack[start] == first {
            guard let score = greedyScore(needle, haystack, from: start) else { break }
            best = max(best ?? score, score)
        }
        // Shorter titles for the same match read as closer.
        return best.map { $0 * 100 - haystack.count }
    }

    private static func greedyScore(_ needle: [Character], _ haystack: [Character], from start: Int) -> Int? {
        var score = 0
        var position = start
        var previous: Int?
        for character in needle {
            guard position < haystack.count, let found = haystack[position...].firstIndex(of: character) else {
                return nil
            }
            score += 1
            if let previous, found == previous + 1 { score += 3 }
            if found == 0 || !haystack[found - 1].isLetter { score += 2 }
            previous = found
            position = found + 1
        }
        return score
    }
}

// MARK: - The commands

extension CommandPalette {
    /// Every command for the app as it stands: the keymap of the screen below, the QA console's (scenarios,
    /// clock, faults: reference backend only), looks, and every gallery state.
    static func commands(for state: AppState) -> [PaletteCommand] {
        var below = state
        below.overlay = nil
        var commands: [PaletteCommand] = []
        for binding in keymap(for: below).bindings where !binding.keys.allSatisfy(\.isArrow) {
            guard let key = binding.keys.first, !keys.contains(key) else { continue }
            commands.append(
                PaletteCommand(binding.description, detail: "this screen", keyLabel: binding.keyLabel, .key(key)))
        }
        if state.options.hasReferenceBackend {
            commands += consoleCommands(state)
        } else {
            commands.append(
                PaletteCommand(
                    "Scenarios, clock and faults", detail: "need the reference backend's admin API", .none))
        }
        commands += [
            PaletteCommand("Theme: dark", detail: "looks", .theme(.dark)),
            PaletteCommand("Theme: light", detail: "looks", .theme(.light)),
            PaletteCommand("Theme: mono", detail: "looks, attributes only", .theme(.mono)),
            PaletteCommand("Platform: iOS", detail: "looks", .platform(.ios)),
            PaletteCommand("Platform: Android", detail: "looks", .platform(.android)),
            PaletteCommand(
                state.options.ascii ? "ASCII: off" : "ASCII: on", detail: "looks", .ascii(!state.options.ascii)),
        ]
        commands += ExportFormat.allCases.map { format in
            PaletteCommand(
                "Export this screen as \(format.rawValue.uppercased())",
                detail: "a .\(format.fileExtension) file in the working directory", .export(format))
        }
        commands += Gallery.entries.map { PaletteCommand("Show \($0.id)", detail: $0.summary, .showState($0.id)) }
        return commands
    }

    private static func consoleCommands(_ state: AppState) -> [PaletteCommand] {
        var commands: [PaletteCommand] = []
        if let scenarios = state.console.scenarios {
            commands += scenarios.map { scenario in
                let current = scenario.name == state.console.scenario ? " (current)" : ""
                return PaletteCommand(
                    "Scenario: \(scenario.name)\(current)", detail: scenario.description, .switchScenario(scenario.name)
                )
            }
        } else {
            commands.append(PaletteCommand("Scenario: loading…", detail: "the reference backend's scenarios", .none))
        }
        commands += ClockMove.presets.map { move in
            PaletteCommand(
                "Clock \(move.label)", detail: "move the backend's clock and every countdown", .moveClock(move))
        }
        commands.append(
            PaletteCommand(
                "Fault: offline, connection refused for 30 s", detail: "the port stops accepting connections",
                .setFaults(
                    FaultSettings(offline: "refused", offlineSeconds: 30), label: "Offline: connection refused for 30 s"
                )))
        commands.append(
            PaletteCommand(
                "Fault: offline, every call answers 503", detail: "the service is unavailable",
                .setFaults(FaultSettings(offline: "503"), label: "Offline: every call answers 503")))
        for choice in FaultChoice.all {
            commands.append(
                PaletteCommand(
                    "Fault: \(choice.label) on every call", detail: "every endpoint but the admin API",
                    .setFaults(
                        FaultSettings(endpoints: [choice.fault(on: "*")]),
                        label: "Fault on: \(choice.label) on every call")))
        }
        // The calls the screen below makes (its spec notes), then those the journal saw lately.
        let screenCalls = type(of: state.top.base).specNotes.calls.map(\.path).filter { !$0.contains("{") }
        var paths: [String] = []
        for path in screenCalls + state.console.endpoints where !paths.contains(path) { paths.append(path) }
        for path in paths {
            for choice in FaultChoice.all {
                commands.append(
                    PaletteCommand(
                        "Fault: \(choice.label) on \(path)", detail: "one endpoint, the others answer",
                        .setFaults(
                            FaultSettings(endpoints: [choice.fault(on: path)]),
                            label: "Fault on: \(choice.label) on \(path)")))
            }
        }
        commands.append(
            PaletteCommand(
                "Fault: clear all", detail: state.console.faultSummary.map { "now: \($0)" } ?? "no fault known",
                .clearFaults))
        return commands
    }
}

extension Key {
    var isArrow: Bool { [.up, .down, .left, .right].contains(self) }
}

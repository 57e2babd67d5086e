import AccessAPI
import AccessConform
import AccessCore
import Foundation
import TerminalKit

/// The palette's "Run conformance" (issue 32): the checks of `accessdeck conform` against the app's backend, one
/// rule a call so the panel shows how far it is and Esc stops it between two checks. Against the reference
/// backend the run goes to a world of its own (`/w/conform`): every check loads a scenario, and the person's
/// own world must not be reset under them. Whether it is the reference backend is asked once, before the first
/// check. Enter on a broken rule shows what was expected, what came back (the library redacts codes, tokens and
/// passwords) and the rule's spec note.
public struct ConformPanel: OverlayModel, FilterableList {
    /// Where the checks go: the reference backend's conform world, or the backend itself.
    public var target: String
    /// The rules with a check, in the catalogue's order; one call each.
    public var rules: [Rule]
    public var run: ConformRun
    /// Whether the target is the reference backend (its admin API answers): nil until asked, once a run.
    public var isReference: Bool?
    public var isRunning: Bool
    /// Esc stopped the run before its end.
    public var isStopped = false
    public var selection = 0
    /// The broken rule whose detail is shown (Enter), by its result's name (the rule, and the road it was checked on).
    public var detail: String?
    /// `/`: only the rules whose id, verdict or reason hold every word typed.
    public var filter = ListFilter()

    /// Columns a line keeps for the reason beside the rule id before ids give way (cut to half the width).
    static let shortestReason = 24

    /// The reference backend's world the checks run in.
    public static let world = "conform"

    public init(
        target: String, rules: [Rule] = ConformPanel.checkedRules, run: ConformRun = ConformRun([]),
        isReference: Bool? = nil
    ) {
        self.target = target
        self.rules = rules
        self.run = run
        self.isReference = isReference
        self.isRunning = run.results.count < rules.count
    }

    /// Each rule the catalogue checks, once, in its order.
    public static var checkedRules: [Rule] {
        var rules: [Rule] = []
        for check in Catalogue.checks where !rules.contains(check.rule) { rules.append(check.rule) }
        return rules
    }

    /// The backend's root (a world's `/w/NAME` taken off) with the conform world's path, for a reference backend.
    public static func target(baseURL: String, world: String?, isReference: Bool) -> String {
        guard isReference else { return baseURL }
        var root = baseURL
        while root.hasSuffix("/") { root.removeLast() }
        if let world, root.hasSuffix(WorldNames.pathPrefix + world) {
            root.removeLast((WorldNames.pathPrefix + world).count)
        }
        return WorldNames.baseURL(root, world: Self.world)
    }

    public enum Intent: Sendable { case list(ListIntent), open, stop, close }
    public enum Reply: Equatable, Sendable {
        case detected(Result<Bool, APIError>)
        case checked(Rule, Result<ConformRun, APIError>)
    }

    public var id: String { "conform" }
    public var takesText: Bool { filter.isEditing }

    /// The results listed: all of them, or those the filter keeps. The selection indexes into these.
    var shown: [RuleResult] {
        run.results.filter { filter.matches([$0.name, $0.verdict.word, Self.reason($0)]) }
    }

    var shownCount: Int { shown.count }

    /// Rules whose check has run (each gives a result per road).
    private var done: Int { Set(run.results.map(\.rule)).count }

    public func bindings(_ context: OverlayContext) -> [KeyBinding<Intent>] {
        if detail != nil {
            return [
                KeyBinding([.escape], "Back", aliases: [.enter, .character("q")], .open)
            ]
        }
        return listBindings(
            open: KeyBinding([.enter], "Show", .open), escape: isRunning ? KeyBinding([.escape], "Stop", .stop) : nil,
            close: .close, Intent.list)
    }

    public func onAppear(_ context: OverlayContext) -> [Command] { next() }

    /// The call for the next rule, while the run goes on; first the one that asks what the target is.
    private func next() -> [Command] {
        guard isRunning, rules.indices.contains(done) else { return [] }
        guard let isReference else {
            return [.call(DetectConformBackend(target: target)) { Reply.detected($0) }]
        }
        let rule = rules[done]
        return [
            .call(RunConformCheck(target: target, rule: rule, isReference: isReference)) { Reply.checked(rule, $0) }
        ]
    }

    public mutating func perform(_ intent: Intent, _ context: OverlayContext) -> [Command] {
        switch intent {
        case .list(let intent):
            perform(intent, page: max(1, listRows(frame(context)).count))
        case .open:
            if detail != nil {
                detail = nil
            } else if shown.indices.contains(selection), case .broken = shown[selection].verdict {
                detail = shown[selection].name
            }
        case .stop:
            // The check under way finishes on the backend; its answer is dropped.
            isRunning = false
            isStopped = true
        case .close: return [.dismissOverlay]
        }
        return []
    }

    public mutating func handle(_ event: InputEvent, _ context: OverlayContext) -> [Command]? {
        typeIntoFilter(event)
    }

    public mutating func receive(_ reply: Reply, _ context: OverlayContext) -> [Command] {
        if case .detected(let result) = reply {
            guard isRunning, isReference == nil else { return [] }
            // Not answering like the reference backend, for whatever reason: run as against any other backend.
            isReference = (try? result.get()) ?? false
            return next()
        }
        guard case .checked(let rule, let result) = reply, isRunning, rules.indices.contains(done), rules[done] == rule
        else { return [] }
        switch result {
        case .success(let checked):
            run.results += checked.results
        case .failure(let failure):
            run.results.append(
                RuleResult(rule, verdict: .cannotTell("the check did not run: \(failure.message)")))
        }
        guard done >= rules.count else { return next() }
        isRunning = false
        // The rules no check is written for, as `accessdeck conform` lists them.
        for rule in Rule.allCases where rule != .ok && !rules.contains(rule) {
            run.results.append(RuleResult(rule, verdict: .notChecked))
        }
        return []
    }

    /// "Checking 37 of 147: otp.expired…" while it runs.
    var progress: String? {
        guard isRunning, rules.indices.contains(done) else { return nil }
        return "Checking \(done + 1) of \(rules.count): \(rules[done].rawValue)…"
    }

    /// The line's reason: what the check did when kept, what was expected when broken, why otherwise.
    static func reason(_ result: RuleResult) -> String {
        switch result.verdict {
        case .kept: result.title
        case .broken(let expected, _, _): "expected \(expected)"
        case .skipped(let why), .cannotTell(let why): why
        case .notChecked: "no check written"
        }
    }

    static func glyph(_ verdict: Verdict, ascii: Bool) -> String {
        switch verdict {
        case .kept: ascii ? "+" : "✔"
        case .broken: ascii ? "x" : "✘"
        case .skipped: "-"
        case .cannotTell: "?"
        case .notChecked: ascii ? "." : "·"
        }
    }

    /// What Enter shows of a broken rule: expected, got, the exchanges (redacted by the library) and the spec note.
    /// The note is AccessCore's `Rule.summary`: the app has no copy of docs/RULES.md at run time.
    static func detailLines(_ result: RuleResult) -> [(String, Style)] {
        let surface = Style.plain.on(.surface)
        var lines: [(String, Style)] = [
            (result.name + (result.title.isEmpty ? "" : " · " + result.title), surface.with(.bold))
        ]
        if case .broken(let expected, let got, let evidence) = result.verdict {
            lines.append(("Expected: \(expected)", surface))
            lines.append(("Got: \(got)", Style(foreground: .danger, background: .surface)))
            lines.append(("", surface))
            lines.append(("Spec note (\(result.rule.family.rawValue)): \(result.rule.summary)", surface))
            lines.append(("", surface))
            for exchange in evidence {
                lines += exchange.split(separator: "\n").map { (String($0), surface.with(.dim)) }
            }
        }
        lines += result.notes.map { ("Note: \($0)", surface.with(.dim)) }
        return lines
    }

    public func frame(_ context: OverlayContext) -> Rect { Rect(size: context.size).inset(horizontal: 2, vertical: 1) }

    /// Under the target, the summary and the progress or filter line.
    private static func listTop(_ inner: Rect) -> Int { inner.y + 3 }

    private func listRows(_ frame: Rect) -> [Rect] {
        let inner = frame.inset(horizontal: 2, vertical: 1)
        let top = Self.listTop(inner)
        let count = max(0, min(shown.count, inner.maxY - top))
        return (0..<count).map { Rect(x: inner.x - 1, y: top + $0, width: inner.width + 2, height: 1) }
    }

    private func firstShown(_ rows: Int) -> Int {
        ListPosition(selection: selection, count: shown.count).firstShown(
            rows: max(1, rows), current: max(0, selection - max(1, rows) + 1))
    }

    public func rows(in frame: Rect, _ context: OverlayContext) -> [Rect] { detail == nil ? listRows(frame) : [] }

    public mutating func select(row: Int, _ context: OverlayContext) {
        let index = firstShown(listRows(frame(context)).count) + row
        if shown.indices.contains(index) { selection = index }
    }

    public func render(into grid: inout CellGrid, in frame: Rect, _ context: OverlayContext) {
        let ascii = context.screen.options.ascii
        let surface = Style.plain.on(.surface)
        let inner = grid.drawPanel(frame, title: "Conformance", glyphs: context.glyphs)
        var y = inner.y
        func line(_ text: String, _ style: Style) { grid.putLine(text, in: inner, y: &y, style: style) }
        if let detail, let result = run.results.first(where: { $0.name == detail }) {
            for (text, style) in Self.detailLines(result) {
                let wrapped = TextLayout.wrap(text, width: inner.width)
                for piece in wrapped.isEmpty ? [""] : wrapped { line(piece, style) }
            }
            return
        }
        line("Rules of docs/RULES.md checked against \(target)", surface.with(.dim))
        line(run.shortSummary, surface.with(.bold))
        let shown = self.shown
        if let progress {
            line(progress, surface)
        } else if filter.isActive {
            filter.render(
                into: &grid, at: Point(x: inner.x, y: y), width: inner.width, style: surface, matched: shown.count,
                of: run.results.count)
        } else if isStopped {
            line("Stopped after \(done) of \(rules.count) rules (Esc).", surface)
        }
        y = Self.listTop(inner)
        if shown.isEmpty, !run.results.isEmpty { line("No rule matches the filter.", surface) }
        if !shown.isEmpty {
            ListPosition(selection: selection, count: shown.count).render(
                onBottomBorderOf: frame, into: &grid, style: Style(foreground: .muted, background: .surface))
        }
        let rows = listRows(frame)
        let first = firstShown(rows.count)
        for (offset, row) in rows.enumerated() where shown.indices.contains(first + offset) {
            let index = first + offset
            let result = shown[index]
            let selected = index == selection
            var style = Style.panelRow(isSelected: selected)
            if case .broken = result.verdict { style.foreground = .danger }
            grid.drawRow(row, style: style, isSelected: selected, glyphs: context.glyphs)
            // As wide as the longest rule id where the panel has room for a reason beside it.
            let width = inner.width >= Rule.longestID + Self.shortestReason ? Rule.longestID : inner.width / 2
            let id = result.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let text = "\(Self.glyph(result.verdict, ascii: ascii)) \(id) \(Self.reason(result))"
            // A column after the selection mark, as the palette's rows (issue 50).
            grid.put(
                TextLayout.truncate(text, width: inner.width - 1), at: Point(x: inner.x + 1, y: row.y), style: style)
        }
    }
}

/// Whether `target` is the reference backend, asked once before a run's first check.
struct DetectConformBackend: APIRequest {
    let target: String

    func perform(_ api: APIContext) async throws -> Bool {
        let http = ConformHTTP(baseURL: target)
        let found = await ReferenceAdmin.detect(http) != nil
        await http.shutdown()
        return found
    }
}

/// One rule's checks against `target`, as `accessdeck conform --only RULE` runs them: codes and links from the
/// reference backend's outbox, none against another backend (those checks are skipped, saying what the app's
/// user can do instead).
struct RunConformCheck: APIRequest {
    let target: String
    let rule: Rule
    /// What `DetectConformBackend` found at the start of the run.
    let isReference: Bool

    func perform(_ api: APIContext) async throws -> ConformRun {
        let http = ConformHTTP(baseURL: target)
        let reference = isReference ? ReferenceAdmin(detected: http) : nil
        let messages: any MessageSource =
            reference != nil ? OutboxSource(http: http) : NoMessageSource(frontEnd: .app)
        var settings = ConformSettings()
        settings.frontEnd = .app
        let runner = ConformRunner(http: http, messages: messages, reference: reference, settings: settings)
        let run = await runner.run(Selection(only: [rule.rawValue]))
        await http.shutdown()
        return run
    }
}

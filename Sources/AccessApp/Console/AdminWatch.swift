import AccessAPI
import Foundation
import TerminalKit

/// The app keeps up with what QA changed on the reference backend, from here or from another tool (curl, a
/// script, a second app): it asks `GET /_admin/state` every few seconds on the app clock. The answer keeps
/// the status strip current (faults, the clock), and a scenario epoch larger than the one the app knew means
/// someone else reset the world: the app goes over to it instead of finding its session gone.
public enum AdminWatch {
    /// Between two looks at the admin state, on the app clock.
    public static let interval: TimeInterval = 2
}

/// Asks for the admin state now (unless a look or a switch is under way) and schedules the next look.
/// The executable sends the first `.watchAdmin` once the app runs on a reference backend.
func watchAdmin(_ state: inout AppState) -> [Effect] {
    guard state.options.hasReferenceBackend else { return [] }
    let next = Effect.after(seconds: AdminWatch.interval, action: .watchAdmin, id: .adminWatch)
    guard state.console.switching == nil, !state.awaits(Endpoint.AdminState.self, for: .console) else { return [next] }
    return state.send(Call(Endpoint.AdminState(), ConsoleReply.adminState), for: .console) + [next]
}

/// The admin state as it stands: the strip's facts, and a reset by another tool.
func receiveAdminState(_ admin: AdminState, in state: inout AppState) -> [Effect] {
    state.console.faults = admin.faults
    state.console.clockFrozen = admin.clock.frozen
    state.console.clockOffset = admin.clockOffsetSeconds
    // A look sent before this app's own switch may answer after it: only a larger epoch is news.
    guard state.console.switching == nil else { return [] }
    // Another run of the server (issue 48 item 14): the backend restarted under the app. On a temporary database
    // its sessions went with it, and its epochs started over, so the epoch cannot say it: the app goes over to
    // the restarted backend's world as for a reset by another tool, and says it was a restart, not an expiry.
    let known = state.console.instance
    if let instance = admin.instance { state.console.instance = instance }
    if let known, let instance = admin.instance, instance != known {
        state.console.epoch = admin.epoch
        return beginSwitch(to: admin.scenario, loadedBy: .restart, in: &state)
    }
    guard let known = state.console.epoch, admin.epoch > known else {
        state.console.epoch = max(state.console.epoch ?? admin.epoch, admin.epoch)
        state.console.scenario = admin.scenario
        return []
    }
    state.console.epoch = admin.epoch
    return beginSwitch(to: admin.scenario, loadedBy: .anotherTool, in: &state)
}

/// Who loaded the scenario the app goes over to.
enum ScenarioLoader: Equatable, Sendable {
    /// This app: the palette or a tape (the switch loads it).
    case app
    /// Someone else through `POST /_admin/scenario`: it is loaded already.
    case anotherTool
    /// The backend restarted (another run of the server): its scenario is loaded already.
    case restart

    /// The toast once the app has gone over: who changed the world says why the screen started over.
    static func landedText(_ loader: ScenarioLoader, _ name: String) -> String {
        switch loader {
        case .app: "Scenario: \(name)"
        case .anotherTool: "Scenario reset by another tool: \(name)"
        case .restart: "The backend was restarted: starting over on scenario \(name)"
        }
    }
}

/// From here until the answer the old world is gone: input waits (Reduce), the strip says so.
func beginSwitch(to name: String, loadedBy loader: ScenarioLoader, in state: inout AppState) -> [Effect] {
    state.console.switching = name
    let request = SwitchScenario(name: name, alreadyLoaded: loader != .app)
    return state.send(Call(request) { ConsoleReply.switched(name, loader, $0) }, for: .console)
}

// MARK: - The status strip

/// One line above the footer whenever something is not as the app starts (k9s-style): a switch under way,
/// the faults on, the clock moved or frozen, a backend that is not the embedded one, led by the scenario.
/// Without it a fault stayed on unseen unless the palette was opened.
public enum StatusStrip {
    /// A clock this close to the machine's counts as not moved (the backend shows whole seconds).
    static let clockTolerance: TimeInterval = 1

    /// The strip's parts in order; empty when everything is as the app starts.
    public static func parts(_ state: AppState) -> [String] {
        let console = state.console
        var parts: [String] = []
        if let switching = console.switching { parts.append("Switching to \(switching)\u{2026}") }
        var notDefault: [String] = []
        if let faults = console.faultSummary { notDefault.append("faults: \(faults)") }
        // Frozen, the offset is said too (issue 48 item 19): "clock frozen +2 d", not only "clock frozen".
        let moved = abs(console.clockOffset) >= clockTolerance
        let sign = console.clockOffset > 0 ? "+" : "\u{2212}"
        let offset = moved ? "\(sign)\(ClockMove.duration(abs(console.clockOffset)))" : nil
        if console.clockFrozen {
            notDefault.append(["clock frozen", offset].compactMap { $0 }.joined(separator: " "))
        } else if let offset {
            notDefault.append("clock \(offset)")
        }
        if let world = state.options.world { notDefault.append("world \(world)") }
        if !state.options.backendIsEmbedded, let url = state.options.backendURL { notDefault.append("backend \(url)") }
        if let findings = console.proxy.findings {
            notDefault.append("proxy: \(findings.count) finding\(findings.count == 1 ? "" : "s")")
        }
        // The scenario alone was chosen at the start (or its switch toasted): a strip for it would take a form's
        // last row at 80×24 for good. It leads the line once anything else is on.
        if console.switching == nil, !notDefault.isEmpty, let scenario = console.scenario {
            parts.append("scenario \(scenario)")
        }
        return parts + notDefault
    }

    /// The line, cut to `width` with an ellipsis; nil when there is nothing to say.
    public static func text(_ state: AppState, width: Int) -> String? {
        let parts = parts(state)
        guard !parts.isEmpty else { return nil }
        let ascii = state.options.ascii
        let line = parts.joined(separator: ascii ? " | " : " \u{00B7} ")
        let fitted = ascii ? line.replacingOccurrences(of: "\u{2026}", with: "...") : line
        return TextLayout.truncate(fitted, width: width, ellipsis: ascii ? "..." : "\u{2026}")
    }

    static func render(_ text: String, into grid: inout CellGrid, in rect: Rect, switching: Bool) {
        grid.fill(rect, style: .plain)
        let style = switching ? Style.accent.with(.bold) : Style.accent
        grid.put(text, at: Point(x: rect.x + 2, y: rect.y), style: style, maxX: rect.maxX)
    }
}

import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension CommandPalette {
    /// How long the palette's refused-connection fault lasts: the reference backend's own default (its
    /// `FaultService.defaultRefusalSeconds`), sent explicitly so the palette says what it asked for.
    static let refusedSeconds = 30
    private static var refusedFor: String { RuleText.duration(TimeInterval(refusedSeconds), .short) }

    /// Every command for the app as it stands: the keymap of the screen below, the QA console's (scenarios,
    /// clock, faults: reference backend only), looks, and every gallery state.
    static func commands(for state: AppState) -> [PaletteCommand] {
        var below = state
        below.overlay = nil
        var commands: [PaletteCommand] = []
        for binding in keymap(for: below).hints where !binding.keys.allSatisfy(\.isArrow) {
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
        commands.append(
            PaletteCommand(
                "Run conformance",
                detail: state.options.hasReferenceBackend
                    ? "the rules of docs/RULES.md, in a world of its own (/w/\(ConformPanel.world)): yours is not reset"
                    : "the rules of docs/RULES.md against this backend: it signs up test accounts there",
                .runConformance))
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
        // The app keeps the session's tape and the world it started on only with the embedded backend.
        if state.options.backendIsEmbedded {
            commands.append(
                PaletteCommand(
                    "Save bug report",
                    detail: "this session's tape, world, cast, journal and timeline: one .zip in the working directory",
                    .saveBugReport))
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
            let detail: String
            switch move {
            case .frozen(true): detail = "stop the backend's clock and every countdown"
            case .frozen(false): detail = "let the backend's clock run on from where it stands"
            default: detail = "move the backend's clock and every countdown"
            }
            return PaletteCommand("Clock \(move.label)", detail: detail, .moveClock(move))
        }
        // First among the console's own rows after the clock: the states QA ask for most, where they make sense.
        commands += StatePreset.offered(state).map { PaletteCommand($0.title, detail: $0.detail, .preset($0)) }
        commands += TypedCommand.allCases.filter { $0 != .world || state.console.worlds != nil }.map(\.template)
        commands += worldCommands(state)
        commands += OtherDevice.allCases.map { device in
            PaletteCommand(
                "Sign in from another device: \(device.name)",
                detail: "a new session of the scenario's user, for Active sessions", .signInOtherDevice(device))
        }
        commands.append(
            PaletteCommand(
                "Timeline: this account", detail: "what the backend decided about the signed-in user, for support",
                .timeline(nil)))
        commands.append(
            PaletteCommand(
                "Sign this device out from elsewhere",
                detail: "end this device's session on the backend, as another device would",
                .signOutThisDeviceElsewhere))
        commands += DevicePasskeyAction.allCases.map { PaletteCommand($0.title, detail: $0.detail, .devicePasskey($0)) }
        commands.append(
            PaletteCommand(
                "Authenticator: current code", detail: "what the scenario user's app shows now (two-factor)",
                .authenticatorCode))
        commands.append(
            PaletteCommand(
                "Fault: offline, connection refused for \(refusedFor)", detail: "the port stops accepting connections",
                .setFaults(
                    FaultSettings(offline: "refused", offlineSeconds: refusedSeconds),
                    label: "Offline: connection refused for \(refusedFor)")))
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
        // Only with a fault on (the status strip's poll knows): offered with none, it was the first hit for
        // "fault", the shortest of the rows (issue 48 item 19).
        if let faults = state.console.faultSummary {
            commands.append(PaletteCommand("Fault: clear all", detail: "now: \(faults)", .clearFaults))
        }
        return commands
    }
}

extension CommandPalette {
    /// "Switch world: NAME" for each world the backend listed (issue 33); none where it serves no worlds.
    fileprivate static func worldCommands(_ state: AppState) -> [PaletteCommand] {
        guard let worlds = state.console.worlds else { return [] }
        let here = state.options.world ?? WorldNames.defaultWorld
        return worlds.map { world in
            let current = world.name == here ? " (current)" : ""
            var detail = world.scenario.map { "scenario \($0)" } ?? (world.open ? "open" : "closed, opens on entry")
            if world.name == WorldNames.defaultWorld { detail = "the bare base URL · " + detail }
            return PaletteCommand(
                "Switch world: \(world.name)\(current)", detail: detail,
                .switchWorld(world.name == WorldNames.defaultWorld ? nil : world.name))
        }
    }
}

extension Key {
    var isArrow: Bool { [.up, .down, .left, .right].contains(self) }
}

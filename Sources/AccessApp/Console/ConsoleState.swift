import AccessAPI
import Foundation
import TerminalKit

/// The QA console beside the screens: what it knows of the reference backend (its scenarios, the scenario
/// in use, the faults it reported). Its calls are in `AppState.pending`, owned by `.console`.
public struct ConsoleState: Equatable, Sendable {
    /// The reference backend's scenarios, loaded the first time the palette opens.
    public var scenarios: [ScenarioSummary]?
    /// The reference backend's worlds (`GET /_admin/worlds`, issue 33), asked each time the palette opens; nil
    /// while a backend has not answered it (it serves no worlds): the palette then offers none.
    public var worlds: [WorldSummary]?
    /// The scenario the app started on or last switched to (nil: not known, e.g. `--backend`).
    public var scenario: String?
    /// The faults as the backend last reported them (a change from here, or the admin state).
    public var faults: FaultSettings?
    /// The scenario epoch last seen (`GET /_admin/state`, or this app's own switch); nil until the first look.
    public var epoch: Int64?
    /// The run of the server last seen (`GET /_admin/state`'s `instance`); nil until the first look, or from a
    /// backend that does not tell. Another one means the backend restarted (issue 48 item 14).
    public var instance: String?
    /// The backend's clock as last seen: stopped, and how far from this machine's time (whole seconds).
    public var clockFrozen = false
    public var clockOffset: TimeInterval = 0
    /// The scenario the app is going over to, until the switch answers: input waits, the strip says so.
    public var switching: String?
    /// Endpoints the app called lately (from the journal), newest first: the palette offers faults for them.
    public var endpoints: [String] = []
    /// Behind `accessdeck proxy`: what it found (ProxyWatch), for the strip and F3's markers.
    public var proxy = ProxyLook.unknown

    static let endpointLimit = 8

    /// Paths from the journal, newest first; the admin API is never faulted.
    mutating func noteEndpoints(_ paths: [String]) {
        var seen: [String] = []
        for path in paths where !path.hasPrefix("/_admin") && !seen.contains(path) {
            seen.append(path)
            if seen.count == Self.endpointLimit { break }
        }
        endpoints = seen
    }

    public init(scenario: String? = nil) { self.scenario = scenario }

    /// A short description of the faults on, for the palette and the toast; nil when there are none.
    public var faultSummary: String? { faults.flatMap(Self.describe) }

    static func describe(_ faults: FaultSettings) -> String? {
        var parts: [String] = []
        switch faults.offline {
        case "refused": parts.append("connection refused")
        case "503": parts.append("every call answers 503")
        case "drop": parts.append("connections dropped")
        default: break
        }
        if let latency = faults.latencyMs, latency > 0 { parts.append("+\(latency) ms on every call") }
        for fault in faults.endpoints ?? [] {
            let target = fault.path == "*" ? "every call" : fault.path
            parts.append("\(FaultChoice(answer: fault).label) on \(target)")
        }
        for fault in faults.statuses ?? [] { parts.append("\(fault.status) on \(fault.path)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

import AccessApp
import Foundation

extension Effect {
    /// The first probe, set as the offline banner goes up (Reduce+Probe).
    public static let firstProbe = Effect.after(seconds: Probe.firstWait, action: .probe, id: .probe)

    /// The deadline of a call its owner waits no longer for (`Call.within`): the "no answer" it delivers.
    public static func deadline(_ seconds: TimeInterval, of id: Int) -> Effect {
        .after(
            seconds: seconds, action: .response(RequestID(id), .failure(.offline(reason: Call.deadlineReason))),
            id: .deadline(RequestID(id)))
    }
}

extension AppState {
    /// As the ledger leaves the app after a call got no answer: the banner up, the first probe set.
    public mutating func wentOffline() {
        isOffline = true
        banner = .offline
        probeWait = Probe.firstWait
    }
}

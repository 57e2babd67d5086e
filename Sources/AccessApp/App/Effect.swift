import Foundation
import TerminalKit

/// Names a delayed action so it can be replaced or cancelled.
public enum TimerID: Hashable, Sendable {
    case toast
    case clock
    /// A screen's "once typing pauses" check (availability after 400 ms, a mismatch after 200 ms):
    /// each keystroke restarts it, so it fires once, that long after the last one.
    case debounce
    /// The deadline of a call its owner waits for no longer (`Call.within`).
    case deadline(RequestID)
    /// While offline: the next question whether the backend is back (Reduce+Probe).
    case probe
    /// On a reference backend: the next look at its admin state (AdminWatch).
    case adminWatch
    /// Behind `accessdeck proxy`: the next look at its findings (ProxyWatch).
    case proxyWatch

    /// A wait for the backend itself (is it back? what did QA change?), not a countdown on screen: it runs
    /// on real time even while QA has the backend's clock, and so the app's, frozen (`EffectRunner`).
    public var waitsForTheBackend: Bool {
        switch self {
        case .probe, .adminWatch, .proxyWatch: return true
        case .toast, .clock, .debounce, .deadline: return false
        }
    }
}

/// Work the reducer asks for; the `EffectRunner` performs it. Reducers stay pure.
public enum Effect: Equatable, Sendable {
    /// Call the backend; the reply arrives as `.response(id, _)`.
    case request(AnyRequest, id: RequestID)
    /// Send `action` after `seconds` on the app clock; a new timer with the same id replaces the old one.
    case after(seconds: TimeInterval, action: Action, id: TimerID)
    case cancel(TimerID)
    /// Put text on the system clipboard (OSC 52).
    case copy(String)
    /// Hand a URL to the system opener (mail client, browser).
    case open(URL)
    /// Forget the user on this device: the session file and the cached auth methods (after
    /// the account is deleted, and on log out), leaving the signed-out marker.
    case signOutLocally
    /// Log out: forget the user here at once, as `signOutLocally`, and tell the backend
    /// (`POST /auth/logout`) when it can, without anyone waiting for it.
    case logOut
    /// Write the screen as it stands (the palette closed) to a file in the working directory; the
    /// store answers with `.exported`.
    case export(ExportFormat)
    /// Write the bug report of this session (issue 51 item 5) into the working directory; the store answers with
    /// `.exported`. Only the app that keeps the session (`SystemServices.saveBugReport`) can.
    case saveBugReport
    case quit
}

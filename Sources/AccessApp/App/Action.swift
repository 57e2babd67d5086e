import AccessAPI
import Foundation
import TerminalKit

/// Everything that can happen to the app: input, replies, timers.
public enum Action: Equatable, Sendable {
    /// A key, a paste or a resize from the terminal.
    case input(InputEvent)
    /// The reply to the request with this id.
    case response(RequestID, Result<Answer, APIError>)
    case toastExpired
    /// One second passed while something counts down.
    case tick
    /// While offline: time to ask whether the backend is back (Reduce+Probe).
    case probe
    /// A link from the person's mail, handed over by `accessdeck open-link`: the terminal's tap.
    case openLink(String)
    /// The app is on screen: the root screen appears (it was not pushed), e.g. a stored session's check.
    case started
    /// `--start-at` (issue 51 item 4): walk the road of gallery state ID on the backend, then stand where it ends.
    case startAt(String)
    /// `--qa-sign-in`: the reference backend's QA shortcut signed the app in after the first frame;
    /// the profile says where its onboarding stands (nil: none came, so it is taken as complete).
    case qaSignedIn(AuthMethods, profile: Profile? = nil)
    /// The start's look at the backend is over (after `qaSignedIn` when it signed in): links held meanwhile
    /// open now (`AppState.identifying`).
    case identified
    /// QA: reload the reference backend from this scenario; the app starts over on its first screen.
    case switchScenario(String)
    /// On a reference backend: time to look at its admin state again (AdminWatch); the executable sends the first.
    case watchAdmin
    /// Behind `accessdeck proxy`: time to look at its findings again (ProxyWatch); the executable sends the first.
    case watchProxy
    /// QA: move the reference backend's clock (and so the app's); a toast says what fell due.
    case moveClock(ClockMove)
    /// QA: set the reference backend's faults as the palette's Fault commands do (a tape's `fault` step).
    case setFaults(FaultSettings, label: String)
    /// The system's opener could not open this URL (the effect `.open`): no browser or mail client here.
    case openFailed(URL)
    /// The screen was written to this file (its name), or why not.
    case exported(Result<String, ExportFailure>)
}

/// Why a screen could not be written: the system's message.
public struct ExportFailure: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

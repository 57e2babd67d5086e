import AccessAPI
import TerminalKit

/// Everything that can happen to the app: input, replies, timers.
public enum Action: Equatable, Sendable {
    /// A key, a paste or a resize from the terminal.
    case input(InputEvent)
    /// A backend reply for the screen with id `screen`, which asked for it as `name`.
    case response(screen: String, name: String, Result<APIReply, APIError>)
    case toastExpired
    /// One second passed while something counts down.
    case tick
}

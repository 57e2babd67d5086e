import TerminalKit

/// The first screen while the embedded backend starts (issue 34 item 1), drawn from the scenario before the
/// backend is up. It answers keys at once: the reducer runs on it with its effects dropped, so a key that only
/// moves or opens something shows now, and one that needs the backend shows its screen waiting. Every key is
/// kept, to be sent again to the app's state once the backend is up, where its effects (a request, a copy, a
/// timer) happen, once.
public struct StartingScreen {
    public private(set) var state: AppState
    /// The keys taken, in order, for the app's state once the backend is up.
    public private(set) var pending: [InputEvent] = []
    /// A key asked to quit (its effect is the one not dropped).
    public private(set) var quits = false

    /// Keys kept while the backend starts (it takes a fraction of a second): a held key cannot pile them up.
    public static let pendingLimit = 64

    public init(_ state: AppState) { self.state = state }

    /// Acts on `event` and keeps it; past the limit, neither.
    public mutating func take(_ event: InputEvent) {
        guard pending.count < Self.pendingLimit else { return }
        pending.append(event)
        if reduce(&state, .input(event)).contains(.quit) { quits = true }
    }
}

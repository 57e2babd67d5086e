import AccessAPI
import Foundation
import TerminalKit

/// Logging out, then logged out: alone on the stack. While `POST /auth/logout` runs a spinner
/// turns; whatever the answer, the session is forgotten here (seed 002: best effort). There is
/// no sign-in screen yet, so quitting is all there is; the next start is signed out.
public struct LoggedOutScreen: ScreenModel {
    /// The request is under way (the spinner turns).
    public var isWorking: Bool

    public init(isWorking: Bool = false) { self.isWorking = isWorking }

    public var id: String { "logged-out" }
    public var needsClock: Bool { isWorking }

    static let logoutTag = "logout"

    public func keymap(_ context: ScreenContext) -> Keymap {
        isWorking ? Keymap([]) : Keymap([KeyBinding([.enter], "Quit")])
    }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        isWorking ? [.request(Logout(), tag: Self.logoutTag)] : []
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard !isWorking, event == .key(.enter) else { return nil }
        return [.run(.quit)]
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        guard tag == Self.logoutTag else { return [] }
        isWorking = false
        return [.signOut]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        guard !isWorking else {
            let spinner = Spinner("Logging out…", tick: Int(context.now.timeIntervalSince1970))
            let glyphs = canvas.glyphs
            canvas.draw(height: canvas.remaining.height) { grid, rect in
                spinner.render(into: &grid, in: rect, glyphs: glyphs)
            }
            return
        }
        let body = "Your session on this device has ended. Your other devices stay signed in."
        let lines = TextLayout.wrap(body, width: min(canvas.innerWidth, 64))
        let height = 2 + lines.count + 2
        canvas.skip(max(0, (canvas.remaining.height - height) / 2))
        canvas.centered("You're logged out", style: .bold)
        for line in lines { canvas.centered(line, spacing: 0) }
        canvas.skip(1)
        canvas.centered("Press Enter or q to quit.", style: .muted, spacing: 0)
    }
}

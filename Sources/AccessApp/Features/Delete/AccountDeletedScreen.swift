import AccessCore
import Foundation
import TerminalKit

/// "Your account has been deleted" (seed 001): alone on the stack, the user signed out. Seed 000
/// replaces the hub with login/welcome: Enter goes on to Welcome; q quits.
public struct AccountDeletedScreen: ScreenModel {
    /// Until then the phone, email and Apple and Google accounts cannot sign up again (the answer's
    /// `identity_held_until`); nil, the hold is said by its length.
    public var heldUntil: Date?

    public init(heldUntil: Date? = nil) { self.heldUntil = heldUntil }

    public var id: String { "account-deleted" }

    public enum Intent: Sendable { case welcome }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        [KeyBinding([.enter], "Continue", .welcome)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        [.resetStack(AppRoutes.signedOut)]
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        // Centred in the space, as the spinner before it.
        let body =
            "Thanks for trying \(context.options.brand.name). You've been signed out on all devices. Your data will be removed within \(RuleText.duration(DeletionRules.purgeDelay)) per our Privacy Policy."
        let hold = DeleteAccountScreen.heldText(until: heldUntil, in: context.options.timeZone)
        let lines =
            TextLayout.wrap(body, width: min(canvas.innerWidth, 64)) + [""]
            + TextLayout.wrap(hold, width: min(canvas.innerWidth, 64))
        let height = 2 + lines.count + 2
        canvas.skip(max(0, (canvas.remaining.height - height) / 2))
        canvas.centered("Your account has been deleted", style: .bold)
        for line in lines { canvas.centered(line, spacing: 0) }
        canvas.skip(1)
        canvas.centered("Press Enter to continue, or q to quit.", style: .muted, spacing: 0)
    }
}

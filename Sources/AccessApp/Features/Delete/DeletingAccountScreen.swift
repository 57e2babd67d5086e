import AccessAPI
import Foundation
import TerminalKit

/// "Deleting your account…" (seed 001): a spinner while `DELETE /me` runs, with the re-auth
/// token of the last "Verify it's you". Done: the user is signed out here and only the final
/// screen is left. A blocker that appeared since the check (409) shows the blocker screen; an
/// expired verification asks for it again; no answer or a server failure can be retried.
public struct DeletingAccountScreen: ScreenModel {
    /// The request is under way (the spinner turns).
    public var isWorking: Bool
    public var error: String?
    public var canRetry: Bool
    /// The server's 409 message, kept while the blockers are fetched again: shown if none come back.
    public var blockedMessage: String?

    public init(isWorking: Bool = true, error: String? = nil, canRetry: Bool = false, blockedMessage: String? = nil) {
        self.isWorking = isWorking
        self.error = error
        self.canRetry = canRetry
        self.blockedMessage = blockedMessage
    }

    public var id: String { "deleting-account" }
    public var needsClock: Bool { isWorking }

    static let deleteTag = "delete"
    static let preflightTag = "preflight"
    static let busyText = "Hold on — your account is being deleted."
    static let verifyAgainText = "Verify it's you again to delete your account."

    public func keymap(_ context: ScreenContext) -> Keymap {
        // Leaving mid-request would drop the answer, and with it the sign-out: Back waits.
        if isWorking { return Keymap([KeyHint([.escape, .left], "Wait for the answer", inFooter: false)]) }
        return canRetry ? Keymap([KeyHint([.enter], "Try again")]) : Keymap([])
    }

    public func onAppear(_ context: ScreenContext) -> [Command] {
        [.request(DeleteAccount(reauthToken: context.reauth?.reauthToken), tag: Self.deleteTag)]
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        switch key {
        case .escape, .left:
            return isWorking ? [.showToast(Self.busyText)] : nil
        case .enter where canRetry && !isWorking:
            isWorking = true
            error = nil
            canRetry = false
            return onAppear(context)
        default:
            return nil
        }
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        if tag == Self.preflightTag { return receivePreflight(result) }
        switch result {
        case .success:
            guard result.reply(AccountDeleted.self) != nil else { return [] }
            return [.signOut, .resetStack(AccountDeletedScreen())]
        case .failure(let failure) where failure.isDeleteBlocked:
            blockedMessage = failure.message
            return [.request(LoadDeletePreflight(), tag: Self.preflightTag)]
        case .failure(.reauthRequired):
            return [
                .popTo(DeleteAccountScreen.self), .push(ReauthPickerScreen(flow: .deleteAccount)),
                .showToast(Self.verifyAgainText),
            ]
        case .failure(let failure):
            fail(failure)
            return []
        }
    }

    private mutating func receivePreflight(_ result: Result<AnyValue, APIError>) -> [Command] {
        switch result {
        case .success:
            guard let preflight = result.reply(DeletePreflight.self) else { return [] }
            guard preflight.blockers.isEmpty else {
                return [.popTo(DeleteAccountScreen.self), .push(DeleteBlockersScreen(blockers: preflight.blockers))]
            }
            // Cleared in the meantime: say what the server said, and let the user try again.
            isWorking = false
            error = blockedMessage
            canRetry = true
        case .failure(let failure):
            fail(failure)
        }
        blockedMessage = nil
        return []
    }

    private mutating func fail(_ failure: APIError) {
        isWorking = false
        error = failure.message
        canRetry = failure.isWorthRetrying
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        guard let error, !isWorking else {
            let spinner = Spinner("Deleting your account…", tick: Int(context.now.timeIntervalSince1970))
            let glyphs = canvas.glyphs
            canvas.draw(height: canvas.remaining.height) { grid, rect in
                spinner.render(into: &grid, in: rect, glyphs: glyphs)
            }
            return
        }
        canvas.title("Delete account")
        canvas.paragraph(error, style: .danger)
        canvas.paragraph(
            canRetry ? "Press Enter to try again, or Esc to go back." : "Press Esc to go back.", style: .muted)
    }
}

import AccessAPI
import Foundation
import TerminalKit

/// "Deleting your account…" (seed 001): a spinner while `DELETE /me` runs, with the re-auth
/// token of the last "Verify it's you". Done: the user is signed out here and only the final
/// screen is left. A blocker that appeared since the check (409) shows the blocker screen; an
/// expired verification asks for it again; no answer or a server failure can be retried.
public struct DeletingAccountScreen: BusyScreen {
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
    public var isBusy: Bool { isWorking }
    public var busyText: String { "Deleting your account…" }
    public var failedTitle: String { "Delete account" }

    static let busyText = "Hold on — your account is being deleted."
    static let verifyAgainText = "Verify it's you again to delete your account."

    public enum Intent: Sendable { case wait, retry, support }
    public enum Reply: Equatable, Sendable {
        case delete(Result<AccountDeleted, APIError>)
        /// The blockers asked for again after the server's 409.
        case preflight(Result<DeletePreflight, APIError>)
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        // Leaving mid-request would drop the answer, and with it the sign-out: Back waits.
        if isWorking { return [KeyBinding([.escape, .left], "Wait for the answer", inFooter: false, .wait)] }
        return retryBindings(.retry, support: .support)
    }

    public func call(_ context: ScreenContext) -> [Command] {
        [.call(Endpoint.DeleteAccount(reauthToken: context.reauth?.reauthToken), Reply.delete)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .wait:
            return [.showToast(Self.busyText)]
        case .retry:
            guard canRetry, !isWorking else { return [] }
            isWorking = true
            error = nil
            canRetry = false
            return call(context)
        case .support:
            return [.contactSupport(typed: nil)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        switch reply {
        case .delete(.success(let deleted)):
            return [.signOut, .resetStack(AccountDeletedScreen(heldUntil: deleted.identityHeldUntil))]
        case .delete(.failure(let failure)) where failure.isDeleteBlocked:
            blockedMessage = failure.message
            return [.call(Endpoint.DeletePreflight(), Reply.preflight)]
        case .delete(.failure(.reauthRequired)):
            return [
                .popTo(DeleteAccountScreen.self), .push(ReauthPickerScreen(flow: .deleteAccount)),
                .showToast(Self.verifyAgainText),
            ]
        case .delete(.failure(let failure)):
            fail(failure)
            return []
        case .preflight(.success(let preflight)):
            guard preflight.blockers.isEmpty else {
                return [.popTo(DeleteAccountScreen.self), .push(DeleteBlockersScreen(blockers: preflight.blockers))]
            }
            // Cleared in the meantime: say what the server said, and let the user try again.
            isWorking = false
            error = blockedMessage
            canRetry = true
        case .preflight(.failure(let failure)):
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
}

import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Account recovery by email (seed 003): "Can't access your account?" on the sign-in screen asks for
/// the recovery email, a one-shot link (24 h) goes to it, and the link with that address's password
/// signs in with limited access — profile and settings — until a phone is verified again.
enum RecoveryFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        RecoveryRequestScreen.self, RecoverySentScreen.self, RecoveryPasswordScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.limitedAccessGallery }
}

/// The recovery link (`…/recover?token=…`): opening it checks the token and asks for the password.
struct AccountRecoveryLink: LinkPurpose {
    public init() {}
    /// A new link needs the address, which an expired token no longer tells: the request screen asks.
    public var resend: NoResend? { nil }
    public func confirm(token: String) -> CheckRecoveryLink { CheckRecoveryLink(token: token) }
    public func confirmed(_ checked: CheckedRecoveryLink, _ context: ScreenContext) -> [Command] {
        // Signed in already: finishing would swap this session for a limited one, perhaps another account's.
        // Checking does not spend the link, so it still works after a log out.
        guard context.methods == nil else { return [.pop, .showToast(Self.signedInText)] }
        return [.replaceTop(RecoveryPasswordScreen(email: checked.link.email, token: checked.token))]
    }
    static let signedInText = "You're already signed in. Log out to use this recovery link."
    public func accepts(_ message: OutboxMessage) -> Bool { message.outboxKind == .recoveryLink }
    public var canEditAddress: Bool { false }
    public var linkPath: String { "recover" }
    public var newLinkScreen: (any ScreenModel)? { RecoveryRequestScreen() }
    public var lifetimeText: String { "Recovery links work once, for 24 hours. Request a new one to try again." }
}

/// Limited access after a recovery (seed 003): the account's profile and settings work; every other
/// change waits until a phone is verified again. One check and one sheet, used by every screen that
/// offers a change and by the reducer for the server's 403 `limited_access`.
enum LimitedAccess {
    static func applies(_ context: ScreenContext) -> Bool { context.profile?.access == .limited }

    static func isRefusal(_ error: APIError) -> Bool {
        if case .server(403, ErrorCode.limitedAccess.rawValue, _) = error { return true }
        return false
    }

    static let bannerText = "Limited access: verify your phone number to use everything again"
    static let sheetTitle = "Verify your phone first"
    static let sheetBody =
        "You got back in with your recovery email. To change sign-in methods or delete your account, verify your phone number first."
    static let restoredText = "Your account is fully restored. Other devices were signed out."

    /// Re-verification starts on the number screen: the limited session itself is the proof, so no
    /// "Verify it's you" comes first.
    static var verifyPhone: Command { .continueFlow(AnyFlow(PhoneFlow.reverifyPhone)) }
}

extension Sheet {
    static var limitedAccess: Sheet {
        Sheet(
            title: LimitedAccess.sheetTitle, body: LimitedAccess.sheetBody,
            actions: [(.init("Verify your phone"), [LimitedAccess.verifyPhone]), (.init("Not now"), [])])
    }

    static var limitedAccessGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:limited-access-sheet", "A change in limited access: verify the phone first") { now in
                var state = SampleData.limitedState([HubScreen()], now: now)
                state.overlay = .sheet(.limitedAccess)
                return state
            }
        ]
    }
}

// MARK: - Requests

struct StartRecovery: APIRequest {
    var email: String
    func perform(_ api: APIContext) async throws -> RecoveryStarted { try await api.client.startRecovery(email: email) }
}

/// The checked link with its token: the password screen spends the same token. A link the backend
/// does not know is, for the person, one that no longer works: both lead to "Request a new link".
struct CheckRecoveryLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> CheckedRecoveryLink {
        do {
            return CheckedRecoveryLink(
                link: try await api.client.checkRecoveryLink(token: token), token: Secret(token))
        } catch let error as APIError {
            throw Self.asSeen(error)
        }
    }

    static func asSeen(_ error: APIError) -> APIError {
        guard case .server(404, ErrorCode.linkNotFound.rawValue, let message) = error else { return error }
        return .codeExpired(message: message)
    }
}

struct CheckedRecoveryLink: Equatable, Sendable {
    var link: RecoveryLink
    var token: Secret
}

/// Keeps the new (limited) session in the client before the app lands.
struct CompleteRecovery: APIRequest {
    var token: Secret
    var password: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.completeRecovery(token: token.value, password: password.value)
    }
}

import AccessAPI
import TerminalKit

/// A bottom sheet over the current screen, and what its actions do.
public struct Sheet: Equatable, Sendable {
    public enum Purpose: Equatable, Sendable {
        /// Soft warning: changing the only sign-in method (seed 000), no re-auth.
        case lastMethod(AccountFlow)
        /// The simulated Apple/Google sign-in used to verify it's you.
        case socialReauth(SocialProvider, AccountFlow)
        /// A confirmation with one "Done".
        case done
    }

    public var purpose: Purpose
    public var sheet: BottomSheet

    public static func lastMethod(_ flow: AccountFlow) -> Sheet {
        Sheet(
            purpose: .lastMethod(flow),
            sheet: BottomSheet(
                title: "This is your only sign-in method",
                body:
                    "Changing your phone number without a backup means if something goes wrong — wrong code, lost SIM — you could lose access. We recommend adding another method first.",
                actions: [.init("Change number anyway", isDestructive: true), .init("Cancel")]))
    }

    public static func socialReauth(_ provider: SocialProvider, _ flow: AccountFlow) -> Sheet {
        let name = provider == .apple ? "Apple" : "Google"
        return Sheet(
            purpose: .socialReauth(provider, flow),
            sheet: BottomSheet(
                title: "Continue with \(name)",
                body:
                    "\(name) asks you to sign in again to confirm it's you. (The reference backend plays \(name) here.)",
                actions: [.init("Continue"), .init("Cancel")]))
    }

    public static func phoneUpdated(_ phone: String) -> Sheet {
        Sheet(
            purpose: .done,
            sheet: BottomSheet(title: "Phone updated", body: "Your new number is \(phone).", actions: [.init("Done")]))
    }

    /// What choosing action `index` does.
    func commands(choosing index: Int) -> [Command] {
        switch (purpose, index) {
        case (.lastMethod(let flow), 0): return [.dismissOverlay, .continueFlow(flow)]
        case (.socialReauth(let provider, _), 0):
            return [.dismissOverlay, .request(.reauthBySocial(provider), screen: "reauth-picker", name: "social")]
        default: return [.dismissOverlay]
        }
    }
}

import AccessAPI
import TerminalKit

extension Sheet {
    /// The simulated Apple/Google sign-in used to verify it's you; the picker below
    /// shows it, and the reply is the picker's.
    public static func socialReauth(_ provider: SocialProvider) -> Sheet {
        let name = provider == .apple ? "Apple" : "Google"
        return Sheet(
            title: "Continue with \(name)",
            body: "\(name) asks you to sign in again to confirm it's you. (The reference backend plays \(name) here.)",
            actions: [
                (.init("Continue"), [.call(ReauthBySocial(provider: provider), ReauthPickerScreen.Reply.social)]),
                (.init("Cancel"), []),
            ])
    }
}

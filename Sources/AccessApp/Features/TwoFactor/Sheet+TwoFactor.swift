import AccessAPI
import Foundation
import TerminalKit

extension Sheet {
    /// "Turn off" on the two-factor screen: confirmed here, then "Verify it's you" (inside its window, at once).
    static func turnOffTwoFactor(_ context: ScreenContext) -> Sheet {
        Sheet(
            title: "Turn off two-factor?",
            body: "Signing in will ask only for your sign-in method, and your recovery codes will stop working."
                + " You'll verify it's you first.",
            actions: [
                (.init("Turn off", isDestructive: true), Reauth.verifyThen(TurnOffTwoFactorFlow(), context)),
                (.init("Cancel"), []),
            ])
    }

    /// Regenerate kills every code the person saved: asked first, as turning two-factor off is (issue 48
    /// item 17).
    static func regenerateRecoveryCodes(_ context: ScreenContext) -> Sheet {
        Sheet(
            title: "Make new recovery codes?",
            body: "Your current recovery codes will stop working at once, and you'll see ten new ones, once."
                + " You'll verify it's you first.",
            actions: [
                (
                    .init("Make new codes", isDestructive: true),
                    Reauth.verifyThen(RegenerateRecoveryCodesFlow(), context)
                ),
                (.init("Cancel"), []),
            ])
    }

    /// Esc on the recovery codes: they are never shown again, so leaving asks first.
    static func leaveRecoveryCodes(_ purpose: RecoveryCodesScreen.Purpose) -> Sheet {
        Sheet(
            title: "Did you save your codes?",
            body: "You won't see these recovery codes again. Without them, losing your phone can lock you out.",
            actions: [
                (.init("I saved them"), RecoveryCodesScreen.done(purpose)),
                (.init("Show them again"), []),
            ])
    }

    /// A sign-in with a recovery code that left one or none: said where the sign-in lands.
    static func recoveryCodesRunningOut(_ left: Int) -> Sheet {
        Sheet(
            title: left == 1 ? "1 recovery code left" : "No recovery codes left",
            body: "You signed in with a recovery code. Make new ones in Account access › \(TwoFactor.title)"
                + " before you need them.",
            actions: [(.init("OK"), [])])
    }

    static var twoFactorGallery: [GalleryEntry] {
        [
            GalleryEntry("two-factor:turn-off", "Turn off chosen: confirm, then verify") { now in
                var state = SampleData.state(
                    [TwoFactorScreen.sample(now: now, selection: 1)], methods: TwoFactorScreen.methodsOn, now: now)
                state.overlay = .sheet(.turnOffTwoFactor(state.context))
                return state
            },
            GalleryEntry("two-factor:regenerate", "Regenerate chosen: confirm, then verify") { now in
                var state = SampleData.state(
                    [TwoFactorScreen.sample(now: now, selection: 0)], methods: TwoFactorScreen.methodsOn, now: now)
                state.overlay = .sheet(.regenerateRecoveryCodes(state.context))
                return state
            },
            GalleryEntry("recovery-codes:leave", "Esc on the codes: did you save them?") { now in
                var state = SampleData.state(
                    [RecoveryCodesScreen.sample(.setUp)], methods: TwoFactorScreen.methodsOn, now: now)
                state.overlay = .sheet(.leaveRecoveryCodes(.setUp))
                return state
            },
            GalleryEntry("settings:recovery-code-last", "Signed in with a recovery code: one left") { now in
                var state = AppState(root: SettingsScreen(), now: now)
                state.methods = TwoFactorScreen.methodsOn
                state.overlay = .sheet(.recoveryCodesRunningOut(1))
                return state
            },
            GalleryEntry("reauth-picker:two-factor", "Verify it's you with the authenticator app offered") {
                SampleData.state(
                    [TwoFactorScreen.sample(now: $0), ReauthPickerScreen(flow: .turnOffTwoFactor)],
                    methods: TwoFactorScreen.methodsOn, now: $0)
            },
        ]
    }
}

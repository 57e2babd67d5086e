import AccessAPI
import AccessCore
import Foundation
import TerminalKit

extension RecoveryPasswordScreen {
    static func sample(
        password: String = "", showsPassword: Bool = false, isWorking: Bool = false, error: String? = nil,
        lockedUntil: Date? = nil, lockKind: RateLimitKind? = nil
    ) -> RecoveryPasswordScreen {
        RecoveryPasswordScreen(
            email: SampleData.recoveryEmail, token: "sample", password: password, showsPassword: showsPassword,
            isWorking: isWorking, error: error, lockedUntil: lockedUntil, lockKind: lockKind)
    }

    static func sampleState(_ screen: RecoveryPasswordScreen, now: Date) -> AppState {
        SampleData.recovering([screen], now: now)
    }

    public static var defaultGalleryState: String { "empty" }

    public static var gallery: [GalleryEntry] {
        [
            GalleryEntry("recovery-password:empty", "The link checked: the password for its address") {
                sampleState(sample(), now: $0)
            },
            GalleryEntry("recovery-password:typed", "A password typed, masked") {
                sampleState(sample(password: "violet-harbor-77"), now: $0)
            },
            GalleryEntry("recovery-password:shown", "Ctrl+R shows the password") {
                sampleState(sample(password: "violet-harbor-77", showsPassword: true), now: $0)
            },
            GalleryEntry("recovery-password:working", "Signing in") {
                sampleState(sample(password: "violet-harbor-77", isWorking: true), now: $0)
            },
            GalleryEntry("recovery-password:wrong", "A wrong password: said, cleared, the link still works") {
                sampleState(sample(error: RecoveryPasswordScreen.wrongPasswordText), now: $0)
            },
            GalleryEntry("recovery-password:locked", "The 3rd wrong password: a wait, counted down") { now in
                sampleState(sample(lockedUntil: now + 30, lockKind: .loginLockout), now: now)
            },
            GalleryEntry("recovery-password:checking", "The opened link being checked") {
                SampleData.recovering(
                    [
                        VerifyingLinkScreen(link: AnyLinkPurpose(AccountRecoveryLink()), token: "sample")
                    ], now: $0)
            },
            GalleryEntry("recovery-password:expired", "A used or old recovery link: ask for a new one") {
                SampleData.recovering(
                    [
                        LinkExpiredScreen(link: AnyLinkPurpose(AccountRecoveryLink()))
                    ], now: $0)
            },
        ]
    }
}

import AccessAPI
import AccessCore
import Foundation

/// The worlds of the gallery and the tests, matching the reference backend's scenarios.
public enum SampleData {
    public static let twoMonthsAgo = Date(timeIntervalSince1970: 1_800_000_000 - 61 * 86_400)

    public static let everyMethod = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.athlete), phone: "+995511100000", email: "jdoe@mail.com",
        hasPassword: true,
        appleLinked: true, googleLinked: true, passwordChangedAt: twoMonthsAgo)

    public static let phoneOnly = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.athlete), phone: "+995511100000", email: nil, hasPassword: false,
        appleLinked: false, googleLinked: false, passwordChangedAt: nil)

    public static let noPhone = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.athlete), phone: nil, email: "jdoe@mail.com", hasPassword: true,
        appleLinked: false, googleLinked: true, passwordChangedAt: twoMonthsAgo)

    public static let emailOnly = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.athlete), phone: nil, email: "jdoe@mail.com", hasPassword: true,
        appleLinked: false, googleLinked: false, passwordChangedAt: twoMonthsAgo)

    public static let appleOnly = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.coach), phone: nil, email: nil, hasPassword: false, appleLinked: true,
        googleLinked: false, passwordChangedAt: nil)

    /// Apple and Google and nothing else: disconnecting or deleting verifies with a provider.
    public static let appleAndGoogle = AuthMethods(
        userId: "usr_7G8H9K2L", role: .init(.athlete), phone: nil, email: nil, hasPassword: false, appleLinked: true,
        googleLinked: true, passwordChangedAt: nil)

    /// Newest first, as the panel lists them: a live code, the one its resend replaced, an
    /// expired link and a used code, aged on the backend's clock.
    public static func outbox(at now: Date) -> [OutboxMessage] {
        [
            OutboxMessage(
                id: 4, channel: "sms", to: "+995511200300", kind: "otp", purpose: "change_phone", code: "482915",
                link: nil, token: nil, sentAt: now - 20, status: .live,
                text:
                    "321Fit: 482915 is your 321Fit code to confirm your new number. It expires in \(RuleText.duration(CodeRules.lifetime)). Don't share it with anyone."
            ),
            OutboxMessage(
                id: 3, channel: "sms", to: "+995511200300", kind: "otp", purpose: "change_phone", code: "190344",
                link: nil, token: nil, sentAt: now - 95, status: .superseded,
                text:
                    "321Fit: 190344 is your 321Fit code to confirm your new number. It expires in \(RuleText.duration(CodeRules.lifetime)). Don't share it with anyone."
            ),
            OutboxMessage(
                id: 2, channel: "email", to: "jdoe@mail.com", kind: "reauth_link", purpose: "reauth", code: nil,
                link: "https://321.fit/verify-email?token=sample", token: "sample", sentAt: now - 31 * 60,
                status: .expired,
                text: "Open this link to verify it's you: https://321.fit/verify-email?token=sample\nIt works once, "
                    + "for \(RuleText.duration(LinkLifetimes.reauth)). If you didn't ask for it, ignore this email.",
                subject: "Verify it's you"),
            OutboxMessage(
                id: 1, channel: "sms", to: "+995511100000", kind: "otp", purpose: "reauth", code: "731052",
                link: nil, token: nil, sentAt: now - 35 * 60, status: .used,
                text:
                    "321Fit: 731052 is your 321Fit code to verify it's you. It expires in \(RuleText.duration(CodeRules.lifetime)). Don't share it with anyone."
            ),
        ]
    }

    /// What a recovery sends: the link to the recovery email, the notices to the phone and the address.
    public static func recoveryOutbox(at now: Date) -> [OutboxMessage] {
        [
            OutboxMessage(
                id: 9, channel: "email", to: recoveryEmail, kind: "new_device_notice", purpose: "security",
                code: nil, link: nil, token: nil, sentAt: now - 5, status: .live,
                text: "A new device signed in to your account. If this wasn't you, contact support@321.fit.",
                subject: "New sign-in to 321Fit"),
            OutboxMessage(
                id: 8, channel: "email", to: recoveryEmail, kind: "recovery_completed_notice", purpose: "recovery",
                code: nil, link: nil, token: nil, sentAt: now - 6, status: .live,
                text: "Your account was recovered by email. If this wasn't you, contact support@321.fit.",
                subject: "Your 321Fit account was recovered"),
            OutboxMessage(
                id: 7, channel: "email", to: recoveryEmail, kind: "lockout_notice", purpose: "security", code: nil,
                link: nil, token: nil, sentAt: now - 120, status: .live,
                text: "Too many wrong passwords were tried for your account, so signing in with a password is paused "
                    + "for a while. You can still reset your password. If this wasn't you, contact support@321.fit.",
                subject: "Sign-in to 321Fit is paused"),
            OutboxMessage(
                id: 6, channel: "email", to: recoveryEmail, kind: "recovery_link", purpose: "recovery", code: nil,
                link: "https://321.fit/recover?token=sample", token: "sample", sentAt: now - 180, status: .live,
                text: "Open this link to recover your account: https://321.fit/recover?token=sample\nIt works once, "
                    + "for \(RuleText.duration(LinkLifetimes.recovery)). If you didn't ask for it, ignore this email.",
                subject: "Recover your 321Fit account"),
            OutboxMessage(
                id: 5, channel: "sms", to: "+995511300000", kind: "recovery_started_notice", purpose: "recovery",
                code: nil, link: nil, token: nil, sentAt: now - 181, status: .live,
                text:
                    "321Fit: someone asked to recover your account by email. If this wasn't you, contact support@321.fit."
            ),
        ]
    }

    /// A state with screens pushed over Settings and the hub, with `methods` loaded.
    public static func state(
        _ screens: [any ScreenModel], methods: AuthMethods? = everyMethod, now: Date,
        options: AppOptions = .init()
    ) -> AppState {
        var state = AppState(now: now, options: options)
        state.stack.append(AnyScreen(HubScreen()))
        state.stack += screens.map { AnyScreen($0) }
        state.methods = methods
        state.methodsFetchedAt = methods == nil ? nil : now
        return state
    }
}

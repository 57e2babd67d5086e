import AccessAPI
import AccessCore
import Foundation

/// What each message of the outbox said, as the customer got it (issue 49 item 4): the SMS's text with its code,
/// the email's subject and body with its link and how long the link works. Seed 001's words where it has them
/// (the email-changed notice, the deletion's goodbye), else in its voice; every number from the rule's constant,
/// through `RuleText`, so the text cannot drift from what the backend enforces. Composed when the outbox is read,
/// from what the message holds: its code and link stay sealed in the database (`OutboxService.Secrets`).
enum OutboxWording {
    /// A message as received: an email has a subject, an SMS none.
    struct Said: Equatable {
        var subject: String?
        var text: String
    }

    static let brand = ProductBrand.name
    static let support = ProductBrand.supportEmail

    /// nil for a kind this build does not know, or `send_refused` (which keeps its 429's message).
    static func said(
        kind: OutboxKind, channel: OutboxChannel, purpose: String, code: String?, link: String?
    ) -> Said? {
        let link = link ?? ""
        let unexpected = "If this wasn't you, contact \(support)."
        switch kind {
        case .otp:
            let what = codeWords(purpose)
            let body =
                "\(code ?? "") is your \(brand) \(what). It expires in \(RuleText.duration(CodeRules.lifetime)). "
                + "Don't share it with anyone."
            return channel == .sms
                ? Said(subject: nil, text: "\(brand): \(body)")
                : Said(subject: "Your \(brand) \(what)", text: body)
        case .reauthLink:
            return email(
                "Verify it's you",
                "Open this link to verify it's you: \(link)\n\(works(.reauth)) If you didn't ask for it, ignore this email."
            )
        case .emailVerifyLink:
            let kind = EmailLink(rawValue: purpose) ?? .register
            return email(
                "Confirm your email address",
                "Tap the link to confirm this address for your \(brand) account: \(link)\n\(works(kind)) "
                    + "Wrong address? Ignore this email and nothing changes.")
        case .emailChangedNotice:
            // Seed 001's words, with the revert link and how long it works.
            return email(
                "Your \(brand) email was changed",
                "Your email was changed. If this wasn't you, click here to revert: \(link)\n\(works(.emailRevert))")
        case .passwordChangedNotice:
            return email(
                "Your \(brand) password was changed",
                "Your password was changed, and you were signed out on your other devices. \(unexpected)")
        case .providerConnectedNotice:
            return email(
                "\(provider(purpose)) was connected to your \(brand) account",
                "You can now sign in to \(brand) with \(provider(purpose)). \(unexpected)")
        case .providerDisconnectedNotice:
            return email(
                "\(provider(purpose)) was disconnected from your \(brand) account",
                "You can no longer sign in to \(brand) with \(provider(purpose)). \(unexpected)")
        case .accountDeletedNotice:
            // Seed 001's goodbye, its 30 days the purge delay.
            return email(
                "Your \(brand) account was deleted",
                "Thanks for trying \(brand). You've been signed out on all devices. Your data will be removed within "
                    + "\(RuleText.duration(DeletionRules.purgeDelay)) per our Privacy Policy.")
        case .recoveryLink:
            return email(
                "Recover your \(brand) account",
                "Open this link to recover your account: \(link)\n\(works(.recovery)) "
                    + "If you didn't ask for it, ignore this email.")
        case .recoveryStartedNotice:
            return Said(
                subject: nil,
                text: "\(brand): someone asked to recover your account by email. \(unexpected)")
        case .recoveryCompletedNotice:
            return email("Your \(brand) account was recovered", "Your account was recovered by email. \(unexpected)")
        case .lockoutNotice:
            return email(
                "Sign-in to \(brand) is paused",
                "Too many wrong passwords were tried for your account, so signing in with a password is paused for a "
                    + "while. You can still reset your password. \(unexpected)")
        case .newDeviceNotice:
            return email("New sign-in to \(brand)", "A new device signed in to your account. \(unexpected)")
        case .passwordResetLink:
            return email(
                "Reset your \(brand) password",
                "Open this link to choose a new password: \(link)\n\(works(.passwordReset)) "
                    + "If you didn't ask for it, ignore this email.")
        case .sessionSignedOutNotice:
            return email(
                "A device was signed out of \(brand)",
                "A device was signed out of your account from Active sessions. \(unexpected)")
        case .twoFactorEnabledNotice:
            return email(
                "Two-factor authentication is on",
                "Signing in to \(brand) now also asks for a code from your authenticator app. \(unexpected)")
        case .twoFactorDisabledNotice:
            return email(
                "Two-factor authentication is off",
                "Signing in to \(brand) no longer asks for a code from your authenticator app. \(unexpected)")
        case .recoveryCodeUsedNotice:
            let left = remaining(purpose).map { " You have \($0) left." } ?? ""
            return email(
                "A recovery code was used", "A recovery code was used to sign in to your account.\(left) \(unexpected)")
        case .passkeyAddedNotice:
            return email(
                "A passkey was added to your \(brand) account",
                "You can now sign in to \(brand) with a passkey on that device. \(unexpected)")
        case .passkeyRemovedNotice:
            return email(
                "A passkey was removed from your \(brand) account",
                "That passkey can no longer sign in to \(brand). \(unexpected)")
        case .passkeyClonedNotice:
            return email(
                "A passkey on your \(brand) account was turned off",
                "A passkey answered as if it had been copied to another device, so it can no longer sign in. "
                    + "Remove it and add a new one. \(unexpected)")
        case .sendRefused:
            return nil
        }
    }

    /// What a code is for, as its message names it.
    static func codeWords(_ purpose: String) -> String {
        switch purpose {
        case "change_phone": "code to confirm your new number"
        case "add_phone": "code to add this number"
        case "reauth": "code to verify it's you"
        case "reverify_phone": "code to confirm your phone number"
        default: "sign-in code"
        }
    }

    /// "It works once, for 30 minutes.": the link's lifetime from its kind's rules.
    static func works(_ kind: EmailLink) -> String {
        let lifetime = RuleText.duration(kind.rules.lifetime)
        return kind.rules.oneShot ? "It works once, for \(lifetime)." : "It works for \(lifetime)."
    }

    /// `recovery_code_used_notice`'s purpose `remaining:N`: N.
    static func remaining(_ purpose: String) -> Int? {
        guard purpose.hasPrefix("remaining:") else { return nil }
        return Int(purpose.dropFirst("remaining:".count))
    }

    /// `apple_connect`, `google_disconnect`: the provider's name.
    private static func provider(_ purpose: String) -> String {
        purpose.hasPrefix("google") ? "Google" : "Apple"
    }

    private static func email(_ subject: String, _ text: String) -> Said { Said(subject: subject, text: text) }
}

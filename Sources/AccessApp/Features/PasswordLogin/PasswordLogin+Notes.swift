import AccessCore

extension PasswordLoginScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Seed 002's Log in and Register on one screen (Ctrl+T switches), with the password masked (Ctrl+R shows it). The address is checked here before any call; registering, the password must pass seed 000's rules, which win over 002's bare 8 characters.",
            "A failed login says \"\(OnScreenMessage.invalidCredentials.text)\", never which one was wrong, empties the password and keeps the email. No network is never \"invalid\": it says \"\(OnScreenMessage.offline.text)\". The \(RuleText.ordinal(LoginLockRules.failuresBeforeLock + 1)) failure in a row for an address waits \(RuleText.duration(LoginLockRules.firstLock, .short)) and each next one twice as long, up to \(RuleText.duration(LoginLockRules.longestLock)) (003's progressive timeout), counted down with the button off.",
            "Ctrl+F \"Forgot password?\" (Log in only) asks for a reset link for the address typed here (issue 28 item 25).",
            "On purpose unlike seed 002: registering does not sign in. The account exists but cannot log in until the emailed link is opened (002's own \"email not verified: block access\"). The contract's statuses differ from 002's too: 401 for wrong credentials rather than 400, 409 for a taken email rather than 422.",
        ],
        calls: [
            .post(
                "/auth/login", when: "Log in",
                [
                    200: "Signed in: onboarding's step, or Settings.",
                    401:
                        "\"\(OnScreenMessage.invalidCredentials.text)\"; the password is emptied. With retry_after (or Retry-After) this try started the lockout: counted down at once, as for 429.",
                    403: "email_unverified: \"Please verify your email\", with Resend.",
                    422: "The server's message.",
                    429: "The lockout counted down; the button off until it passes.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"; what was typed stays."),
            .post(
                "/auth/register", when: "Register",
                [
                    201: "\"Check your email to verify your account\".",
                    409:
                        "\"An account with this email already exists\" (or the server's message for a deleted account's address).",
                    422: "The broken password rule's sentence, else the server's message.",
                    429: "The wait counted down; the button off until it passes.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"; what was typed stays."),
        ],
        seeds: [.loginFlow, .registrationFlow, .validationRules, .edgeCases, .verificationLimitations])
}

extension VerifyAccountScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Seed 002's email verification screen, after registering (\"Check your email to verify your account\") or after a login refused because the link was not opened yet (\"Please verify your email\").",
            "The link is opened from the outbox, pasted here, or handed over with `accessdeck open-link`; it verifies the address and the person logs in. Resend never says whether the address has an account waiting. Enter goes back to Log in.",
        ],
        calls: [
            .post(
                "/auth/register/resend", when: "r",
                [
                    202: "\"Verification email sent\" (whether or not anything was sent).",
                    422: "The server's message.",
                    429: "Resend counts down the server's wait.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\".")
        ],
        seeds: [.registrationFlow, .emailVerificationHandling, .resendVerificationEmail])
}

extension ForgotPassword {
    public static let specNotes = SpecNotes(
        why: [
            "\"Forgot password?\" (Ctrl+F on Log in and on recovery's password screen; issue 28 item 25, after seed 003's \"password reset link sent to recovery email\" and seed 002's reset endpoint). The address from the screen below is filled in; it is checked here before any call.",
            "The answer never says whether the address has an account, and neither does the next screen. The shared send limits apply to every address alike: \(RuleText.duration(SendLimits.cooldown, .short)) between requests (\"Resend in\"), \(SendLimits.maxCodesPerDay) a day, the hourly caps, each counted down with the button off.",
        ],
        calls: [
            .post(
                "/auth/password/reset", when: "Enter on Send link",
                [
                    202: "\"Check your email\", whether or not anything was sent.",
                    422: "\"\(OnScreenMessage.invalidEmail.text)\".",
                    429: "The wait counted down in the limit's words; the button off until it passes.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"; what was typed stays.")
        ],
        seeds: [.recoveryEmail, .loginFlow, .validationRules])
}

extension ResetSent {
    public static let specNotes = SpecNotes(
        why: [
            "The same words for every address: \"If an account uses …, we've sent it a link\". The link works once, for \(RuleText.duration(LinkLifetimes.passwordReset)) (seed 000's lifetime for a link that changes a credential), and a newer one replaces it.",
            "The link is opened from the outbox (Ctrl+O), pasted here, or handed over with `accessdeck open-link`, like every link. Resend waits for the server's resend_after; e goes back to the address.",
        ],
        calls: [
            .post(
                "/auth/password/reset", when: "Enter or r on Resend link",
                [
                    202: "\"We sent a new link. Earlier links no longer work.\"",
                    429: "Resend counts down the server's wait.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\".")
        ],
        seeds: [.recoveryEmail, .checkYourEmail])
}

extension ResetPasswordScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Seed 001's \"Set a new password\" reached from a reset link instead of Verify it's you: the new password typed twice (Ctrl+R shows both), the checklist of seed 001's three visible rules; \"not similar to your email\" is the server's alone, judged against the link's address. A weak password is the server's 422 with the broken rule under the field; the link stays usable.",
            "On purpose unlike Change password: success signs out every session, this device has none from the link, and the app goes to Log in with the address filled in. The link proves the mailbox, not the person, so the only way in with a password stays POST /auth/login, with its lockout, device registration and new-device notice; the address gets a notice that the password changed.",
        ],
        calls: [
            .post(
                "/auth/password/reset/check", when: "the link is opened (\"Verifying your link…\")",
                [
                    200: "\"Set a new password\" for the link's address.",
                    404: "\"This link has expired\": a link the backend does not know no longer works.",
                    410: "\"This link has expired\", or \"A newer link was sent\" (link_superseded).",
                ]),
            .post(
                "/auth/password/reset/complete", when: "Update password",
                [
                    200: "Log in, the address filled in: \"Password changed and every session signed out.\"",
                    404: "\"This link has expired\".",
                    410: "\"This link has expired\", or \"A newer link was sent\" (link_superseded).",
                    422: "The broken rule's sentence under the new password; what was typed stays.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"; what was typed stays."),
        ],
        seeds: [.setNewPassword, .recoveryEmail, .linkExpired])
}

import AccessCore

extension RecoveryRequest {
    public static let specNotes = SpecNotes(
        why: [
            "\"Can't access your account?\" on the sign-in screen, for someone who lost the account's phone: the recovery email is asked for, checked here first, and a one-shot link that works for \(RuleText.duration(LinkLifetimes.recovery)) goes to it.",
            "On purpose unlike seed 003, which checks that the address exists and says \"This email isn't associated with an account\": the answer and the next screen are the same whether or not an account uses the address, so nobody can find out who has an account.",
            "The backend allows one recovery email per \(RuleText.duration(SendLimits.cooldown, .short)) and \(RecoveryLimits.maxRequestsPerDay) a day per address, known or not, and logs each request's IP and device. A 429 counts down for that address, in 003's words: \"For security reasons, please wait before requesting another recovery\".",
        ],
        calls: [
            .post(
                "/auth/recovery/start", when: "Send link",
                [
                    202: "Check your email, the same whatever the address.",
                    422: "\"\(OnScreenMessage.invalidEmail.text)\"",
                    429: "A countdown banner for this address; no wait given: 003's \"please wait\" sentence.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"")
        ],
        seeds: [.recoveryInitiation, .recoveryEmail, .emailRecoveryErrors, .verificationLimitations])
}

extension RecoverySent {
    public static let specNotes = SpecNotes(
        why: [
            "The recovery link is on its way, or not: this screen says the same either way, as the backend does. The link is opened from the outbox, pasted, or handed over with `accessdeck open-link`.",
            "Resend waits for the server's own time; a new link makes the earlier ones stop working. e goes back to edit the address. When the email is lost too, s opens Contact support: support-assisted recovery is the only way left.",
        ],
        calls: [
            .post(
                "/auth/recovery/start", when: "Resend, once its countdown is over",
                [
                    202: "\"We sent a new link. Earlier links no longer work.\"",
                    422: "The server's message.",
                    429: "\"For security reasons, please wait before requesting another recovery\", counted down.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"")
        ],
        seeds: [.recoveryEmail, .supportAssistedRecovery])
}

extension RecoveryPasswordScreen {
    public static let specNotes = SpecNotes(
        why: [
            "A checked recovery link: the recovery email's password (masked, Ctrl+R shows it) finishes the recovery. The address is known here, so the error can say the password is wrong rather than \"email or password\", and a wrong one leaves the link usable.",
            "Wrong passwords count with Log in's for the same address: the \(RuleText.ordinal(LoginLockRules.failuresBeforeLock + 1)) in a row waits \(RuleText.duration(LoginLockRules.firstLock, .short)), each next one twice as long, up to \(RuleText.duration(LoginLockRules.longestLock)), counted down; the address is mailed a notice when a lock starts.",
            "Success signs in with limited access: the profile and settings work, every other change waits until a phone is verified again. Then everything comes back, every other device is signed out and the recovery email gets a notice.",
            "Forgot that password too? Ctrl+F asks for a password reset link to the same address (issue 28 item 25); a new password leads to Log in, where email and password sign in as on any device.",
        ],
        calls: [
            .post(
                "/auth/recovery/complete", when: "Continue",
                [
                    200: "Signed in with limited access: Settings, \"Verify your phone\" first.",
                    401: "\"That password isn't right. Try again.\"; the field is emptied.",
                    404: "This link has expired.",
                    410:
                        "This link has expired (used, replaced by a newer one, or past \(RuleText.duration(LinkLifetimes.recovery))).",
                    422: "The server's message.",
                    429: "The lock counted down; Continue off until it passes.",
                ],
                noAnswer: "The offline message; the link stays usable.")
        ],
        seeds: [.recoveryEmail, .limitedAccountAccess, .verificationLimitations])
}

import AccessCore

extension CheckEmail {
    public static let specNotes = SpecNotes(
        why: [
            "A link went out and this screen waits for it to be opened; it never moves on by itself. It serves \"Verify it's you\" by email and the email change or add, whose link goes to the new address.",
            "Here the link is opened from the outbox (Ctrl+O), pasted into the terminal, or handed over with `accessdeck open-link`: the terminal's way of tapping it. m opens the mail app (mailto:) as a fallback.",
            "Resend comes after a \(RuleText.duration(SendLimits.cooldown, .short)) countdown; a 429 adds a banner counting down the server's wait. \"Didn't get it?\" (h) lists what to check: spam, the address, resending. \"Edit email\" appears only where the person typed the address; a re-auth link goes to the email already on the account.",
        ],
        calls: [
            .post(
                "/auth/reauth/email", when: "Resend, waiting for a \"Verify it's you\" link",
                [
                    202: "A new link: the countdown starts again.",
                    401: APICall.sessionRefused,
                    429: "The server's message, and its wait as a countdown banner.",
                ],
                noAnswer: "The offline message; Resend stays on."),
            .post(
                "/auth/email/resend", when: "Resend, waiting for an email change or add link",
                [
                    202: "A new link to the new address (the old one dies); the countdown starts again.",
                    401: APICall.sessionRefused,
                    404: "The server's message (no change is pending any more).",
                    429: "The server's message, and its wait as a countdown banner.",
                ],
                noAnswer: "The offline message; Resend stays on."),
        ],
        seeds: [.checkYourEmail, .enterNewEmail, .reauthPicker])
}

extension CheckingLinkScreen {
    public static let specNotes = SpecNotes(
        why: [
            "A link pasted or handed over (`accessdeck open-link`) with no screen waiting for it, in any URL shape or as a bare token: the contract says nothing of link URLs, so the app asks the backend what the token is and goes where its kind says.",
            "A live link opens as \"Verifying your link…\"; a used, superseded or expired one shows \"This link has expired\". The revert link signs every session out, so a sheet asks first, on Cancel.",
        ],
        calls: [
            .post(
                "/auth/links/inspect", when: "the screen appears (never spends the link)",
                [
                    200:
                        "Live: opened (the revert link after a yes). Used, superseded or expired: This link has expired.",
                    404: "The server's message (This link is not valid.); Esc goes back.",
                ],
                noAnswer: "The offline message; Enter tries again.")
        ],
        seeds: [.loadingLink, .linkExpired, .emailVerificationHandling])
}

extension VerifyingLinkScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Verifying your link…\": the moment after an emailed link is opened, while the backend checks its one-shot token. A centred spinner, not skeleton rows, and on screen for at least a second so a fast answer does not flash past.",
            "The link's kind decides the call and what follows: a re-auth link goes on with the change, an email change shows the new address, a revert link puts the old one back and lands on sign-in saying why (every session ended), a registration link leads to Log in, a recovery link to its password. A used or expired link replaces this screen with \"This link has expired\".",
            "A link opened with nothing on screen waiting for it still finds its way by its kind.",
        ],
        calls: [
            .post(
                "/auth/reauth/email/confirm", when: "a \"Verify it's you\" link",
                [
                    200:
                        "Verified: the \(RuleText.duration(ReauthRules.window, .compound)) window opens and the change goes on.",
                    404: "The server's message; Esc goes back.",
                    410: "This link has expired.",
                ],
                noAnswer: "The offline message; Enter tries again."),
            .post(
                "/auth/email/verify", when: "an email change or add link",
                [
                    200: "The new address is on the account: back to Email & password (or the hub) with a toast.",
                    404: "The server's message; Esc goes back.",
                    409: "The server's message (another account took the address meanwhile).",
                    410: "This link has expired.",
                ],
                noAnswer: "The offline message; Enter tries again."),
            .post(
                "/auth/email/revert", when: "the revert link in the old address's notice",
                [
                    200: "The old email is back and every session was signed out: a toast says so.",
                    404: "The server's message; Esc goes back.",
                    409: "The server's message (another account holds the old address by now).",
                    410: "This link has expired.",
                ],
                noAnswer: "The offline message; Enter tries again."),
            .post(
                "/auth/register/confirm", when: "a registration or recovery-email link",
                [
                    200:
                        "Verified. Signed out: Log in with the address filled in. Signed in: a toast, or onboarding's next step.",
                    404: "The server's message; Esc goes back.",
                    410: "This link has expired.",
                ],
                noAnswer: "The offline message; Enter tries again."),
            .post(
                "/auth/recovery/check", when: "a recovery link",
                [
                    200: "Enter your password, for the address the link belongs to; the link is not spent yet.",
                    404: "This link has expired: an unknown link is, for the person, one that no longer works.",
                    410: "This link has expired.",
                ],
                noAnswer: "The offline message; Enter tries again."),
        ],
        seeds: [.loadingLink, .linkExpired, .recoveryEmail, .emailVerificationHandling])
}

extension LinkExpiredScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"This link has expired\": the link is past its lifetime, which the screen says for its kind (\(RuleText.duration(LinkLifetimes.reauth)) for re-auth, \(RuleText.duration(LinkLifetimes.emailChange)) for an email change, \(RuleText.duration(LinkLifetimes.passwordReset)) for a reset, \(RuleText.duration(LinkLifetimes.registration)) for a registration, \(RuleText.duration(LinkLifetimes.recovery)) for a recovery, \(RuleText.duration(LinkLifetimes.emailRevert)) for the link that undoes an email change), or was used already, since every link works once. A full screen, not a toast, because the flow cannot go on and a toast would be missed.",
            "\"Request a new link\" sends one where the app knows the address (re-auth, email change) and replaces the old \"Check your email\"; a recovery link goes back to the recovery request, which asks for the address. Links nobody can ask for again (the revert link, registration links) leave only Contact support.",
            "An email change's resend works for a day after its link ran out. Once the backend holds no change any more (past that day, opened, or reverted: its 404), \"Start the change again\" takes its place: \"Verify it's you\" unless its window is open, then the new-address screen, with the address filled in when the link was opened from its message.",
        ],
        calls: [
            .post(
                "/auth/reauth/email", when: "Request a new link, for a \"Verify it's you\" link",
                [
                    202: "Check your email, once, with a fresh countdown.",
                    401: APICall.sessionRefused,
                    429: "The server's message.",
                ],
                noAnswer: "The offline message."),
            .post(
                "/auth/email/resend", when: "Request a new link, for an email change or add",
                [
                    202: "Check your email, once, with a fresh countdown.",
                    401: APICall.sessionRefused,
                    404: "The server's message, and \"Start the change again\" instead of \"Request a new link\".",
                    429: "The server's message.",
                ],
                noAnswer: "The offline message."),
        ],
        seeds: [.linkExpired, .contactSupport, .recoveryEmail])
}

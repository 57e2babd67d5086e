import AccessCore

extension TwoFactorScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Two-factor authentication as GitHub, Clerk or Supabase have it: once on, every sign-in asks for a code from an authenticator app after the sign-in method, or for one of ten one-time recovery codes. The hub's row says On or Off; Off opens the set-up (after \"Verify it's you\"), On opens this screen.",
            "Both changes here are sensitive and go through \"Verify it's you\", where the authenticator app is one of the ways: Regenerate recovery codes shows ten new ones once (the old ones stop working at once), and Turn off asks on a sheet first. A recovery code count of two or fewer is said in bold, so nobody runs out unawares.",
        ],
        calls: [
            .get(
                "/me/two-factor", when: "when the screen opens, r, and after new codes were seen",
                [200: "On since when, and the recovery codes left.", 401: APICall.sessionRefused],
                noAnswer: "The offline banner; changes stay off."),
            .post(
                "/me/two-factor/recovery-codes", when: "after Verify it's you, for Regenerate",
                [
                    200: "The new codes, shown once on the recovery codes screen.",
                    403: "The re-auth window closed: the message asks to verify again.",
                ]),
            .delete(
                "/me/two-factor", when: "after the sheet and Verify it's you, for Turn off",
                [
                    204: "Back on the hub, the row says Off, a toast says so.",
                    403: "The re-auth window closed: the message asks to verify again.",
                    409: "It was off already (another device): the screen loads again.",
                ]),
        ],
        seeds: [.accountAccessHub, .reauthPicker])
}

extension TwoFactorSetupScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Set up after \"Verify it's you\": the backend makes a secret (RFC 6238: SHA-1, \(TOTP.digits) digits, \(RuleText.duration(TOTP.period, .short))) that stays pending for \(RuleText.duration(TwoFactorLimits.pendingSetupLifetime)), counted down here from the clock. The first step shows the otpauth URI as a QR code drawn in half blocks with its quiet zone, dark on light whatever the theme, so a phone scans it from the terminal.",
            "A typical QR code is 25 to 29 rows high: at 80×24 it cannot share the screen with anything, so it stands alone with one line under it; \"k\" shows the secret in groups of four instead (\"Can't scan?\") and \"c\" copies it. A terminal too short for the code gets the key at once and is told how tall it must be; a wide one shows the code and the key side by side.",
            "Enter goes to the six boxes for the app's first code; a wrong one stays in view with the attempts left, and \(RuleText.count(TwoFactorLimits.maxWrongCodes)) wrong ones end the pending set-up (r starts again). The right one turns two-factor on and shows the recovery codes once. The QR code and the key are hidden in recordings and play prints.",
        ],
        calls: [
            .post(
                "/me/two-factor/setup", when: "when the screen opens, and r",
                [
                    201: "The QR code, the key and the expiry.",
                    403: "The re-auth window closed on the way: Verify it's you again.",
                    409: "Two-factor is on already: said, and the hub's row says On.",
                ],
                noAnswer: "The offline message."),
            .post(
                "/me/two-factor/confirm", when: "the sixth digit, or Enter",
                [
                    200: "On: the recovery codes replace this screen.",
                    401: "\"\(OnScreenMessage.codeIncorrect.text)\" with the attempts left; the fifth ends the set-up.",
                    404: "The pending set-up is gone: r starts again.",
                ]),
        ],
        seeds: [.accountAccessHub])
}

extension RecoveryCodesScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Ten one-time recovery codes, shown once: when two-factor is turned on, and when new ones are made. Each signs in once in place of the app's code. Copy puts all ten on the clipboard (OSC 52); \"I saved them\" leaves.",
            "The backend keeps only their hashes, so leaving this screen loses them for good: Esc asks first on a sheet. They are hidden in recordings and play prints.",
        ],
        seeds: [.accountAccessHub])
}

extension AuthenticatorCodeScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The second step of a sign-in for an account with two-factor: after any first factor (a code, a password, Apple, Google, a recovery link) the session can do nothing but this, use a recovery code, or log out. A person who lost the app and the recovery codes has s, Contact support (seed 000: \"for edge cases where no self-serve path works (e.g., lost all factors)\"); during the wrong-codes lock recovery codes are refused too, so u is not offered and only the wait is said. The right code gives new tokens and the sign-in goes on where it would have gone (onboarding, Settings, limited access after a recovery by email).",
            "The code changes every \(RuleText.duration(TOTP.period)); one step of clock drift either way is accepted, and a code accepted once is refused if sent again. \(RuleText.count(TwoFactorLimits.maxWrongCodes).sentenceCased) wrong codes lock the step for the account (signing in again does not reset it): the wait is counted down in a banner from the clock.",
            "The same boxes are \"Authenticator app\" in \"Verify it's you\", where the right code opens the \(RuleText.duration(ReauthRules.window, .compound)) window.",
        ],
        calls: [
            .post(
                "/auth/two-factor/verify", when: "the sixth digit, or Enter (sign-in)",
                [
                    200: "Signed in: where the sign-in goes.",
                    401: "\"\(OnScreenMessage.codeIncorrect.text)\" with the attempts left.",
                    429: "The lock: a countdown banner, the boxes off until it passes.",
                ],
                noAnswer: "The offline message under the boxes."),
            .post(
                "/auth/reauth/authenticator", when: "the sixth digit, or Enter (Verify it's you)",
                [
                    200: "Verified: the window opens and the flow goes on.",
                    401: "\"\(OnScreenMessage.codeIncorrect.text)\" with the attempts left.",
                    429: "The lock: a countdown banner, the boxes off until it passes.",
                ],
                noAnswer: "The offline message under the boxes."),
        ],
        seeds: [.loginFlow, .reauthPicker])
}

extension RecoveryCodeSignInScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Use a recovery code\": one of the \(RuleText.count(TwoFactorLimits.recoveryCodeCount)) codes saved at set-up, typed as shown (case, spaces and the dash do not matter). A code works once; wrong codes count toward the same lock as the app's codes.",
            "When the sign-in leaves one code or none, a sheet says so over where the sign-in lands, so new ones are made before they run out. The field is masked in recordings and never written to a tape.",
        ],
        calls: [
            .post(
                "/auth/two-factor/recovery", when: "Enter",
                [
                    200: "Signed in; the codes left are read next (GET /me/two-factor) to warn when they run out.",
                    401: "The code is wrong or spent, with the attempts left.",
                    429: "The lock: a countdown banner, the field off until it passes.",
                ],
                noAnswer: "The offline message under the field."),
            .get(
                "/me/two-factor", when: "right after a recovery code signed in",
                [200: "How many codes are left.", 401: APICall.sessionRefused]),
        ],
        seeds: [.loginFlow])
}

import AccessCore

extension SignInScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Continue with…\": one screen for signing in and signing up. The person picks a way in and the backend decides whether the account is new, so nobody has to know which they need.",
            "Phone and email send a 6-digit code, and a session exists only once the code is right. Apple and Google need no code; they go through the reference backend's stand-in for the provider's sheet, and elsewhere take a pasted ID token from the QA team's own tooling (\"Paste an ID token\"). Apple is not offered on Android, as on the hub.",
            "Email & password is seed 002's older way in, kept apart. \"Can't access your account?\" starts the recovery by email; Contact support, under it, is the way left when no self-serve path works (seed 000), such as an account that signs in only with Apple, on Android. After a refused session or a log out, a line on top says why the person is here.",
            "Every sign-in registers this device (a key made on first run) with the backend.",
            "Continue with passkey (issue 53; our wording): the discoverable sign-in's options, then the \"Use your passkey\" sheet with the accounts this device holds a passkey for (a choice when several). Enter signs with user verification and lands where every sign-in lands; Esc is the user's cancel, said inline, with nothing sent. With no passkey on this device for the relying party (a passkey on another phone), the sheet says so and only Esc closes it. Each refusal (passkey.challenge_expired, passkey.not_found, passkey.cloned, passkey.refused) is worded inline above the rows.",
        ],
        calls: [
            .post(
                "/auth/passkey/options", when: "Continue with passkey",
                [200: "The \"Use your passkey\" sheet, or \"No passkey on this device\"."],
                noAnswer: "The offline message above the rows."),
            .post(
                "/auth/passkey/verify", when: "Enter on the Use your passkey sheet",
                [
                    200: "Signed in: where every sign-in lands (the second factor first when it is on).",
                    403:
                        "passkey.cloned: \"This passkey was turned off because a copy of it was used. Sign in another way.\"",
                    404: "passkey.not_found: \"This passkey was removed from your account. Sign in another way.\"",
                    410: "passkey.challenge_expired: \"Your passkey request expired. Try again.\"",
                    422:
                        "passkey.refused: \"Your passkey couldn't be checked. Try again.\", or the origin's own words.",
                ]),
        ],
        seeds: [.otpGate, .socialWithoutOTP, .deviceInfo, .recoveryInitiation, .firstLaunch])
}

extension SignInEmailScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Continue with email: the address is checked here first (\"\(OnScreenMessage.invalidEmail.text)\"), then a 6-digit code goes to it, entered on the same code screen as a phone's. An unknown address creates the account once its code is right.",
            "A 429 counts down in a banner for that address only; Send code stays off for it until then.",
            "\"Display name (optional)\" (seed 004's displayName) sits under the address: Tab reaches it, Enter sends from either field. It is checked as it is typed with the backend's own rule (1 to \(DisplayNameRules.maximumLength) characters once trimmed; blank means none) and goes with the code. A server that refuses it (422 naming display_name) brings the person back here with its words under the field; the corrected name goes with the same code, without sending another.",
        ],
        calls: [
            .post(
                "/auth/sign-in/code", when: "Send code",
                [
                    202: "Enter the code, emailed (no session yet).",
                    409:
                        "The server's message (the address of an account deleted less than \(RuleText.duration(DeletionRules.holdDuration)) ago).",
                    422: "\"\(OnScreenMessage.invalidEmail.text)\"",
                    429: "A countdown banner for this address; no wait given: the server's message.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\" under the field.")
        ],
        seeds: [.continueWithEmail, .otpGate, .validationRules])
}

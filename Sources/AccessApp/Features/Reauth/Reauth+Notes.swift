import AccessCore

extension ReauthPickerScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Verify it's you\" comes before every sensitive change (the phone, the email, the password, disconnecting Apple or Google, deleting the account), so a stolen session alone cannot take the account over. It offers every method the user has except the one being changed: you do not confirm a phone change with that phone.",
            "A success opens a \(RuleText.duration(ReauthRules.window, .compound)) window: a second change inside it skips this screen. When the window closes in the middle of a flow, the server's 403 brings the person back here.",
            "Apple and Google are played by the reference backend's stand-in for the provider's sheet; against another backend, where a terminal cannot run the provider's own sign-in, those rows say \"Paste an ID token\" and take the provider's ID token from the QA team's own tooling. \"Can't access any of these?\" opens Contact support.",
        ],
        calls: [
            .post(
                "/auth/reauth/email", when: "Email a link",
                [
                    202: "Check your email, waiting for the link.",
                    401: APICall.sessionRefused,
                    403: APICall.limitedAccessRefused,
                    422: "The server's message (no email on the account).",
                    429:
                        "The wait (retry_after or Retry-After) counted down in a banner, Email a link off until it passes (\(RuleText.duration(SendLimits.cooldown, .short)) between emails, \(SendLimits.maxResendsPerWindow) resends per \(RuleText.duration(SendLimits.resendWindow, .short)), \(SendLimits.maxCodesPerDay) a day); without a wait, the server's message.",
                ],
                noAnswer: "The offline message under the list."),
            .post(
                "/auth/phone/request-otp", when: "Text me a code (to the number on the account)",
                [
                    202: "Enter the code; the right code opens the window.",
                    401: APICall.sessionRefused,
                    422: "The server's message.",
                    429:
                        "The wait (retry_after or Retry-After) counted down in a banner, Text me a code off until it passes (\(RuleText.duration(SendLimits.cooldown, .short)) between sends, \(SendLimits.maxResendsPerWindow) resends per \(RuleText.duration(SendLimits.resendWindow, .short)), \(SendLimits.maxCodesPerDay) codes a day); without a wait, the server's message.",
                ],
                noAnswer: "The offline message under the list."),
            .post(
                "/_admin/provider/{provider}/token", when: "Continue on the Apple or Google sheet (reference backend)",
                [200: "The stand-in's id token goes straight on to /auth/reauth/social."]),
            .post(
                "/auth/reauth/social", when: "right after the stand-in's token",
                [
                    200: "Verified: the window opens and the flow goes on.",
                    401: "The server's message (the id token was refused).",
                    422: "The server's message (that provider is not linked).",
                ],
                noAnswer: "The offline message under the list."),
            .post(
                "/auth/reauth/passkey/options", when: "Passkey (offered when the account has one)",
                [
                    200:
                        "The \"Use your passkey\" sheet; Esc is the user's cancel (\"\(PasskeyWording.cancelledText)\" under the list), and with no passkey on this device the sheet says so.",
                    401: APICall.sessionRefused,
                ],
                noAnswer: "The offline message under the list."),
            .post(
                "/auth/reauth/passkey", when: "Enter on the Use your passkey sheet",
                [
                    200: "Verified: the window opens and the flow goes on.",
                    403:
                        "passkey.cloned: \"This passkey was turned off because a copy of it was used. Choose another way to verify.\"",
                    404:
                        "passkey.not_found: \"This passkey was removed from your account. Choose another way to verify.\"",
                    410: "passkey.challenge_expired: \"Your passkey request expired. Try again.\"",
                    422: "passkey.refused: \"Your passkey couldn't be checked. Try again.\"",
                ]),
        ],
        seeds: [.reauthPicker, .contactSupport])
}

extension PasswordReauthScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Verify it's you\" with the current password. The field is emptied as soon as it is sent, so a wrong password is typed again rather than edited, and the password is kept nowhere.",
            "The seeds set no limit here; without one, this screen would allow endless guessing. The backend allows \(PasswordAttemptRules.maxFailures) wrong passwords in \(RuleText.duration(PasswordAttemptRules.window)): the screen warns before the last try, and the lock is counted down in a banner with the field off. \"Forgot it? Use another way\" goes back to the picker.",
        ],
        calls: [
            .post(
                "/auth/reauth/password", when: "Enter on the password",
                [
                    200:
                        "Verified: the \(RuleText.duration(ReauthRules.window, .compound)) window opens and the flow goes on.",
                    401:
                        "\"Password is incorrect. Try again.\", with \"One try left…\" before the last one; one that carries retry_after started the lock with this try, shown at once as for 429; a refused session is handled as everywhere.",
                    422: "The server's message (the account has no password).",
                    429: "The lock: a countdown banner and the field off until it passes.",
                ],
                noAnswer: "The offline message under the field.")
        ],
        seeds: [.reauthPicker])
}

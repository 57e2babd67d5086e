import AccessCore

extension EmailPasswordScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The Email & password sub-hub, pushed from the hub's one row: the email, then Change email and Change password, the two sensitive flows. A pushed screen and not a sheet, because it is a place to come back to, not a yes or no.",
            "Each change starts with \"Verify it's you\" (without the method being changed), unless its \(RuleText.duration(ReauthRules.window, .compound)) window is open. When the email is the account's only sign-in method, Change email shows the soft last-method warning first, as the phone does. Offline both rows are off.",
            "\"Last changed …\" is read on the app's clock, which follows the backend's.",
        ],
        seeds: [.emailPasswordSubHub, .reauthPicker, .lastMethodWarning])
}

extension NewEmailScreen {
    public static let specNotes = SpecNotes(
        why: [
            "One screen for Change email (one field, \"Current: …\") and Add email & password (the address and a password with its checklist). Adding needs no \"Verify it's you\"; changing comes after it.",
            "Availability is asked 400 ms after typing pauses, on the app clock; a taken address never says who holds it. Send link stays off until the address is available and, when adding, the password passes. The checklist shows three rules: the length as you type, \"not common\" and \"not all numbers\" once the field is left or sent. \"Not similar to your email\" runs server-side only (seed 001): its 422 shows under the field.",
            "Nothing changes until the link sent to the new address is opened (Check your email). The old address then gets a notice with a revert link, the real owner's way back.",
        ],
        calls: [
            .get(
                "/auth/email-available", when: "400 ms after typing pauses, for a well-formed address",
                [
                    200: "Available, or \"This email is already in use by another account.\"",
                    401: APICall.sessionRefused,
                    422: "\"\(OnScreenMessage.invalidEmail.text)\"",
                ],
                noAnswer: "Not known either way: the message under the field, and the server decides on Send link."),
            .post(
                "/auth/email/request-change", when: "Send link, changing",
                [
                    202: "Check your email, for the new address.",
                    401: APICall.sessionRefused,
                    403: "\"Your verification has expired. Go back and verify it's you again.\"",
                    409: "\"This email is already in use by another account.\"",
                    422: "The server's message (the same address, an invalid one).",
                    429: "The server's message, and a countdown banner for this address.",
                ],
                noAnswer: "The offline message under the fields."),
            .post(
                "/auth/email/add-with-password", when: "Send link, adding",
                [
                    202: "Check your email, for the new address.",
                    401: APICall.sessionRefused,
                    409: "Taken: \"This email is already in use by another account.\"; otherwise the server's message.",
                    422: "A broken password rule: its sentence under the password; else the server's message.",
                    429: "The server's message, and a countdown banner for this address.",
                ],
                noAnswer: "The offline message under the fields."),
        ],
        seeds: [.enterNewEmail, .checkYourEmail])
}

extension SetPasswordScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Set a new password\", the last step of Change password, after \"Verify it's you\". The checklist shows three rules (\(PasswordRules.minimumLength) characters, not common, not all numbers), judged once the field is left; \"not similar to your email\" is the server's alone (seed 001), its 422 under the field. The rules are the backend's: it has the last word.",
            "\"Passwords don't match.\" appears once the confirmation is as long as the new one and differs, 200 ms after typing pauses, so it does not flicker. \"Same as the current password\" can only be known by the server, which is asked on Update password; its refusals show under the fields, which keep what was typed.",
            "On success every other device is signed out and this one stays signed in, as the toast says.",
        ],
        calls: [
            .post(
                "/auth/password/change", when: "Update password, with the re-auth token",
                [
                    200: "Back to Email & password: \"Password updated. You're signed out on other devices.\"",
                    401: APICall.sessionRefused,
                    403: "\"Your verification has expired. Go back and verify it's you again.\"",
                    422:
                        "password_unchanged: \"Pick something different from your current password.\"; another rule: its sentence under the new password.",
                ],
                noAnswer: "The offline message; what was typed stays.")
        ],
        seeds: [.setNewPassword, .reauthPicker])
}

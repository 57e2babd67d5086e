import AccessCore

extension HubScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Account access, opened from Settings: one place for every sign-in method and the account's lifecycle. Email & password is one row (a password without an email does not exist), so the hub stays compact. The right-hand control says what Enter does: a pencil to change the phone, a chevron for a sub-screen, an Add or Connect pill for something not set up. Apple's row is hidden on Android (an account linked to Apple is told so under the rows, with nothing to change there, so an Apple-only account does not look as if it had no way in); everything else is the same for coaches and athletes.",
            "Skeleton rows until the first answer. Offline, the cached methods show under the offline banner and every change is off (Enter says so). A 5xx is the server answering with an error, not offline (seed 004): \"\(OnScreenMessage.serverError.text)\" under the rows, and r asks again. Active sessions opens the list of signed-in devices (offline too, read only). Two-factor authentication says On or Off (the methods' two_factor_enabled; absent is Off): Off sets it up after \"Verify it's you\", On opens the screen that manages it.",
            "Changing the phone asks \"Verify it's you\" first, unless its \(RuleText.duration(ReauthRules.window, .compound)) window is open or the phone is the only sign-in method (then the soft last-method warning). Adding a phone or an email needs no verification. A connected Apple or Google row opens the disconnect sheet, or the hard block when it is the only method. With limited access (after a recovery by email) every change opens \"Verify your phone first\" instead.",
        ],
        calls: [
            .get(
                "/me/auth-methods", when: "when the hub opens, and r",
                [
                    200: "The rows; the methods are kept for the offline cache.",
                    401: APICall.sessionRefused,
                ],
                noAnswer:
                    "The offline banner over the cached methods; with nothing cached, \"\(OnScreenMessage.offlineNothingSaved.text)\""
            )
        ],
        seeds: [.accountAccessHub, .reauthPicker, .lastMethodWarning, .disconnectBlock, .limitedAccountAccess])
}

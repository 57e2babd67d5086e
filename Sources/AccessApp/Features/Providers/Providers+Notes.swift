import AccessCore

extension DisconnectingScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Disconnecting Apple or Google: the hub's sheet (\"Disconnect Google?\") asks first, then \"Verify it's you\" without that provider, then this screen runs the request. It is reversible: the row goes back to \"Not connected\" with a Connect pill, and the other methods are untouched.",
            "When the provider is the only sign-in method, the hub shows the hard block (\"Can't disconnect …\") instead of the sheet: with zero methods the account could never be entered again. Unlike the phone's soft warning, nothing overrides it. The server enforces the same rule, so a stale hub still ends at the block.",
        ],
        calls: [
            .post(
                "/me/auth-methods/disconnect",
                when: "as the screen opens, with the re-auth token; Enter retries a failure",
                [
                    200: "Back to the hub, the row \"Not connected\", and a toast.",
                    401: APICall.sessionRefused,
                    403: "reauth_required: \"Verify it's you\" again, with a line saying why.",
                    409: "last_method: the methods are fetched again and the hub shows the hard block.",
                    422: "The server's message; Enter tries again.",
                ],
                noAnswer: "The offline message; the provider stays connected; Enter tries again."),
            .get(
                "/me/auth-methods", when: "after a 409 last_method",
                [200: "The hub's rows brought up to date, under the hard block."],
                noAnswer: "The hard block anyway: the server's refusal stands."),
        ],
        seeds: [.disconnectProvider, .disconnectBlock, .reauthPicker])
}

extension ProviderConsentScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The reference backend's stand-in for Apple's or Google's own sign-in sheet, which a terminal cannot show: the accounts the simulated provider has on this \"device\", and \"Simulate an error\". From the hub's Connect pill the chosen account is linked; from the sign-in screen it signs in, or signs up, with no code step.",
            "Against another backend there is no stand-in: the screen says the provider's own sign-in is needed and calls nothing. The provider's id token never sits in the app's state: it is minted and spent in one request.",
            "A provider account linked to someone else is refused without saying whose.",
        ],
        calls: [
            .get(
                "/_admin/provider/{provider}/accounts", when: "as the screen opens (reference backend only)",
                [200: "The accounts to choose from."],
                noAnswer: "Why it failed, and Enter to try again."),
            .post(
                "/_admin/provider/{provider}/token", when: "Continue on an account",
                [200: "The id token goes straight on to connect or sign in."]),
            .post(
                "/me/auth-methods/connect", when: "right after the token, from the hub's Connect",
                [
                    200: "Back to the hub: \"… connected.\"",
                    401: "The server's message, and the methods are fetched again in case the hub was stale.",
                    409: "\"This … account is already linked to another … account. Choose another account.\"",
                    422: "already_linked: the methods are fetched again; the hub shows it connected.",
                ],
                noAnswer: "The offline message; choose again."),
            .post(
                "/auth/sign-in/provider", when: "right after the token, from the sign-in screen",
                [
                    200: "Signed in: onboarding's next step for a new account, else Settings.",
                    401: "The server's message (the id token was refused); choose again.",
                    409:
                        "The server's message (an account deleted less than \(RuleText.duration(DeletionRules.holdDuration)) ago).",
                    422: "The server's message.",
                ],
                noAnswer: "\"\(OnScreenMessage.offline.text)\"; choose again."),
        ],
        seeds: [.continueWithApple, .continueWithGoogle, .socialWithoutOTP, .disconnectProvider])
}

extension ProviderTokenScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Apple or Google against a backend that is not the reference one (issue 27): there is no simulated provider, and the provider's own sign-in cannot run in a terminal, so the way on is the provider's ID token, minted by the QA team's own test tooling and pasted here. It goes to the contract's call as the provider's sign-in would send it: sign in, connect, or \"Verify it's you\" before disconnecting or deleting (an account with only Apple and Google has no other way).",
            "The token is a credential: masked, emptied from the field when sent, carried as a secret, never logged.",
        ],
        calls: [
            .post(
                "/auth/sign-in/provider", when: "Enter, from Continue with Apple/Google",
                [
                    200: "Signed in: onboarding's next step for a new account, else Settings.",
                    401: "provider_token_invalid: the server's message; the field is empty for another paste.",
                    409:
                        "The server's message (an account deleted less than \(RuleText.duration(DeletionRules.holdDuration)) ago).",
                    422: "The server's message.",
                ],
                noAnswer: "The offline message; paste again."),
            .post(
                "/me/auth-methods/connect", when: "Enter, from the hub's Connect",
                [
                    200: "Back to the hub: \"… connected.\"",
                    401: "The server's message.",
                    409: "\"This … account is already linked to another … account. Choose another account.\"",
                    422: "The server's message.",
                ],
                noAnswer: "The offline message; paste again."),
            .post(
                "/auth/reauth/social", when: "Enter, from \"Verify it's you\"",
                [
                    200: "Verified: on to the change (disconnect, delete, …).",
                    401: "The server's message; paste again.",
                ],
                noAnswer: "The offline message; paste again."),
        ],
        seeds: [.continueWithApple, .continueWithGoogle, .disconnectProvider, .reauthPicker])
}

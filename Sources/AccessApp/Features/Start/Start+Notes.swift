import AccessCore

extension WelcomeScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Where a signed-out app starts: the brand, one \"Get started\", and the terms and privacy policy small at the bottom (t and p open them). Get started opens \"Continue with…\", which signs in and signs up alike.",
            "s, on the reference backend only, is a QA shortcut no seed has: it signs in as the scenario's user without the screens, and lands where that account's onboarding stands.",
        ],
        calls: [
            .post(
                "/_admin/session", when: "s (reference backend)",
                [
                    200: "Then the methods and the profile are fetched, and the app lands where onboarding stands.",
                    409:
                        "The server's message under the button (the scenario starts signed out, or its user was deleted).",
                ],
                noAnswer: "The offline message under the button."),
            .get(
                "/me/auth-methods", when: "right after the QA session",
                [200: "The methods for the landing screen."]),
            .get(
                "/me/profile", when: "right after the methods",
                [200: "Where onboarding stands."],
                noAnswer: "Taken as onboarded (a backend without onboarding has no profile to give): Settings."),
        ],
        seeds: [.welcomeScreen, .firstLaunch])
}

extension SessionCheckScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The start with a stored session: a spinner while the backend says who the session belongs to. The screen the app lands on depends on the answer, never on what was saved.",
            "Signed in: where the account's onboarding stands (an app closed mid-onboarding resumes there), else Settings. Refused even after one refresh: the session is cleared and the sign-in screen says \"\(OnScreenMessage.sessionExpired.text)\". No answer within \(RuleText.duration(SessionCheckScreen.patience, .short)) (seed 002: the check takes under \(RuleText.duration(SessionCheckScreen.patience, .short)); a refused connection is known at once): in with the cached data under the offline banner, the session kept, rather than signed out by a bad connection; the app asks again by itself and clears the banner when the backend answers. Nothing cached to show: \"Continue offline\" or \"Sign in again\". An answer the contract does not list for the call, or one that does not decode, or a server error never counts as signed in: \"\(OnScreenMessage.invalidResponse.text)\" (seed 002), or for a 5xx \"\(OnScreenMessage.serverError.text)\" (seed 004: not offline), with Try again and Sign in again.",
            "Tokens follow the settlement of the seeds: access tokens live an hour, refresh tokens \(RuleText.duration(SessionRules.refreshLifetime)), and each refresh rotates them.",
        ],
        calls: [
            .get(
                "/auth/me", when: "as the app starts",
                [
                    200: "The methods and profile are kept; onboarding's step or Settings.",
                    401:
                        "The client refreshes once (POST /auth/refresh); refused: signed out, \"\(OnScreenMessage.sessionExpired.text)\".",
                    403:
                        "second_factor_required: the stored session passed its first factor only; the authenticator's code screen, alone (issue 31).",
                ],
                noAnswer:
                    "Within \(RuleText.duration(SessionCheckScreen.patience, .short)): Settings with the cached data under the offline banner; nothing cached: Continue offline or Sign in again."
            ),
            .post(
                "/auth/refresh", when: "by the client, on a 401",
                [
                    200: "The new pair is stored (the old one dies) and /auth/me is asked again.",
                    401: "refresh_invalid: the session file is removed; the sign-in screen.",
                ]),
        ],
        seeds: [.sessionPersistence, .tokenRefresh, .edgeCases])
}

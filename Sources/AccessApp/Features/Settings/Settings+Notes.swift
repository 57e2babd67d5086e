import AccessCore

extension SettingsScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The signed-in root. Account access, the screen gallery and the keyboard check open from here; Log out sits at the bottom, apart, and asks \"Are you sure you want to logout?\" first. Log out lives here and not on the hub because it is a session action, not an edit of the account's identity.",
            "While the recovery email set up during onboarding still waits for its link, a reminder on top says so, and v sends the link again: \(RuleText.duration(SendLimits.cooldown, .short)) after a send, or once the server's 429 wait has passed, counted down on screen. The link, pasted here (or handed over with `accessdeck open-link`), verifies it: its token is asked about and opened by its kind, whatever the URL looks like.",
            "After a recovery by email the session has limited access: a line on top says so and \"Verify your phone\" is the first row. It starts the phone's re-verification straight away: the limited session itself is the proof, so there is no \"Verify it's you\".",
            "When the server's onboarding step is one this app does not know (the contract's step is extensible), the app goes to the server's next step if that is one it knows, else here, and a line on top says so for as long as the server reports that step.",
            "The backend's address (and, on the reference backend, its admin API) is shown for QA; no seed asks for it.",
        ],
        calls: [
            .post(
                "/auth/logout", when: "Log out, confirmed: in the background, the sign-in screen already shown",
                [
                    204: "Nothing more: this device's session (the sign-in and every rotation of it) is over.",
                    401: "The same: the session was over anyway (an expired access token is refreshed first).",
                ],
                noAnswer:
                    "Signed out here all the same, at once; the backend is told when a call gets an answer again."),
            .post(
                "/auth/register/resend", when: "v, while the recovery email is unverified",
                [
                    202:
                        "Toast \"We sent the link again.\"; v waits \(RuleText.duration(SendLimits.cooldown, .short)).",
                    422: "The server's message under the reminder.",
                    429: "With a wait: \"Resend in m:ss\" until it passes. Without one: the server's message.",
                ],
                noAnswer: "The offline message under the reminder; v stays on."),
        ],
        seeds: [.logoutFlow, .logoutEndpoint, .accountAccessHub, .emailVerificationOptional, .limitedAccountAccess])
}

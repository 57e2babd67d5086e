import AccessCore

extension DeleteAccountScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The first step of deleting the account: what goes (the profile, training history, messages, saved payment methods) before anything destructive happens. Informative, with no retention tricks: the person's decision is accepted. It says the hold too: for \(RuleText.duration(DeletionRules.holdDuration)) the phone, email, Apple and Google cannot sign up again.",
            "The order is the seeds': this screen, then the backend's blocker check, then \"Verify it's you\", then the last-chance sheet, \"Deleting your account…\" and the final screen. Blockers are checked before the verification, so nobody verifies only to be told they cannot go on.",
        ],
        calls: [
            .get(
                "/me/delete-preflight", when: "Enter on Delete account",
                [
                    200:
                        "No blockers: \"Verify it's you\" (skipped inside its \(RuleText.duration(ReauthRules.window, .compound)) window), then the last-chance sheet. Blockers: the blocker screen instead.",
                    401: APICall.sessionRefused,
                    403: APICall.limitedAccessRefused,
                ],
                noAnswer: "The offline message; Enter asks again.")
        ],
        seeds: [.deleteAccountInfo, .deleteBlockers, .deleteFinalConfirm])
}

extension DeleteBlockersScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Shown instead of \"Verify it's you\" while something must be cleared first: a hard block, because deleting is irreversible. A coach with upcoming sessions would leave athletes hanging; money on hold would be lost.",
            "Several blockers stack in the server's order: upcoming sessions or bookings first, then the pending payout (coaches only). \"Releases in 18h\" follows the app's clock, which is the backend's. Refund rules are the cancel flow's business: here it only says \"cancel them first\".",
            "The list came with the check; what is upcoming is worked out from the app's clock on every frame, so a session or booking that has begun leaves it (and a section with none left) without Check again. Clearing a blocker happens elsewhere (the sessions, the payout), so the way on is to check again once it is done: Enter. Contact support (c) stays at the bottom for the unclear cases.",
            "A blocker of a kind this app does not know (seed 000 foresees other disputes and holds; the contract's kind is extensible) is shown in the server's words, its title and message, or else with the server's name for it and a pointer to support; it never makes the whole answer unreadable.",
        ],
        calls: [
            .get(
                "/me/delete-preflight", when: "Enter (Check again)",
                [
                    200:
                        "None left: \"Verify it's you\" in this screen's place. Still blocked: the blockers as they stand now, and a toast saying so.",
                    401: APICall.sessionRefused,
                    403: APICall.limitedAccessRefused,
                ],
                noAnswer: "The offline message above the actions; Enter asks again.")
        ],
        seeds: [.deleteBlockers, .contactSupport])
}

extension DeletingAccountScreen {
    public static let specNotes = SpecNotes(
        why: [
            "\"Deleting your account…\": a spinner while the backend revokes every session, marks the account deleted and schedules the purge. Esc does not leave mid-way; it says the account is being deleted.",
            "A blocker that appeared since the check (409) is fetched and shown; a closed verification window asks \"Verify it's you\" again; no answer or a server failure can be tried again with Enter.",
        ],
        calls: [
            .delete(
                "/me", when: "as the screen opens, with the re-auth token",
                [
                    200: "Signed out here (session file and cached methods gone): \"Your account has been deleted\".",
                    401: APICall.sessionRefused,
                    403: "reauth_required: back to the info screen and \"Verify it's you\", with a toast.",
                    409: "delete_blocked: the blockers are fetched again and shown.",
                ],
                noAnswer: "The offline message; Enter tries again."),
            .get(
                "/me/delete-preflight", when: "after a 409",
                [
                    200: "Blockers: the blocker screen. None any more: the server's message, and Enter tries again.",
                    401: APICall.sessionRefused,
                ],
                noAnswer: "The offline message; Enter tries again."),
        ],
        seeds: [.deletingAccount, .deleteBlockers])
}

extension AccountDeletedScreen {
    public static let specNotes = SpecNotes(
        why: [
            "The last screen, alone on the stack: the user is signed out on every device. The backend keeps the phone, email, Apple and Google from new sign-ups for \(RuleText.duration(DeletionRules.holdDuration)), to avoid an impulse re-signup, and the screen says the day it ends (the answer's identity_held_until), and purges the data at \(RuleText.duration(DeletionRules.purgeDelay)).",
            "Enter or q quits; the next start is on Welcome.",
        ],
        seeds: [.accountDeleted])
}

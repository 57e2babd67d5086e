import AccessCore

extension ActiveSessionsScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Every device signed in to the account, as Clerk's Active devices or Google's Your devices: one row a sign-in (a refresh of the token is the same row). This device first, marked, then the others by when they were last active, newest first, each with its system, how it signed in and \"active 5 min ago\" counted on the app's clock from the backend's last-seen time.",
            "Enter on another device opens a sheet to sign it out: its tokens die at once and its next call lands it on sign-in with \"You were signed out from another device.\" This device is not offered (that is Log out, in Settings). \"Sign out all other devices\" is a sensitive action: confirmed, then \"Verify it's you\" unless its \(RuleText.duration(ReauthRules.window, .compound)) window is open.",
            "Skeleton rows until the first answer. Offline, the list last loaded stays under the offline banner and signing out is off (Enter says so); it is kept on disk with the hub's cached methods, so it shows offline after a restart too. A 429 (the contract lists none here, but a backend in front of a gateway may send one) shows its countdown and keeps signing out off until it ends.",
        ],
        calls: [
            .get(
                "/me/sessions", when: "when the screen opens, r, and after a sign-out",
                [200: "The rows.", 401: APICall.sessionRefused],
                noAnswer:
                    "The list last loaded under the offline banner; with none, \"\(OnScreenMessage.offlineNothingSaved.text)\""
            ),
            .delete(
                "/me/sessions/{id}", when: "Sign out, on the sheet",
                [
                    204: "A toast names the device; the list loads again.",
                    404: "It was signed out already: the list loads again.",
                ]),
            .post(
                "/me/sessions/revoke-others", when: "after Verify it's you",
                [
                    200: "A toast says how many; the list loads again.",
                    401: "session_revoked: another device signed this one out first; sign-in says why.",
                    403: "The re-auth window closed: the message asks to verify again.",
                ]),
        ],
        seeds: [.accountAccessHub, .reauthPicker])
}

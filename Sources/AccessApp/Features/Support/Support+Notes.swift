extension ContactSupportScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Contact support, for when no self-serve way works (every sign-in method lost): a pressure-release screen, not a gate. Reached from \"Can't access any of these?\" in \"Verify it's you\", from an expired link, the delete blockers, the code screen (Ctrl+S), a lost recovery email, the two-factor step (s), sign-in, the hold on a deleted account's number or address (Ctrl+S), and every \"calling…\" screen that failed (s): every dead end (issue 49 item 6).",
            "Seed 000's option C: open a prefilled mail (subject \"Help [user ID]\", blank lines for the person's words, then the user ID, app version and device for triage), or copy the address when no mail client is set up. A terminal may have no mail client at all, so the prepared mail is also shown on screen and can be copied whole.",
            "What support needs to find the person's story (issue 49 item 6): the user ID, or when signed out the number or address typed (the subject's bracket too, never \"Help [unknown]\"); the flow (the screens on the stack) and the screen; the last error code and its request ID, the X-Request-ID the backend's journal and timeline keep it under. The last error is read from the app's own journal as the screen opens.",
            "No backend call: that is the point of option C.",
        ],
        seeds: [.contactSupport, .supportAssistedRecovery])
}

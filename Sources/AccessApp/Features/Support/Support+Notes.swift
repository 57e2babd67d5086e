extension ContactSupportScreen {
    public static let specNotes = SpecNotes(
        why: [
            "Contact support, for when no self-serve way works (every sign-in method lost): a pressure-release screen, not a gate. Reached from \"Can't access any of these?\" in \"Verify it's you\", from an expired link, the delete blockers, the code screen (Ctrl+S) and a lost recovery email.",
            "Seed 000's option C: open a prefilled mail (subject \"Help [user ID]\", blank lines for the person's words, then the user ID, app version and device for triage), or copy the address when no mail client is set up. A terminal may have no mail client at all, so the prepared mail is also shown on screen and can be copied whole.",
            "No backend call: that is the point of option C.",
        ],
        seeds: [.contactSupport, .supportAssistedRecovery])
}

extension KeyboardCheckScreen {
    public static let specNotes = SpecNotes(
        why: [
            "A tool for support staff, not from a seed: it shows every key and paste as the app decodes it, newest first, so \"the arrow keys do nothing\" over a strange terminal or SSH can be seen rather than guessed.",
            "Every key is shown, not acted on, so Esc pressed twice leaves. Ctrl+C still quits, and Ctrl+O or F2 (the outbox), Ctrl+P (the command palette) and F4 (these notes) still open what they open: those keys never reach the screen.",
        ],
        seeds: [])
}

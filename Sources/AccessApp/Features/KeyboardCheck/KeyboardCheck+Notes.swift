extension KeyboardCheckScreen {
    public static let specNotes = SpecNotes(
        why: [
            "A tool for support staff, not from a seed: it shows every key and paste as the app decodes it, newest first, so \"the arrow keys do nothing\" over a strange terminal or SSH can be seen rather than guessed.",
            "Every key is shown, not acted on, so Esc pressed twice leaves. Ctrl+C still quits, and Ctrl+O, F2 and F4 still open the outbox and these notes: those keys never reach the screen.",
        ],
        seeds: [])
}

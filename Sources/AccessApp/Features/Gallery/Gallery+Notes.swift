extension GalleryScreen {
    public static let specNotes = SpecNotes(
        why: [
            "A tool for designers and support, not from a seed: every screen in every named state, the same list `accessdeck screens` prints and the snapshots are drawn from. Enter shows one full screen as a person would see it, on sample data, with no backend call."
        ],
        seeds: [])
}

extension PreviewScreen {
    public static let specNotes = SpecNotes(
        why: [
            "One gallery state drawn full screen; Esc goes back to the list. Its keys do nothing, so nothing sample can be sent to the backend.",
            "F4 here shows the notes of the screen being previewed, not of this frame.",
        ],
        seeds: [])
}

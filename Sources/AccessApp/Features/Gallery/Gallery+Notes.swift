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
            "One gallery state drawn as a person would see it, for demos: ←/→ go through the states like slides; p, r, t, a and s switch the platform, the role, the theme, ASCII and the size live. Esc goes back to the list.",
            "The theme and ASCII chosen here are the preview's own: leaving it, the app looks as it did. The bottom row is the preview's, not the state's (whose keys do not act here): the state and its place in the gallery, \"hub:default · 14 of 245\", then the preview's keys.",
            "The state is sample data: none of its keys reach the backend. F4 here shows the notes of the screen being previewed, not of this frame.",
        ],
        seeds: [])
}

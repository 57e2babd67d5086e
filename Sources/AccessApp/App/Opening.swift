import Foundation

/// What the person reads when the app hands a URL to the system's opener (the effect `.open`): a terminal
/// shows nothing of a browser or mail client starting, or of none being there, so the app says both.
enum Opening {
    /// The URL handed over, with a toast saying what is being opened.
    static func open(_ url: URL, _ what: String) -> [Command] {
        [.run(.open(url)), .showToast(openingText(url, what))]
    }

    static func openingText(_ url: URL, _ what: String) -> String {
        isMail(url) ? "Opening \(what) in your mail app." : "Opening \(what) in your browser: \(url.absoluteString)"
    }

    /// Nothing could open it: said plainly, with the address to use by hand.
    static func failedText(_ url: URL) -> String {
        guard isMail(url) else { return "No browser opened on this computer. The address: \(url.absoluteString)" }
        let to = URLComponents(url: url, resolvingAgainstBaseURL: false)?.path ?? ""
        return to.isEmpty
            ? "No mail app opened on this computer." : "No mail app opened on this computer. Write to \(to) instead."
    }

    static func isMail(_ url: URL) -> Bool { url.scheme?.lowercased() == "mailto" }
}

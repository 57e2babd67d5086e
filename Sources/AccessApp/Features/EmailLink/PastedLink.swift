import Foundation

/// A link as the person pastes it from their mail: the terminal's way of tapping it. The token is
/// the link's `token` query item (the reference backend's links and most magic links), else its last
/// path segment (`…/l/AbC123`), else the text itself when it is one bare word (just the token).
enum PastedLink {
    static let maxLength = 4096

    /// Long enough to be a link's token (the reference backend's carry 43 characters after their prefix):
    /// a stray word pasted on a screen without a field is not sent to the backend as one.
    static let minimumBareToken = 16

    /// A pasted text that is a link (a URL with a token) or a bare token, not just any word.
    static func isLink(_ pasted: String) -> Bool {
        guard let token = token(from: pasted) else { return false }
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        return URLComponents(string: text)?.scheme != nil || token.count >= minimumBareToken
    }

    static func token(from pasted: String) -> String? {
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= maxLength, !text.contains(where: \.isWhitespace) else { return nil }
        if let components = URLComponents(string: text), components.scheme != nil {
            if let token = components.queryItems?.first(where: { $0.name == "token" })?.value, !token.isEmpty {
                return token
            }
            let last = components.path.split(separator: "/").last.map(String.init)
            return last.flatMap { $0.count >= 16 ? $0 : nil }
        }
        return text.contains("/") || text.contains("?") ? nil : text
    }
}

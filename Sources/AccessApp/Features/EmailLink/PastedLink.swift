import Foundation

/// A link as the person pastes it from their mail: the terminal's way of tapping it. The token is
/// the link's `token` query item (the reference backend's links and most magic links), else its last
/// path segment (`…/l/AbC123`), else the text itself when it is one bare word (just the token).
enum PastedLink {
    static let maxLength = 4096

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

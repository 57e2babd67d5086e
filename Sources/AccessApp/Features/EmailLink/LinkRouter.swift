import AccessAPI
import Foundation

/// Links that arrive with nothing on screen waiting for them (the email-change link opened from the
/// hub, the revert link in the old address's notice): whose they are decides where they go.
enum LinkRouter {
    static let purposes: [any LinkPurpose] = [
        RegistrationLink(), EmailChangeLink(), RevertEmailLink(), AccountRecoveryLink(),
    ]

    static func open(_ message: OutboxMessage, _ context: ScreenContext) -> [Command]? {
        guard let token = message.token, let purpose = purposes.first(where: { $0.accepts(message) }) else {
            return nil
        }
        return [
            .push(
                VerifyingLinkScreen(
                    link: purpose.link(sentTo: message.to), token: token, shownAt: context.now))
        ]
    }

    /// A link handed over from outside with no screen waiting for it: its path says which kind it is.
    static func open(pasted text: String, _ context: ScreenContext) -> [Command]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let token = PastedLink.token(from: trimmed), let url = URLComponents(string: trimmed),
            let last = url.path.split(separator: "/").last,
            let purpose = purposes.first(where: { $0.linkPath == last })
        else { return nil }
        return [.push(VerifyingLinkScreen(link: AnyLinkPurpose(purpose), token: token, shownAt: context.now))]
    }

    static let nothingWaitingText = "Nothing here is waiting for that link. Open it while \"Check your email\" shows."
}

import AccessAPI
import Foundation
import TerminalKit

/// "This link has expired": a blocking state (seed 000: a full screen, not a toast), reached
/// when the link is older than 30 minutes or was already used. Offers a new link or support.
public struct LinkExpiredScreen: ScreenModel {
    public var flow: AnyFlow
    public var selection: Int
    public var isSending: Bool
    public var error: String?

    public init(flow: AnyFlow, selection: Int = 0, isSending: Bool = false, error: String? = nil) {
        self.flow = flow
        self.selection = selection
        self.isSending = isSending
        self.error = error
    }

    public var id: String { "link-expired" }

    static let actions = ["Send a new link", "Contact support"]

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([.move, .open("Choose")])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        switch key {
        case .up, .character("k"):
            selection = 0
            return []
        case .down, .character("j"):
            selection = 1
            return []
        case .enter, .right:
            if selection == 1 { return [.push(ContactSupportScreen(userId: context.methods?.userId))] }
            guard !isSending else { return [] }
            isSending = true
            error = nil
            return [.request(SendReauthLink())]
        default:
            return nil
        }
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    )
        -> [Command]
    {
        isSending = false
        switch result {
        case .success(let reply):
            guard let sent = reply.as(EmailLinkSent.self) else { return [] }
            // The new link replaces the old "Check your email" below: one such screen, not two.
            return [
                .popTo(CheckEmailScreen.self),
                .replaceTop(CheckEmailScreen(flow: flow, sentTo: sent.sentTo, sentAt: context.now)),
            ]
        case .failure(let failure):
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("This link has expired")
        canvas.paragraph("Verification links expire after 30 minutes. Request a new one to try again.")
        for (index, action) in Self.actions.enumerated() {
            canvas.row(
                ListRow(action, control: .chevron, isSelected: index == selection, isDisabled: index == 0 && isSending))
        }
        if isSending { canvas.paragraph("Sending…", style: .muted) }
        if let error { canvas.paragraph(error, style: .danger) }
    }
}

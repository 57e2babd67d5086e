import AccessAPI
import Foundation
import TerminalKit

/// Contact support, "hybrid C" of seed 000: open a prefilled mail, or copy the address when no
/// mail client is set up. A pressure-release screen, not a gate.
public struct ContactSupportScreen: ScreenModel {
    public enum Option: Int, CaseIterable, Sendable {
        case openMail
        case copy
        /// Shown once the mail is prepared: the whole mail, for any mail client.
        case copyMail
    }

    /// Who, where, and the last error: what the mail carries for triage.
    public var ticket: SupportTicket
    public var selection: Option
    /// "Open mail" was chosen: the prepared mail is shown on screen too, since a terminal may
    /// have no mail client to hand it to.
    public var showsMail: Bool

    public init(ticket: SupportTicket, selection: Option = .openMail, showsMail: Bool = false) {
        self.ticket = ticket
        self.selection = selection
        self.showsMail = showsMail
    }

    public var id: String { "contact-support" }

    var choices: [Option] { showsMail ? [.openMail, .copy, .copyMail] : [.openMail, .copy] }

    public enum Intent: Sendable {
        case up, down, chooseSelected
        case choose(Option)
    }

    public enum Reply: Equatable, Sendable { case lastError(Result<SupportTicket.LastError?, APIError>) }

    /// The journal is read as the screen opens, so the mail names the error that led here.
    public func onAppear(_ context: ScreenContext) -> [Command] { [.call(LoadLastError(), Reply.lastError)] }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        if case .lastError(.success(let lastError)) = reply { ticket.lastError = lastError }
        return []
    }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = [
            .move(up: .up, down: .down), .open("Choose", .chooseSelected),
            KeyBinding([.character("o")], "Open mail", inFooter: false, .choose(.openMail)),
            KeyBinding([.character("c")], "Copy address", inFooter: false, .choose(.copy)),
        ]
        if showsMail {
            bindings.append(KeyBinding([.character("m")], "Copy the mail", inFooter: false, .choose(.copyMail)))
        }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        let index = choices.firstIndex(of: selection) ?? 0
        switch intent {
        case .up: selection = choices[max(0, index - 1)]
        case .down: selection = choices[min(choices.count - 1, index + 1)]
        case .chooseSelected: return choose(selection, context)
        case .choose(let choice): return choose(choice, context)
        }
        return []
    }

    private mutating func choose(_ action: Option, _ context: ScreenContext) -> [Command] {
        let address = context.options.brand.supportEmail
        switch action {
        case .openMail:
            guard let url = Self.mailURL(ticket, options: context.options) else { return [] }
            showsMail = true
            // A terminal shows nothing of a mail app starting, or of none being there: the toast says
            // which, and the mail stays on screen to copy.
            return Opening.open(url, "a mail to \(address)")
        case .copy:
            return [.run(.copy(address)), .showToast("Copied \(address) to clipboard")]
        case .copyMail:
            let mail = Self.mail(ticket, options: context.options)
            let text = "To: \(mail.to)\nSubject: \(mail.subject)\n\n\(mail.body)"
            return [.run(.copy(text)), .showToast("Copied the mail to clipboard")]
        }
    }

    /// The prepared mail (seed 000's prefill payload): subject "Help [usr_…]" (signed out: the number or
    /// address typed), a body of blank lines for the user's words, then what support needs to triage.
    static func mail(_ ticket: SupportTicket, options: AppOptions) -> (to: String, subject: String, body: String) {
        let body = (["", "", ""] + ticket.fields(options).map { "\($0.label): \($0.value)" }).joined(separator: "\n")
        return (options.brand.supportEmail, "Help [\(ticket.reference)]", body)
    }

    /// `mailto:` for `mail(…)`. Line breaks are CRLF and everything outside RFC 3986's
    /// unreserved set is percent-encoded (RFC 6068).
    static func mailURL(_ ticket: SupportTicket, options: AppOptions) -> URL? {
        let mail = mail(ticket, options: options)
        let body = mail.body.replacingOccurrences(of: "\n", with: "\r\n")
        let address = percentEncode(mail.to, keeping: "@")
        return URL(string: "mailto:\(address)?subject=\(percentEncode(mail.subject))&body=\(percentEncode(body))")
    }

    static func percentEncode(_ text: String, keeping extra: String = "") -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        allowed.insert(charactersIn: extra)
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Contact support")
        let address = context.options.brand.supportEmail
        // Short terminals (40×12) keep what to do in view: the address and the actions first.
        let compact = canvas.remaining.height < 16
        if compact {
            canvas.paragraph("Email us at \(address)", style: .bold)
        } else if showsMail {
            // The prepared mail names the address (To) and what to include: its rows take the words' place,
            // so the choices stay in view at 80×24.
            canvas.paragraph(Self.preparedText, style: .muted, spacing: 0)
        } else {
            canvas.paragraph("We're here to help", style: .bold, spacing: 0)
            canvas.paragraph("We typically reply within 24 hours. Include your user ID and what you were trying to do.")
            canvas.paragraph("Email us at", style: .muted, spacing: 0)
            canvas.paragraph(address, style: Style.accent.with(.bold))
        }
        if !compact || showsMail { metadata(into: &canvas, context) }
        if !compact { canvas.skip(1) }
        canvas.row(ListRow("Open mail", control: .chevron, isSelected: selection == .openMail), spacing: 0)
        canvas.row(ListRow("Copy address", isSelected: selection == .copy), spacing: 0)
        if showsMail { canvas.row(ListRow("Copy the mail", isSelected: selection == .copyMail), spacing: 0) }
        canvas.skip(1)
        if compact && !showsMail { metadata(into: &canvas, context) }
        canvas.paragraph("In-app ticket form coming soon.", style: .muted)
    }

    static let preparedText = "The mail, prepared (m copies it):"

    /// What support needs to triage, as label and value; once the mail is prepared, its address and
    /// subject head it, in the same columns.
    private func metadata(into canvas: inout Canvas, _ context: ScreenContext) {
        let mail = Self.mail(ticket, options: context.options)
        let heading = showsMail ? [("To", mail.to), ("Subject", mail.subject)] : []
        for (label, value) in heading + ticket.fields(context.options) {
            let left = canvas.left
            canvas.draw(height: 1, spacing: 0) { grid, rect in
                guard rect.height > 0 else { return }
                grid.put(label, at: Point(x: left, y: rect.y), style: .muted, maxX: rect.maxX)
                grid.put(value, at: Point(x: left + 14, y: rect.y), style: .plain, maxX: rect.maxX - Canvas.margin)
            }
        }
    }
}

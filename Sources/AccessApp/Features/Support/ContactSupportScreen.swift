import AccessAPI
import Foundation
import TerminalKit

/// Contact support, "hybrid C" of seed 000: open a prefilled mail, or copy the address when no
/// mail client is set up. A pressure-release screen, not a gate.
public struct ContactSupportScreen: ScreenModel {
    public enum Choice: Int, CaseIterable, Sendable {
        case openMail
        case copy
    }

    public var userId: String?
    public var selection: Choice

    public init(userId: String?, selection: Choice = .openMail) {
        self.userId = userId
        self.selection = selection
    }

    public var id: String { "contact-support" }

    /// What support sees when the user's ID is not known (the methods never loaded).
    static let unknownUser = "unknown"

    public func keymap(_ context: ScreenContext) -> Keymap {
        Keymap([
            .move, .open("Choose"),
            KeyBinding([.character("o")], "Open mail", inFooter: false),
            KeyBinding([.character("c")], "Copy address", inFooter: false),
        ])
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        switch key {
        case .up, .character("k"):
            selection = .openMail
            return []
        case .down, .character("j"):
            selection = .copy
            return []
        case .character("o"):
            return perform(.openMail, context)
        case .character("c"):
            return perform(.copy, context)
        case .enter, .right:
            return perform(selection, context)
        default:
            return nil
        }
    }

    private func perform(_ action: Choice, _ context: ScreenContext) -> [Command] {
        let address = context.options.brand.supportEmail
        switch action {
        case .openMail:
            guard let url = Self.mailURL(userId: userId, options: context.options) else { return [] }
            return [.run(.open(url))]
        case .copy:
            return [.run(.copy(address)), .showToast("Copied \(address) to clipboard")]
        }
    }

    /// `mailto:` with subject "Help [usr_…]" and a body of blank lines for the user's words,
    /// then what support needs to triage (seed 000's prefill payload). Line breaks are CRLF
    /// and everything outside RFC 3986's unreserved set is percent-encoded (RFC 6068).
    static func mailURL(userId: String?, options: AppOptions) -> URL? {
        let user = userId ?? unknownUser
        let subject = "Help [\(user)]"
        let body = [
            "", "", "",
            "User ID: \(user)",
            "App version: \(options.appVersion)",
            "Device: \(options.deviceDescription)",
        ].joined(separator: "\r\n")
        let address = percentEncode(options.brand.supportEmail, keeping: "@")
        return URL(string: "mailto:\(address)?subject=\(percentEncode(subject))&body=\(percentEncode(body))")
    }

    static func percentEncode(_ text: String, keeping extra: String = "") -> String {
        var allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        allowed.insert(charactersIn: extra)
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Contact support")
        canvas.paragraph("We're here to help", style: .bold, spacing: 0)
        canvas.paragraph("We typically reply within 24 hours. Include your user ID and what you were trying to do.")
        canvas.paragraph("Email us at", style: .muted, spacing: 0)
        canvas.paragraph(context.options.brand.supportEmail, style: Style.accent.with(.bold))
        for (label, value) in [
            ("User ID", userId ?? Self.unknownUser),
            ("App version", context.options.appVersion),
            ("Device", context.options.deviceDescription),
        ] {
            let left = canvas.left
            canvas.draw(height: 1, spacing: 0) { grid, rect in
                grid.put(label, at: Point(x: left, y: rect.y), style: .muted, maxX: rect.maxX)
                grid.put(value, at: Point(x: left + 14, y: rect.y), style: .plain, maxX: rect.maxX - Canvas.margin)
            }
        }
        canvas.skip(1)
        canvas.row(ListRow("Open mail", control: .chevron, isSelected: selection == .openMail), spacing: 0)
        canvas.row(ListRow("Copy", isSelected: selection == .copy))
        canvas.paragraph("In-app ticket form coming soon.", style: .muted)
    }
}

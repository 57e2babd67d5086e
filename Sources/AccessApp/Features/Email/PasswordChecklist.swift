import AccessCore
import TerminalKit

/// Seed 001's three visible rules: the first checked as you type, the others once the field is
/// left or submitted (`checkedAll`). "Not similar to your email" is the server's alone (seed 001:
/// "runs server-side only (it's email-dependent and hard to phrase well inline)"): its 422 shows under
/// the field, and a form is never held back by a rule it does not show (issue 48 item 16).
struct PasswordChecklist {
    var password: String
    var checkedAll: Bool

    static let visible: [PasswordRule] = [.tooShort, .tooCommon, .allDigits]

    var rules: [PasswordRule] { Self.visible }

    /// Whether the password passes what the app judges: the visible rules. Every form's submit asks this.
    static func passes(_ password: String) -> Bool { firstBroken(password) == nil }

    /// The first visible rule `password` breaks.
    static func firstBroken(_ password: String) -> PasswordRule? {
        PasswordRules.violations(password, email: nil).first
    }

    func lines(glyphs: Glyphs) -> [(text: String, style: Style)] {
        let broken = Set(PasswordRules.violations(password, email: nil))
        return rules.map { rule in
            let label = rule.checklistLabel ?? rule.message
            guard checkedAll || rule == .tooShort, !password.isEmpty else {
                return ("\(glyphs == .ascii ? "-" : "○") \(label)", .muted)
            }
            return broken.contains(rule)
                ? ("\(glyphs == .ascii ? "x" : "✗") \(label)", .danger)
                : ("\(glyphs == .ascii ? "+" : "✓") \(label)", .success)
        }
    }

    func draw(into canvas: inout Canvas) {
        for line in lines(glyphs: canvas.glyphs) { canvas.paragraph(line.text, style: line.style, spacing: 0) }
        canvas.skip(1)
    }

    /// The server's codes, as sentences for under the field.
    static func message(for codes: [String]) -> String? {
        if codes.contains(PasswordRules.unchangedCode) { return SetPasswordScreen.unchangedText }
        return codes.lazy.compactMap(PasswordRule.init(rawValue:)).first?.message
    }
}

extension PasswordRules {
    /// The server's extra rule on a change (seed 001: "Pick something different…").
    static let unchangedCode = "password_unchanged"
}

import AccessCore
import TerminalKit

/// Seed 001's three visible rules: the first checked as you type, the others once the field is
/// left or submitted (`checkedAll`). "Not similar to your email" joins them once an email is known
/// (seed 000's fourth rule, judged on blur or submit like the rest); before that only the server
/// can judge it.
struct PasswordChecklist {
    var password: String
    var checkedAll: Bool
    /// The address the password must not resemble: the account's, or a valid one typed beside it.
    var email: String? = nil

    static let visible: [PasswordRule] = [.tooShort, .tooCommon, .allDigits]
    static let similarLabel = "Not similar to your email"

    var rules: [PasswordRule] { email == nil ? Self.visible : Self.visible + [.tooSimilar] }

    func lines(glyphs: Glyphs) -> [(text: String, style: Style)] {
        let broken = Set(PasswordRules.violations(password, email: email))
        return rules.map { rule in
            let label = rule == .tooSimilar ? Self.similarLabel : (rule.checklistLabel ?? rule.message)
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

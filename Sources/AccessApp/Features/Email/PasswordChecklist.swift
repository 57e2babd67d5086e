import AccessCore
import TerminalKit

/// Seed 001's three visible rules: the first checked as you type, the other two once the field is
/// left or submitted (`checkedAll`); "not similar to your email" is the server's alone.
struct PasswordChecklist {
    var password: String
    var checkedAll: Bool

    static let visible: [PasswordRule] = [.tooShort, .tooCommon, .allDigits]

    func lines(glyphs: Glyphs) -> [(text: String, style: Style)] {
        let broken = Set(PasswordRules.violations(password, email: nil))
        return Self.visible.map { rule in
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

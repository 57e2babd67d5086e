import TerminalKit

/// "Step 2 of 4  ● ● ○ ○" under every onboarding step's title (seed 003: "Clear progress steps").
struct OnboardingProgress {
    var step: Int

    func text(_ glyphs: Glyphs) -> String {
        let dots = (1...Onboarding.stepCount).map { index in
            index <= step ? (glyphs == .ascii ? "#" : "●") : (glyphs == .ascii ? "-" : "○")
        }
        return "Step \(step) of \(Onboarding.stepCount)  \(dots.joined(separator: " "))"
    }

    /// The step's title with the progress under it, and a note beside the progress.
    func title(_ title: String, note: String? = nil, into canvas: inout Canvas) {
        canvas.title(title, subtitle: [text(canvas.glyphs), note].compactMap(\.self).joined(separator: "  ·  "))
    }
}

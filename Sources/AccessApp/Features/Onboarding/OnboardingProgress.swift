import AccessAPI
import TerminalKit

/// "Step 2 of 4  ● ● ○ ○" under every onboarding step's title (seed 003: "Clear progress steps 1/4,
/// 2/4"). A phone or email sign-up counts four steps, the number and its code being the first; an
/// Apple or Google sign-up has no code step, so it counts three, from the profile.
struct OnboardingProgress {
    var step: Int
    var count: Int = Onboarding.stepCount

    /// `codeSignUpStep`: the step's number in a phone sign-up (the profile is 2), moved down by one for an
    /// account that signed up with a provider.
    init(_ codeSignUpStep: Int, _ context: ScreenContext) {
        let skipsCode = Onboarding.signedUpWithProvider(context.methods)
        step = skipsCode ? codeSignUpStep - 1 : codeSignUpStep
        count = skipsCode ? Onboarding.stepCount - 1 : Onboarding.stepCount
    }

    init(step: Int, count: Int = Onboarding.stepCount) {
        self.step = step
        self.count = count
    }

    func text(_ glyphs: Glyphs) -> String {
        let dots = (1...count).map { index in
            index <= step ? (glyphs == .ascii ? "#" : "●") : (glyphs == .ascii ? "-" : "○")
        }
        return "Step \(step) of \(count)  \(dots.joined(separator: " "))"
    }

    /// The step's title with the progress under it, and a note beside the progress.
    func title(_ title: String, note: String? = nil, into canvas: inout Canvas) {
        canvas.title(title, subtitle: [text(canvas.glyphs), note].compactMap(\.self).joined(separator: "  ·  "))
    }
}

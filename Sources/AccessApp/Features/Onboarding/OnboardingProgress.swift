import AccessAPI
import TerminalKit

/// "Step 2 of 4  ● ● ○ ○" under every onboarding step's title (seed 003: "Clear progress steps 1/4,
/// 2/4"), numbering the steps this account goes through: a phone sign-up counts four, the number and its
/// code being the first; an Apple or Google sign-up has no code step, so it counts three, from the profile;
/// an email sign-up proved its address with its code, so it has no recovery email step (the backend passes
/// it over) and counts two, its link only when the address is still unverified. "You're all set" asks
/// nothing: it says "Done" with every dot filled, so no step number is skipped or shown twice.
struct OnboardingProgress {
    var step: Int
    var count: Int = Onboarding.stepCount
    var isDone = false

    /// A step that asks something of the person.
    enum Step: Equatable { case wayIn, profile, recoveryEmail, verifyEmail }

    /// The steps this account goes through, in order.
    static func steps(_ context: ScreenContext) -> [Step] {
        if Onboarding.signedUpWithProvider(context.methods) { return [.profile, .recoveryEmail, .verifyEmail] }
        if Onboarding.signedUpWithEmail(context.methods) {
            return [.wayIn, .profile] + (context.profile?.emailVerified == false ? [.verifyEmail] : [])
        }
        return [.wayIn, .profile, .recoveryEmail, .verifyEmail]
    }

    init(_ step: Step, _ context: ScreenContext) {
        let steps = Self.steps(context)
        count = steps.count
        self.step = (steps.firstIndex(of: step) ?? steps.count - 1) + 1
    }

    init(step: Int, count: Int = Onboarding.stepCount) {
        self.step = step
        self.count = count
    }

    /// "You're all set": every step of this account's onboarding done.
    static func done(_ context: ScreenContext) -> OnboardingProgress {
        var progress = OnboardingProgress(step: 0, count: steps(context).count)
        progress.step = progress.count
        progress.isDone = true
        return progress
    }

    func text(_ glyphs: Glyphs) -> String {
        let dots = (1...count).map { index in
            index <= step ? (glyphs == .ascii ? "#" : "●") : (glyphs == .ascii ? "-" : "○")
        }
        return "\(isDone ? "Done" : "Step \(step) of \(count)")  \(dots.joined(separator: " "))"
    }

    /// The step's title with the progress under it, and a note beside the progress.
    func title(_ title: String, note: String? = nil, into canvas: inout Canvas) {
        canvas.title(title, subtitle: [text(canvas.glyphs), note].compactMap(\.self).joined(separator: "  ·  "))
    }
}

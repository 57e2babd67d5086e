import AccessAPI
import Foundation
import TerminalKit

/// Seed 003's Welcome: the brand, one "Get started", and the terms and privacy policy small at the
/// bottom. On the reference backend QA may skip the way in and be the scenario's user at once.
public struct WelcomeScreen: ScreenModel {
    /// The QA sign-in is under way.
    public var isWorking: Bool
    public var error: String?

    public init(isWorking: Bool = false, error: String? = nil) {
        self.isWorking = isWorking
        self.error = error
    }

    public var id: String { "welcome" }
    public var needsClock: Bool { isWorking }

    public enum Intent: Sendable { case getStarted, terms, privacy, qaSignIn }
    public enum Reply: Equatable, Sendable { case qaSignIn(Result<QASignedIn, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        var bindings: [KeyBinding<Intent>] = [
            KeyBinding([.enter], "Get started", .getStarted),
            KeyBinding([.character("t")], "Terms", .terms),
            KeyBinding([.character("p")], "Privacy", .privacy),
        ]
        if context.options.hasReferenceBackend, !isWorking {
            bindings.append(
                KeyBinding([.character("s")], "Sign in as the scenario's user (QA)", inFooter: false, .qaSignIn))
        }
        return bindings
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .getStarted:
            error = nil
            return [.push(SignInScreen())]
        case .terms:
            return context.options.brand.termsURL.map { Opening.open($0, "the Terms") } ?? []
        case .privacy:
            return context.options.brand.privacyURL.map { Opening.open($0, "the Privacy Policy") } ?? []
        case .qaSignIn:
            guard context.options.hasReferenceBackend, !isWorking else { return [] }
            isWorking = true
            error = nil
            return [.call(QASignIn(), Reply.qaSignIn)]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .qaSignIn(.success(let found)):
            return [
                .setMethods(found.methods), .setProfile(found.profile),
                .resetStack(AppRoutes.signedIn(profile: found.profile)),
            ]
        case .qaSignIn(.failure(let failure)):
            error = failure.message
            return []
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        let brand = context.options.brand
        let height = 9
        canvas.skip(max(0, (canvas.remaining.height - height) / 2 - 1))
        canvas.centered(brand.name, style: Style.accent.with(.bold))
        canvas.centered("Train, book and get paid: one account for all of it.", style: .muted, spacing: 0)
        canvas.skip(1)
        canvas.button("Get started", working: "Signing in…", isReady: true, isFocused: true, isWorking: isWorking)
        if let error { canvas.centered(error, style: .danger) }
        if context.options.hasReferenceBackend {
            canvas.centered("QA: press s to sign in as the scenario's user", style: .muted)
        }
        canvas.skip(max(0, canvas.remaining.height - 2))
        canvas.centered("By continuing you agree to the Terms (t) and Privacy Policy (p).", style: .muted, spacing: 0)
    }
}

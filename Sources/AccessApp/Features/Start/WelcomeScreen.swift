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

    static let qaTag = "qa-sign-in"

    public func keymap(_ context: ScreenContext) -> Keymap {
        var bindings = [
            KeyHint([.enter], "Get started"),
            KeyHint([.character("t")], "Terms"),
            KeyHint([.character("p")], "Privacy"),
        ]
        if context.options.hasReferenceBackend, !isWorking {
            bindings.append(KeyHint([.character("s")], "Sign in as the scenario's user (QA)", inFooter: false))
        }
        return Keymap(bindings)
    }

    public mutating func handle(_ event: InputEvent, _ context: ScreenContext) -> [Command]? {
        guard case .key(let key) = event else { return nil }
        switch key {
        case .enter:
            error = nil
            return [.push(SignInScreen())]
        case .character("t"):
            return context.options.brand.termsURL.map { [.run(.open($0))] } ?? []
        case .character("p"):
            return context.options.brand.privacyURL.map { [.run(.open($0))] } ?? []
        case .character("s") where context.options.hasReferenceBackend && !isWorking:
            isWorking = true
            error = nil
            return [.request(QASignIn(), tag: Self.qaTag)]
        default:
            return nil
        }
    }

    public mutating func receive(
        _ tag: String, _ result: Result<AnyValue, APIError>, _ context: ScreenContext
    ) -> [Command] {
        isWorking = false
        switch result {
        case .success(let reply):
            guard let found = reply.as(QASignedIn.self) else { return [] }
            return [
                .setMethods(found.methods), .setProfile(found.profile),
                .resetStack(AnyScreen(Onboarding.screen(for: found.profile))),
            ]
        case .failure(let failure):
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

import AccessAPI
import Foundation
import TerminalKit

/// Seed 003's "Onboarding Completion": the account is ready, a brief orientation, then the main
/// app (the Settings root). Finishing is the backend's bookkeeping: when it cannot be told (offline,
/// refused), the person still goes on, and the next start shows this screen once more.
public struct OnboardingDoneScreen: ScreenModel {
    public var isWorking: Bool

    public init(isWorking: Bool = false) { self.isWorking = isWorking }

    public var id: String { "onboarding-done" }

    /// Apple only where the hub shows it (seed 000 hides it on Android).
    static func accountAccessText(_ platform: AppOptions.Platform) -> String {
        "Account access, in Settings, is where you manage your phone, email & password, "
            + (platform == .ios ? "Apple and Google." : "and Google.")
    }
    static let unverifiedText = "Your recovery email isn't verified yet: Settings reminds you and can resend the link."
    static let noEmailText = "No recovery email yet: you can add one later under Account access, Email & password."

    public enum Intent: Sendable { case goToSettings }
    public enum Reply: Equatable, Sendable { case finish(Result<Profile, APIError>) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        isWorking ? [] : [KeyBinding([.enter], "Go to Settings", .goToSettings)]
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        isWorking = true
        return [.call(Endpoint.ContinueOnboarding(from: .finish), Reply.finish)]
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isWorking = false
        switch reply {
        case .finish(.success(let profile)):
            return [.setProfile(profile), .resetStack(SettingsScreen())]
        case .finish(.failure(.offline)):
            // The offline banner says why; the app is usable without this bookkeeping.
            return [.resetStack(SettingsScreen())]
        case .finish(.failure(let failure)):
            return [.resetStack(SettingsScreen()), .showToast(failure.message)]
        }
    }

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        OnboardingProgress.done(context).title("You're all set", into: &canvas)
        let name = context.profile?.shownName.map { ", \($0)" } ?? ""
        canvas.paragraph("Your account is ready\(name).")
        canvas.paragraph(Self.accountAccessText(context.options.platform))
        switch context.profile {
        case let profile? where profile.email != nil && !profile.emailVerified:
            canvas.paragraph(Self.unverifiedText)
        case let profile? where profile.email == nil:
            canvas.paragraph(Self.noEmailText)
        default:
            break
        }
        canvas.button("Go to Settings", working: "One moment…", isReady: true, isFocused: false, isWorking: isWorking)
    }
}

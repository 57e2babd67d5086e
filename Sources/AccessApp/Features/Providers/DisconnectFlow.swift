import AccessAPI

/// Disconnecting Apple or Google: "Verify it's you" with every method but that provider, then the
/// request, on a screen that shows it running.
public struct DisconnectFlow: SensitiveFlow {
    public var provider: SocialProvider

    public init(provider: SocialProvider) { self.provider = provider }

    public var target: ReauthMethod? { provider.reauthMethod }

    public var pickerExplanation: String {
        "To disconnect \(provider.displayName), confirm with one of your active sign-in methods."
    }

    public func start(_ context: ScreenContext) -> [Command] {
        [.popTo(HubScreen.self), .push(DisconnectingScreen(provider: provider))]
    }
}

import AccessAPI

/// "Verify it's you" before deleting: every method the user has is offered (nothing is the target).
public struct DeleteAccountFlow: SensitiveFlow {
    public init() {}

    public var target: ReauthMethod? { nil }

    public var pickerExplanation: String {
        "To delete your account, confirm with one of your active sign-in methods."
    }

    /// Back on the info screen, the last chance: the confirmation sheet.
    public func start(_ context: ScreenContext) -> [Command] {
        [.popTo(DeleteAccountScreen.self), .showSheet(.confirmDeleteAccount)]
    }

    /// What the blocker check's answer leads to: the blocker screen, or "Verify it's you"
    /// (skipped inside its 15-minute window). Blockers never reach re-auth (seed 000).
    static func afterPreflight(_ preflight: DeletePreflight, _ context: ScreenContext) -> [Command] {
        if !preflight.blockers.isEmpty { return [.push(DeleteBlockersScreen(blockers: preflight.blockers))] }
        return Reauth.verifyThen(DeleteAccountFlow(), context)
    }
}

extension AnyFlow {
    public static let deleteAccount = AnyFlow(DeleteAccountFlow())
}

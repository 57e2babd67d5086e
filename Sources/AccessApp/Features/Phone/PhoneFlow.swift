import AccessAPI

/// Which phone flow a screen belongs to.
public enum PhoneFlow: String, SensitiveFlow {
    case changePhone = "change_phone"
    case addPhone = "add_phone"
    /// A session with limited access proves a phone, its old number or a new one: no re-auth first.
    case reverifyPhone = "reverify_phone"

    public var target: ReauthMethod? { .phone }

    public var pickerExplanation: String {
        "To change your phone number, confirm with one of your active sign-in methods."
    }

    var purpose: OTPPurpose {
        switch self {
        case .changePhone: .changePhone
        case .addPhone: .addPhone
        case .reverifyPhone: .reverifyPhone
        }
    }

    /// How the flow begins from the hub: the last-method warning, "Verify it's you", or the
    /// number screen itself (adding a method needs no verification, seed 000).
    static func begin(_ flow: PhoneFlow, _ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        if flow == .changePhone, methods.sessionSuffices(for: flow.target) { return [.showSheet(.lastMethod(flow))] }
        if flow == .addPhone { return [.continueFlow(flow)] }
        return Reauth.verifyThen(flow, context)
    }

    public func start(_ context: ScreenContext) -> [Command] {
        // Offered from Settings and from the hub's sheet: the number screen opens where the person is.
        if self == .reverifyPhone { return [.push(EnterPhoneScreen(flow: self, current: context.methods?.phone))] }
        let current = self == .addPhone ? nil : context.methods?.phone
        // A number with no country of its own yet starts at the device's region, as sign-in's does.
        let region = current == nil ? EnterPhoneScreen.country(ofRegion: context.options.deviceRegion) : nil
        return [.popTo(HubScreen.self), .push(EnterPhoneScreen(flow: self, current: current, countryISO: region))]
    }
}

extension AnyFlow {
    public static let changePhone = AnyFlow(PhoneFlow.changePhone)
}

/// The new number's code was refused with `reauth_required` (the window closed while it was being
/// typed): once verified again, the code screen sends the same code.
public struct ResumeCodeEntry: SensitiveFlow {
    public var phoneFlow: PhoneFlow

    public var target: ReauthMethod? { phoneFlow.target }

    public var pickerExplanation: String {
        "Your verification timed out. Confirm it's you again to finish with your new number."
    }

    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(EnterCodeScreen.self, with: self)]
    }
}

import AccessAPI

/// A change to the user's sign-in methods that spans several screens.
public enum AccountFlow: String, Equatable, Sendable {
    case changePhone = "change_phone"
    case addPhone = "add_phone"

    /// Changes need "Verify it's you" first (seed 000); adding a method does not.
    public var needsReauth: Bool { self == .changePhone }

    /// The method left out of the picker: you don't verify a phone change with that phone.
    public var target: ReauthMethod {
        switch self {
        case .changePhone, .addPhone: return .phone
        }
    }

    public var pickerExplanation: String {
        switch self {
        case .changePhone, .addPhone:
            return "To change your phone number, confirm with one of your active sign-in methods."
        }
    }

    /// How the flow begins from the hub: the last-method warning, the re-auth picker, or its
    /// first screen when the user needs no (more) verification.
    static func begin(_ flow: AccountFlow, _ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        if flow == .changePhone, methods.signInMethodCount == 1 { return [.showSheet(.lastMethod(flow))] }
        if flow.needsReauth, context.reauth == nil { return [.push(ReauthPickerScreen(flow: flow))] }
        return [.continueFlow(flow)]
    }

    /// The flow's first screen once verification is settled, above the hub.
    func start(_ context: ScreenContext) -> [Command] {
        switch self {
        case .changePhone:
            return [.popTo("hub"), .push(EnterPhoneScreen(flow: .changePhone, current: context.methods?.phone))]
        case .addPhone:
            return [.popTo("hub"), .push(EnterPhoneScreen(flow: .addPhone, current: nil))]
        }
    }
}

extension AuthMethods {
    /// Phone, email with password, Apple, Google: the ways this user can sign in.
    public var signInMethodCount: Int {
        [phone != nil, email != nil && hasPassword, appleLinked, googleLinked].filter { $0 }.count
    }

    /// The methods "Verify it's you" offers, in the picker's order.
    public func reauthMethods(excluding target: ReauthMethod, platform: AppOptions.Platform) -> [ReauthMethod] {
        var methods: [ReauthMethod] = []
        if hasPassword { methods.append(.password) }
        if email != nil { methods.append(.email) }
        if appleLinked, platform == .ios { methods.append(.apple) }
        if googleLinked { methods.append(.google) }
        if phone != nil { methods.append(.phone) }
        return methods.filter { $0 != target }
    }
}

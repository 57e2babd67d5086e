import AccessAPI
import AccessCore

/// A change to the user's sign-in methods that "Verify it's you" guards (seed 000): each flow
/// says what the picker leaves out and how it starts once the user is verified. Flows live in
/// their own features (the phone flows in Phone/); the re-auth screens carry them as `AnyFlow`.
public protocol SensitiveFlow: Equatable, Sendable {
    /// The method left out of the picker: you don't verify a phone change with that phone.
    var target: ReauthMethod? { get }
    /// The picker's line under "Verify it's you".
    var pickerExplanation: String { get }
    /// The flow's first screen once verification is settled.
    func start(_ context: ScreenContext) -> [Command]
}

/// Any sensitive flow, so screens and commands can carry one and still be compared.
public struct AnyFlow: Equatable, Sendable, CustomReflectable {
    public let base: any SensitiveFlow

    public init(_ base: some SensitiveFlow) { self.base = base }

    public static func == (lhs: AnyFlow, rhs: AnyFlow) -> Bool { lhs.base.isEqual(to: rhs.base) }

    public var customMirror: Mirror { Mirror(reflecting: base) }
}

extension SensitiveFlow {
    fileprivate func isEqual(to other: any SensitiveFlow) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

enum Reauth {
    /// "Verify it's you" first, unless the 15-minute window of an earlier one is still open.
    static func verifyThen(_ flow: some SensitiveFlow, _ context: ScreenContext) -> [Command] {
        context.reauth == nil ? [.push(ReauthPickerScreen(flow: AnyFlow(flow)))] : [.continueFlow(flow)]
    }
}

extension AuthMethods {
    /// What this user can sign in with, by the one rule app and backend share.
    public var signInMethods: SignInMethods {
        SignInMethods(phone: phone != nil, email: email != nil, apple: appleLinked, google: googleLinked)
    }

    /// The methods "Verify it's you" offers, in the picker's order.
    public func reauthMethods(excluding target: ReauthMethod?, platform: AppOptions.Platform) -> [ReauthMethod] {
        var methods: [ReauthMethod] = []
        if hasPassword { methods.append(.password) }
        if email != nil { methods.append(.email) }
        if appleLinked, platform == .ios { methods.append(.apple) }
        if googleLinked { methods.append(.google) }
        if phone != nil { methods.append(.phone) }
        return methods.filter { $0 != target }
    }
}

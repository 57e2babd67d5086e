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
    /// "Verify it's you" first, unless the 15-minute window of an earlier one is still open and its grant
    /// may verify this flow (one made with the flow's own target may not: `ReauthRule`).
    static func verifyThen(_ flow: some SensitiveFlow, _ context: ScreenContext) -> [Command] {
        // A grant of a method this app does not know (the contract's enum is extensible) goes with the
        // change: the server judges it, and answers 403 reauth_required if it may not verify it.
        guard let grant = context.reauth,
            grant.method.known.map({ AuthMethods.grant($0, verifies: flow.target) }) ?? true
        else {
            return [.push(ReauthPickerScreen(flow: AnyFlow(flow)))]
        }
        return [.continueFlow(flow)]
    }
}

extension AuthMethods {
    /// What this user can sign in with, by the one rule app and backend share.
    public var signInMethods: SignInMethods {
        SignInMethods(
            phone: phone != nil, email: email != nil, apple: appleLinked, google: googleLinked,
            passkey: (passkeys ?? 0) > 0)
    }

    /// The rule app and backend share for "Verify it's you".
    public var reauthRule: ReauthRule {
        ReauthRule(methods: signInMethods, hasPassword: hasPassword, hasAuthenticator: twoFactorEnabled ?? false)
    }

    /// The methods "Verify it's you" offers, in the picker's order. Apple is offered on iOS only (seed 000
    /// hides its row on Android), unless it is all the account has to verify with: the backend asks for a
    /// grant then (the session suffices only when nothing but the target is left), so a picker without
    /// it would be a dead end.
    public func reauthMethods(excluding target: ReauthMethod?, platform: AppOptions.Platform) -> [ReauthMethod] {
        // A passkey is offered when the account has one (the methods' `passkeys` count); whether this device holds
        // it is the prompt's to say, as a phone's would.
        let methods = reauthRule.factors(for: target?.factor).compactMap { ReauthMethod(rawValue: $0.rawValue) }
        let shown = methods.filter { $0 != .apple || platform == .ios }
        return shown.isEmpty ? methods : shown
    }

    /// Nothing but the target to verify with: the soft last-method warning, then the change without a grant.
    public func sessionSuffices(for target: ReauthMethod?) -> Bool {
        reauthRule.sessionSuffices(for: target?.factor)
    }

    static func grant(_ method: ReauthMethod, verifies target: ReauthMethod?) -> Bool {
        method.factor.map { ReauthRule.grant($0, verifies: target?.factor) } ?? false
    }
}

extension ReauthMethod {
    /// The same method in AccessCore's terms (the contract spells them alike).
    var factor: ReauthFactor? { ReauthFactor(rawValue: rawValue) }
}

/// One way a person can get into their account.
public enum SignInMethod: String, CaseIterable, Sendable {
    case phone, email, apple, google
    /// One or more passkeys not flagged as cloned (issue 53).
    case passkey
}

/// The sign-in methods an account has: the one rule, shared by the app, the backend and the
/// scenario checks, for "is this the only method?" (seed 000's last-method warning and
/// disconnect block). An email counts by itself, password or not: a link or a code sent to it
/// gets the person in.
public struct SignInMethods: Equatable, Sendable {
    public var phone: Bool
    public var email: Bool
    public var apple: Bool
    public var google: Bool
    public var passkey: Bool

    public init(phone: Bool, email: Bool, apple: Bool, google: Bool, passkey: Bool = false) {
        self.phone = phone
        self.email = email
        self.apple = apple
        self.google = google
        self.passkey = passkey
    }

    public func has(_ method: SignInMethod) -> Bool {
        switch method {
        case .phone: return phone
        case .email: return email
        case .apple: return apple
        case .google: return google
        case .passkey: return passkey
        }
    }

    public var all: [SignInMethod] { SignInMethod.allCases.filter(has) }
    public var count: Int { all.count }

    /// True when `method` is set up and nothing else is: removing it would lock the person out.
    public func isOnly(_ method: SignInMethod) -> Bool { all == [method] }
}

/// A way to answer "Verify it's you" (seed 000): each sign-in method, the password, and the authenticator
/// app of an account with two-factor on (issue 31). Raw values are the contract's `ReauthMethod`.
public enum ReauthFactor: String, CaseIterable, Sendable {
    // The picker's order.
    case password, email, apple, google, phone, authenticator, passkey
}

extension SignInMethod {
    public var reauthFactor: ReauthFactor {
        switch self {
        case .phone: .phone
        case .email: .email
        case .apple: .apple
        case .google: .google
        case .passkey: .passkey
        }
    }
}

/// What "Verify it's you" may use for a sensitive change (seed 000): the one rule behind the app's picker,
/// its last-method warning and the backend's check of the grant a change comes with. A change has a
/// target (the phone for a phone change, Apple for disconnecting Apple, the password for a new password),
/// or none (deleting the account).
public struct ReauthRule: Equatable, Sendable {
    public var methods: SignInMethods
    public var hasPassword: Bool
    /// Two-factor is on: its authenticator app verifies any change (none has it as its target: setting up,
    /// regenerating codes and turning two-factor off change no sign-in method).
    public var hasAuthenticator: Bool

    public init(methods: SignInMethods, hasPassword: Bool, hasAuthenticator: Bool = false) {
        self.methods = methods
        self.hasPassword = hasPassword
        self.hasAuthenticator = hasAuthenticator
    }

    /// Every factor the account has but the target itself, in the picker's order: you don't verify a phone
    /// change with that phone, nor an Apple disconnect with Apple. A password is a factor whenever the
    /// target is not the password itself, so an account whose only sign-in method is its email still
    /// verifies an email change with its password.
    public func factors(for target: ReauthFactor?) -> [ReauthFactor] {
        ReauthFactor.allCases.filter { factor in
            guard factor != target else { return false }
            switch factor {
            case .password: return hasPassword
            case .email: return methods.email
            case .apple: return methods.apple
            case .google: return methods.google
            case .phone: return methods.phone
            case .authenticator: return hasAuthenticator
            case .passkey: return methods.passkey
            }
        }
    }

    /// Nothing but the target to verify with: the signed-in session is the proof, after seed 000's soft
    /// "This is your only sign-in method" warning instead of "Verify it's you".
    public func sessionSuffices(for target: ReauthFactor?) -> Bool {
        factors(for: target).isEmpty
    }

    /// Whether a grant made with `method` may verify a change of `target`: never one made with the target.
    public static func grant(_ method: ReauthFactor, verifies target: ReauthFactor?) -> Bool {
        method != target
    }
}

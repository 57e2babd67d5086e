/// One way a person can get into their account.
public enum SignInMethod: String, CaseIterable, Sendable {
    case phone, email, apple, google
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

    public init(phone: Bool, email: Bool, apple: Bool, google: Bool) {
        self.phone = phone
        self.email = email
        self.apple = apple
        self.google = google
    }

    public func has(_ method: SignInMethod) -> Bool {
        switch method {
        case .phone: return phone
        case .email: return email
        case .apple: return apple
        case .google: return google
        }
    }

    public var all: [SignInMethod] { SignInMethod.allCases.filter(has) }
    public var count: Int { all.count }

    /// True when `method` is set up and nothing else is: removing it would lock the person out.
    public func isOnly(_ method: SignInMethod) -> Bool { all == [method] }
}

import AccessAPI

extension EnterCodeScreen {
    /// The flow a code belongs to: what the code proves and so what follows it, where it went, and the
    /// request or challenge it answers. The rest of the screen (the boxes, the two countdowns, what the
    /// last try said) is the same for every flow.
    public enum Step: Equatable, Sendable {
        /// A new number for the account, changing it or adding one (`PhoneFlow.changePhone`, `.addPhone`):
        /// the right code saves the number.
        case newNumber(PhoneFlow, PhoneCodeRequest)
        /// "Text me a code" in "Verify it's you" (the number on the account): the right code opens the
        /// 15-minute window, then the flow goes on.
        case reauth(AnyFlow, PhoneCodeRequest)
        /// After a recovery by email (seed 003), the old number or a new one: the right code gives the
        /// account everything back.
        case reverify(PhoneCodeRequest)
        /// Continue with phone or email (seed 004): the right code signs in, or signs up, on this device.
        case signIn(SignInCodeChallenge)

        /// A code sent for one of the account's phone flows: re-verification has its own step.
        init(_ flow: PhoneFlow, _ request: PhoneCodeRequest) {
            self = flow == .reverifyPhone ? .reverify(request) : .newNumber(flow, request)
        }

        /// Where the code went, as the backend has it: a number (E.164) or, for an emailed sign-in code,
        /// an address.
        var destination: String {
            switch self {
            case .newNumber(_, let request), .reauth(_, let request), .reverify(let request): request.phone
            case .signIn(let challenge): challenge.destination
            }
        }

        /// What support's mail names when nobody is signed in: the number or address the code went to.
        var typed: SupportTicket.Who {
            isEmailed ? .email(destination) : .phone(destination)
        }

        /// The number on the account (re-auth): not one typed on the screen before.
        var isAccountsOwn: Bool {
            if case .reauth = self { return true }
            return false
        }

        var isEmailed: Bool {
            guard case .signIn(let challenge) = self else { return false }
            return challenge.channel == .email
        }

        /// The texted code's request; nil for a sign-in code, which answers a challenge instead.
        var phoneRequest: PhoneCodeRequest? {
            switch self {
            case .newNumber(_, let request), .reauth(_, let request), .reverify(let request): request
            case .signIn: nil
            }
        }

        /// The phone flow that goes on with the same code once "Verify it's you" is done again (the
        /// 15-minute window closed while the code was typed); nil when the step needs no window.
        var resumableFlow: PhoneFlow? {
            switch self {
            case .newNumber(let flow, _): flow
            case .reverify: .reverifyPhone
            case .reauth, .signIn: nil
            }
        }

        /// The same step, answering the request a resend made.
        mutating func resent(_ accepted: OTPRequestAccepted) {
            switch self {
            case .newNumber(let flow, var request):
                request.requestId = accepted.requestId
                self = .newNumber(flow, request)
            case .reauth(let flow, var request):
                request.requestId = accepted.requestId
                self = .reauth(flow, request)
            case .reverify(var request):
                request.requestId = accepted.requestId
                self = .reverify(request)
            case .signIn:
                break
            }
        }

        /// The same step, answering the challenge a resend made.
        mutating func resent(_ challenge: SignInChallenge) {
            guard case .signIn(var current) = self else { return }
            current.challengeId = challenge.challengeId
            self = .signIn(current)
        }
    }
}

/// A code texted for one of the account's phone requests (`/auth/phone/request-otp`): where it went
/// and the request it answers.
public struct PhoneCodeRequest: Equatable, Sendable {
    /// E.164, as the backend accepted it.
    public var phone: String
    public var requestId: String

    public init(phone: String, requestId: String) {
        self.phone = phone
        self.requestId = requestId
    }

    public init(_ accepted: OTPRequestAccepted) {
        self.init(phone: accepted.phone, requestId: accepted.requestId)
    }
}

/// A sign-in code (`/auth/sign-in/code`): how it was sent, where to, and the challenge it answers.
public struct SignInCodeChallenge: Equatable, Sendable {
    public var channel: SignInChannel
    /// E.164 for a phone, the address for an email, as the backend normalized it.
    public var destination: String
    public var challengeId: String
    /// Seed 004's display name typed before the code, sent with it; nil when none was given.
    public var displayName: String?

    public init(channel: SignInChannel, destination: String, challengeId: String, displayName: String? = nil) {
        self.channel = channel
        self.destination = destination
        self.challengeId = challengeId
        self.displayName = displayName
    }

    /// A channel the app does not know in the answer (the contract's enum is extensible): the code went
    /// where the app asked, so it is worded by `asked`.
    public init(_ challenge: SignInChallenge, asked: SignInChannel, displayName: String? = nil) {
        self.init(
            channel: challenge.channel.known ?? asked, destination: challenge.destination,
            challengeId: challenge.challengeId, displayName: displayName)
    }
}

import AccessAPI
import Foundation

/// A backend call a screen asks for, as a value (so reducers stay pure and tests can compare).
public enum APICall: Equatable, Sendable {
    case authMethods
    case requestPhoneOTP(phone: String, purpose: OTPPurpose, reauthToken: String?)
    case resendPhoneOTP(requestId: String)
    case cancelPhoneOTP(requestId: String)
    case verifyPhoneOTP(requestId: String, code: String, reauthToken: String?)
    case reauthByPassword(Secret)
    case sendReauthLink
    case confirmReauthLink(token: String)
    /// The simulated Apple/Google sign-in: the reference backend mints the provider's token,
    /// then the app re-authenticates with it.
    case reauthBySocial(SocialProvider)
    case outbox
}

/// What a successful call returned.
public enum APIReply: Equatable, Sendable {
    case authMethods(AuthMethods)
    case otpAccepted(OTPRequestAccepted)
    case otpCancelled
    case otpVerified(VerifyOTPResult)
    case reauthGranted(ReauthGrant)
    case linkSent(EmailLinkSent)
    case outbox([OutboxMessage])
}

/// Runs `APICall`s with an `AccountClient`.
public struct ClientPerformer: Sendable {
    public let client: AccountClient
    public let cache: AuthMethodsCache?

    public init(client: AccountClient, cache: AuthMethodsCache?) {
        self.client = client
        self.cache = cache
    }

    public func perform(_ call: APICall, now: Date) async -> Result<APIReply, APIError> {
        do {
            switch call {
            case .authMethods:
                return .success(.authMethods(try await client.authMethods(cache: cache, now: now)))
            case .requestPhoneOTP(let phone, let purpose, let reauthToken):
                return .success(
                    .otpAccepted(
                        try await client.requestPhoneOTP(phone: phone, purpose: purpose, reauthToken: reauthToken)))
            case .resendPhoneOTP(let requestId):
                return .success(.otpAccepted(try await client.resendPhoneOTP(requestId: requestId)))
            case .cancelPhoneOTP(let requestId):
                _ = try await client.cancelPhoneOTP(requestId: requestId)
                return .success(.otpCancelled)
            case .verifyPhoneOTP(let requestId, let code, let reauthToken):
                return .success(
                    .otpVerified(
                        try await client.verifyPhoneOTP(requestId: requestId, code: code, reauthToken: reauthToken)))
            case .reauthByPassword(let password):
                return .success(.reauthGranted(try await client.reauthenticate(password: password.value)))
            case .sendReauthLink:
                return .success(.linkSent(try await client.sendReauthLink()))
            case .confirmReauthLink(let token):
                return .success(.reauthGranted(try await client.confirmReauthLink(token: token)))
            case .reauthBySocial(let provider):
                let token = try await client.adminProviderToken(provider)
                return .success(
                    .reauthGranted(try await client.reauthenticate(provider: provider, idToken: token.idToken)))
            case .outbox:
                return .success(.outbox(try await client.adminOutbox()))
            }
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(.offline(reason: "\(type(of: error))"))
        }
    }
}

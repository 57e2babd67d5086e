import AccessAPI
import Foundation

/// Two-factor authentication (issue 31): an authenticator app's codes and one-time recovery codes. Set up
/// and managed from the hub's row; asked as the second step of every sign-in of an account that has it,
/// and offered as a way through "Verify it's you".
enum TwoFactorFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        TwoFactorScreen.self, TwoFactorSetupScreen.self, RecoveryCodesScreen.self, AuthenticatorCodeScreen.self,
        RecoveryCodeSignInScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.twoFactorGallery }
}

// MARK: - Requests

/// `POST /auth/two-factor/verify`: the second step with the app's code; new tokens, kept by the client.
struct VerifySecondFactor: APIRequest {
    var code: Secret
    func perform(_ api: APIContext) async throws -> SignedIn {
        try await api.client.verifySecondFactor(code: code.value)
    }
}

/// `POST /auth/two-factor/recovery`: the second step with a recovery code (spent), then how many are left
/// (`GET /me/two-factor`, now that the session may ask), so the screen can warn when they run out.
struct SignInWithRecoveryCode: APIRequest {
    var recoveryCode: Secret
    func perform(_ api: APIContext) async throws -> RecoveredSignIn {
        let signedIn = try await api.client.signInWithRecoveryCode(recoveryCode.value)
        let remaining = try? await api.client.getTwoFactor().recoveryCodesRemaining
        return RecoveredSignIn(signedIn: signedIn, codesRemaining: remaining)
    }
}

/// A sign-in finished with a recovery code, and the codes left (nil when the count could not be read).
public struct RecoveredSignIn: Equatable, Sendable {
    public var signedIn: SignedIn
    public var codesRemaining: Int?
}

// MARK: - Flows through "Verify it's you"

/// Setting two-factor up: any method verifies it (nothing is its target), then the set-up screen.
public struct TwoFactorSetupFlow: SensitiveFlow {
    public init() {}
    public var target: ReauthMethod? { nil }
    public var pickerExplanation: String {
        "To set up two-factor authentication, confirm with one of your sign-in methods."
    }
    public func start(_ context: ScreenContext) -> [Command] {
        [.popTo(HubScreen.self), .push(TwoFactorSetupScreen())]
    }
}

/// New recovery codes: verified, then back on the two-factor screen, which asks for them with the grant.
public struct RegenerateRecoveryCodesFlow: SensitiveFlow {
    public init() {}
    public var target: ReauthMethod? { nil }
    public var pickerExplanation: String {
        "To make new recovery codes, confirm with one of your sign-in methods."
    }
    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(TwoFactorScreen.self, with: TwoFactorScreen.Verified.regenerate)]
    }
}

/// Turning two-factor off: confirmed on a sheet, verified, then the two-factor screen sends it.
public struct TurnOffTwoFactorFlow: SensitiveFlow {
    public init() {}
    public var target: ReauthMethod? { nil }
    public var pickerExplanation: String {
        "To turn off two-factor authentication, confirm with one of your sign-in methods."
    }
    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(TwoFactorScreen.self, with: TwoFactorScreen.Verified.turnOff)]
    }
}

extension AnyFlow {
    public static let setUpTwoFactor = AnyFlow(TwoFactorSetupFlow())
    public static let turnOffTwoFactor = AnyFlow(TurnOffTwoFactorFlow())
}

// MARK: - Shared words and rules

enum TwoFactor {
    /// The hub row's title and subtitle (seed 001, word for word).
    static let title = "Two-factor authentication"
    static let subtitle = "Extra layer of security"
    static let enterCodeText = "Enter the code from your authenticator app"
    static let useRecoveryCodeText = "Use a recovery code"
    static let lockedText = "Too many wrong codes. Wait for the countdown, or use a recovery code."
    static let lockedReauthText = "Too many wrong codes. Wait for the countdown, or verify another way."
    static let turnedOnText = "Two-factor authentication is on."
    static let turnedOffText = "Two-factor authentication is off."

    /// Whether the account has two-factor on, as the methods say (absent: off, a backend without it).
    static func isOn(_ methods: AuthMethods?) -> Bool { methods?.twoFactorEnabled ?? false }

    /// The methods with two-factor switched on or off here, so the hub's row says so before its next load.
    static func methods(_ methods: AuthMethods?, on: Bool) -> [Command] {
        guard var methods else { return [] }
        methods.twoFactorEnabled = on
        return [.setMethods(methods)]
    }

    /// A 403 `second_factor_required`: this session has passed only its first factor.
    static func isRequiredRefusal(_ error: APIError) -> Bool {
        if case .server(403, ErrorCode.secondFactorRequired.rawValue, _) = error { return true }
        return false
    }
}

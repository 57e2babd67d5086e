import AccessCore

/// Why a screen behaves as it does, for support staff explaining what a user saw, QA and designers:
/// in our own words, with the backend calls the screen makes and the seed sections it comes from.
/// Every screen declares its own (`ScreenModel.specNotes`); F4 shows the top screen's.
public struct SpecNotes: Equatable, Sendable {
    /// Short paragraphs: what the screen does and why, and where it leaves a seed on purpose.
    public var why: [String]
    /// Every backend call the screen makes, each with the answers it tells apart.
    public var calls: [APICall]
    /// Empty for the app's own tools, which no seed describes.
    public var seeds: [SeedReference]

    public init(why: [String], calls: [APICall] = [], seeds: [SeedReference]) {
        self.why = why
        self.calls = calls
        self.seeds = seeds
    }
}

/// One operation of the contract (`Sources/AccessAPI/openapi.yaml`) as a screen uses it.
public struct APICall: Equatable, Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    /// A status the backend may answer with, and what the screen then does.
    public struct Answer: Equatable, Sendable {
        public var status: Int
        public var then: String
    }

    public var method: Method
    /// As the contract writes it, e.g. "/auth/phone/request-otp".
    public var path: String
    /// What makes the screen call it: "Enter on Send code", "when the screen opens".
    public var when: String
    /// In the order a reader expects: success first.
    public var answers: [Answer]
    /// What the screen does when no answer comes (no connection, or a 502–504 from a proxy, which the
    /// client takes as offline); nil when it does nothing of its own.
    public var noAnswer: String?

    public init(
        _ method: Method, _ path: String, when: String, answers: KeyValuePairs<Int, String>, noAnswer: String? = nil
    ) {
        self.method = method
        self.path = path
        self.when = when
        self.answers = answers.map { Answer(status: $0.key, then: $0.value) }
        self.noAnswer = noAnswer
    }

    public static func get(
        _ path: String, when: String, _ answers: KeyValuePairs<Int, String>, noAnswer: String? = nil
    ) -> APICall {
        APICall(.get, path, when: when, answers: answers, noAnswer: noAnswer)
    }

    public static func post(
        _ path: String, when: String, _ answers: KeyValuePairs<Int, String>, noAnswer: String? = nil
    ) -> APICall {
        APICall(.post, path, when: when, answers: answers, noAnswer: noAnswer)
    }

    public static func put(
        _ path: String, when: String, _ answers: KeyValuePairs<Int, String>, noAnswer: String? = nil
    ) -> APICall {
        APICall(.put, path, when: when, answers: answers, noAnswer: noAnswer)
    }

    public static func patch(
        _ path: String, when: String, _ answers: KeyValuePairs<Int, String>, noAnswer: String? = nil
    ) -> APICall {
        APICall(.patch, path, when: when, answers: answers, noAnswer: noAnswer)
    }

    public static func delete(
        _ path: String, when: String, _ answers: KeyValuePairs<Int, String>, noAnswer: String? = nil
    ) -> APICall {
        APICall(.delete, path, when: when, answers: answers, noAnswer: noAnswer)
    }
}

/// The seed documents (`../shared/seeds/`, beside the repository).
public enum Seed: String, CaseIterable, Sendable {
    /// 000 is the Account Access rules as bare notes, without titles; 001 is the same spec as rendered
    /// screens, the same notes under section titles. The titles are 001's, the rules both.
    case accountAccess = "001_6e6ea42f44499fa7.txt"
    case authFrontend = "002_ad19ef4cdb3001f4.txt"
    case phoneFirst = "003_5c95988ad3cf3564.txt"
    case continueWith = "004_d2dc5abaa380cc42.txt"

    /// How the panel names the seed.
    public var label: String {
        switch self {
        case .accountAccess: "000/001"
        case .authFrontend: "002"
        case .phoneFirst: "003"
        case .continueWith: "004"
        }
    }
}

/// A section of a seed, by its title as the seed writes it (without 002's and 003's leading `#`s), so
/// a reference cannot be mistyped: `SpecNotesTests` finds each title among the seeds' headings.
public enum SeedReference: String, CaseIterable, Sendable {
    // 000/001: the Account Access spec.
    case accountAccessHub = "Account Access"
    case reauthPicker = "Re-auth Picker"
    case enterPhoneNumber = "Enter phone number"
    case enterOTPCode = "Enter OTP code"
    case countryPicker = "Country picker"
    case emailPasswordSubHub = "Email & password sub-hub"
    case enterNewEmail = "Enter new email"
    case checkYourEmail = "Check your email"
    case loadingLink = "Loading link"
    case linkExpired = "Link expired"
    case setNewPassword = "Set new password"
    case contactSupport = "Contact support"
    case deleteAccountInfo = "Delete account · info"
    case deleteBlockers = "Delete blockers"
    case deletingAccount = "Deleting account"
    case accountDeleted = "Account deleted"
    case deleteFinalConfirm = "Delete final confirm"
    case disconnectProvider = "Disconnect Apple / Google"
    case disconnectBlock = "Disconnect block · last method"
    case lastMethodWarning = "Last-method warning"

    // 002: the older auth frontend.
    case edgeCases = "Edge Cases"
    case firstLaunch = "First Launch (No Session)"
    case registrationFlow = "Registration Flow"
    case loginFlow = "Login Flow"
    case sessionPersistence = "Session Persistence (App Relaunch)"
    case emailVerificationHandling = "Email Verification Handling"
    case logoutFlow = "Logout"
    case tokenRefresh = "4. Token Refresh"
    case logoutEndpoint = "5. Logout"
    case resendVerificationEmail = "6. Resend Verification Email"
    case validationRules = "Validation Rules"

    // 003: phone first, recovery by email.
    case welcomeScreen = "Welcome Screen"
    case phoneNumberEntry = "Phone Number Entry"
    case smsVerification = "SMS Verification"
    case basicProfileForm = "Basic Profile Form"
    case recoveryEmailOption = "Recovery Email Option"
    case emailVerificationOptional = "Email Verification (Optional)"
    case onboardingCompletion = "Onboarding Completion"
    case recoveryInitiation = "Recovery Initiation"
    case recoveryEmail = "Recovery Email"
    case limitedAccountAccess = "Limited Account Access"
    case phoneReverification = "Phone Re-verification"
    case supportAssistedRecovery = "Support-Assisted Recovery"
    case verificationLimitations = "Verification Limitations"
    case emailRecoveryErrors = "Email Recovery Errors"
    case authenticationProgress = "Authentication Progress Indication"

    // 004: continue with phone, email, Apple or Google.
    case otpGate = "1) OTP Gate for Email and Phone"
    case socialWithoutOTP = "2) Social Login Does Not Require OTP"
    case deviceInfo = "3) Complete User and Device Info Is Always Included"
    case continueWithEmail = "A. Continue with Email (Sign In / Sign Up)"
    case continueWithPhone = "B. Continue with Phone (Sign In / Sign Up)"
    case continueWithApple = "C. Continue with Apple"
    case continueWithGoogle = "D. Continue with Google"
    case suggestedErrorMapping = "Error Handling (Suggested Mapping)"

    public var title: String { rawValue }

    public var seed: Seed {
        switch self {
        case .accountAccessHub, .reauthPicker, .enterPhoneNumber, .enterOTPCode, .countryPicker,
            .emailPasswordSubHub, .enterNewEmail, .checkYourEmail, .loadingLink, .linkExpired, .setNewPassword,
            .contactSupport, .deleteAccountInfo, .deleteBlockers, .deletingAccount, .accountDeleted,
            .deleteFinalConfirm, .disconnectProvider, .disconnectBlock, .lastMethodWarning:
            .accountAccess
        case .edgeCases, .firstLaunch, .registrationFlow, .loginFlow, .sessionPersistence,
            .emailVerificationHandling, .logoutFlow, .tokenRefresh, .logoutEndpoint, .resendVerificationEmail,
            .validationRules:
            .authFrontend
        case .welcomeScreen, .phoneNumberEntry, .smsVerification, .basicProfileForm, .recoveryEmailOption,
            .emailVerificationOptional, .onboardingCompletion, .recoveryInitiation, .recoveryEmail,
            .limitedAccountAccess, .phoneReverification, .supportAssistedRecovery, .verificationLimitations,
            .emailRecoveryErrors, .authenticationProgress:
            .phoneFirst
        case .otpGate, .socialWithoutOTP, .deviceInfo, .continueWithEmail, .continueWithPhone, .continueWithApple,
            .continueWithGoogle, .suggestedErrorMapping:
            .continueWith
        }
    }
}

extension APICall {
    /// A 401 on a signed-in call: the client's session middleware deals with it before any screen.
    public static let sessionRefused =
        "Session refused: the client refreshes it once (POST /auth/refresh) and asks again; refused again, the app signs out and the sign-in screen says \"\(OnScreenMessage.sessionExpired.text)\"."

    /// A 403 `limited_access`: the reducer answers it the same way on every screen.
    public static let limitedAccessRefused =
        "limited_access (a session from a recovery by email): the \"Verify your phone first\" sheet."
}

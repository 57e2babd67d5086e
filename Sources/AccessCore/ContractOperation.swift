/// Every operation of the contract (`Sources/AccessAPI/openapi.yaml`), by its `operationId`: the roads a rule
/// is decided on. The backend's rule policy may break a rule on named operations only, and `accessdeck conform`
/// names a verdict by the rule and the operation it was checked on. AccessCore cannot read the document, so
/// `ContractOperationTests` holds this list and the document to the same operations, methods and paths.
public enum ContractOperation: String, CaseIterable, Sendable {
    // MARK: meta
    case health, openapiDocument

    // MARK: account
    case getAuthMethods, disconnectProvider, connectProvider, deletePreflight, deleteAccount

    // MARK: session
    case refreshSession, logout, getMe, listSessions, signOutOtherSessions, signOutSession

    // MARK: sign-in, registration and password sign-in
    case startSignInCode, resendSignInCode, verifySignInCode, signInWithProvider
    case register, resendRegistrationLink, confirmRegistration, loginWithPassword

    // MARK: two-factor
    case verifyTwoFactor, useRecoveryCode, getTwoFactor, disableTwoFactor, startTwoFactorSetup
    case confirmTwoFactorSetup, regenerateRecoveryCodes

    // MARK: onboarding and recovery
    case getProfile, updateProfile, usernameAvailable, setRecoveryEmail, continueOnboarding
    case startRecovery, inspectLink, checkRecoveryLink, completeRecovery

    // MARK: phone codes and Verify it's you
    case requestOtp, resendOtp, cancelOtp, verifyOtp
    case reauthPassword, reauthEmailSend, reauthEmailConfirm, reauthSocial, reauthAuthenticator

    // MARK: passkeys (issue 53)
    case passkeyRegistrationOptions, listPasskeys, registerPasskey, renamePasskey, removePasskey
    case passkeySignInOptions, passkeySignIn, reauthPasskeyOptions, reauthPasskey

    // MARK: email and password
    case emailAvailable, requestEmailChange, addEmailWithPassword, resendEmailLink, verifyEmailLink
    case revertEmailChange, changePassword, requestPasswordReset, checkPasswordResetLink, completePasswordReset

    // MARK: the reference backend's admin API
    case adminListScenarios, adminLoadScenario, adminListWorlds, adminCreateWorld, adminDeleteWorld
    case adminDownloadWorld, adminState, adminSession, adminSignInDevice, adminOutbox, adminClock, adminSetClock
    case adminAdvanceClock, adminGetFaults, adminSetFaults, adminClearFaults, adminJournal, adminProviderToken
    case adminProviderAccounts, adminDeletions, adminTwoFactorCode
    case adminSignOutSession, adminTimeline, adminJournalCount, adminDevicePasskeys, adminRemovePasskey

    /// `METHOD /path` as the document writes them, path parameters in braces.
    public var route: (method: String, path: String) {
        switch self {
        case .health: ("GET", "/health")
        case .openapiDocument: ("GET", "/openapi.yaml")
        case .getAuthMethods: ("GET", "/me/auth-methods")
        case .disconnectProvider: ("POST", "/me/auth-methods/disconnect")
        case .connectProvider: ("POST", "/me/auth-methods/connect")
        case .deletePreflight: ("GET", "/me/delete-preflight")
        case .deleteAccount: ("DELETE", "/me")
        case .refreshSession: ("POST", "/auth/refresh")
        case .logout: ("POST", "/auth/logout")
        case .getMe: ("GET", "/auth/me")
        case .listSessions: ("GET", "/me/sessions")
        case .signOutOtherSessions: ("POST", "/me/sessions/revoke-others")
        case .signOutSession: ("DELETE", "/me/sessions/{id}")
        case .startSignInCode: ("POST", "/auth/sign-in/code")
        case .resendSignInCode: ("POST", "/auth/sign-in/code/resend")
        case .verifySignInCode: ("POST", "/auth/sign-in/code/verify")
        case .signInWithProvider: ("POST", "/auth/sign-in/provider")
        case .register: ("POST", "/auth/register")
        case .resendRegistrationLink: ("POST", "/auth/register/resend")
        case .confirmRegistration: ("POST", "/auth/register/confirm")
        case .loginWithPassword: ("POST", "/auth/login")
        case .verifyTwoFactor: ("POST", "/auth/two-factor/verify")
        case .useRecoveryCode: ("POST", "/auth/two-factor/recovery")
        case .getTwoFactor: ("GET", "/me/two-factor")
        case .disableTwoFactor: ("DELETE", "/me/two-factor")
        case .startTwoFactorSetup: ("POST", "/me/two-factor/setup")
        case .confirmTwoFactorSetup: ("POST", "/me/two-factor/confirm")
        case .regenerateRecoveryCodes: ("POST", "/me/two-factor/recovery-codes")
        case .getProfile: ("GET", "/me/profile")
        case .updateProfile: ("PUT", "/me/profile")
        case .usernameAvailable: ("GET", "/auth/username-available")
        case .setRecoveryEmail: ("POST", "/me/recovery-email")
        case .continueOnboarding: ("POST", "/me/onboarding/continue")
        case .startRecovery: ("POST", "/auth/recovery/start")
        case .inspectLink: ("POST", "/auth/links/inspect")
        case .checkRecoveryLink: ("POST", "/auth/recovery/check")
        case .completeRecovery: ("POST", "/auth/recovery/complete")
        case .requestOtp: ("POST", "/auth/phone/request-otp")
        case .resendOtp: ("POST", "/auth/phone/resend-otp")
        case .cancelOtp: ("POST", "/auth/phone/cancel-otp")
        case .verifyOtp: ("POST", "/auth/phone/verify-otp")
        case .reauthPassword: ("POST", "/auth/reauth/password")
        case .reauthEmailSend: ("POST", "/auth/reauth/email")
        case .reauthEmailConfirm: ("POST", "/auth/reauth/email/confirm")
        case .reauthSocial: ("POST", "/auth/reauth/social")
        case .reauthAuthenticator: ("POST", "/auth/reauth/authenticator")
        case .passkeyRegistrationOptions: ("POST", "/me/passkeys/registration/options")
        case .listPasskeys: ("GET", "/me/passkeys")
        case .registerPasskey: ("POST", "/me/passkeys")
        case .renamePasskey: ("PATCH", "/me/passkeys/{id}")
        case .removePasskey: ("DELETE", "/me/passkeys/{id}")
        case .passkeySignInOptions: ("POST", "/auth/passkey/options")
        case .passkeySignIn: ("POST", "/auth/passkey/verify")
        case .reauthPasskeyOptions: ("POST", "/auth/reauth/passkey/options")
        case .reauthPasskey: ("POST", "/auth/reauth/passkey")
        case .emailAvailable: ("GET", "/auth/email-available")
        case .requestEmailChange: ("POST", "/auth/email/request-change")
        case .addEmailWithPassword: ("POST", "/auth/email/add-with-password")
        case .resendEmailLink: ("POST", "/auth/email/resend")
        case .verifyEmailLink: ("POST", "/auth/email/verify")
        case .revertEmailChange: ("POST", "/auth/email/revert")
        case .changePassword: ("POST", "/auth/password/change")
        case .requestPasswordReset: ("POST", "/auth/password/reset")
        case .checkPasswordResetLink: ("POST", "/auth/password/reset/check")
        case .completePasswordReset: ("POST", "/auth/password/reset/complete")
        case .adminListScenarios: ("GET", "/_admin/scenarios")
        case .adminLoadScenario: ("POST", "/_admin/scenario")
        case .adminListWorlds: ("GET", "/_admin/worlds")
        case .adminCreateWorld: ("POST", "/_admin/worlds")
        case .adminDeleteWorld: ("DELETE", "/_admin/worlds/{name}")
        case .adminDownloadWorld: ("GET", "/_admin/worlds/{name}/file")
        case .adminState: ("GET", "/_admin/state")
        case .adminSession: ("POST", "/_admin/session")
        case .adminSignInDevice: ("POST", "/_admin/sessions")
        case .adminOutbox: ("GET", "/_admin/outbox")
        case .adminClock: ("GET", "/_admin/clock")
        case .adminSetClock: ("POST", "/_admin/clock")
        case .adminAdvanceClock: ("POST", "/_admin/clock/advance")
        case .adminGetFaults: ("GET", "/_admin/faults")
        case .adminSetFaults: ("POST", "/_admin/faults")
        case .adminClearFaults: ("DELETE", "/_admin/faults")
        case .adminJournal: ("GET", "/_admin/journal")
        case .adminJournalCount: ("GET", "/_admin/journal/count")
        case .adminProviderToken: ("POST", "/_admin/provider/{provider}/token")
        case .adminProviderAccounts: ("GET", "/_admin/provider/{provider}/accounts")
        case .adminDeletions: ("GET", "/_admin/deletions")
        case .adminTwoFactorCode: ("GET", "/_admin/two-factor/code")
        case .adminSignOutSession: ("DELETE", "/_admin/sessions/{id}")
        case .adminTimeline: ("GET", "/_admin/timeline")
        case .adminDevicePasskeys: ("GET", "/_admin/device/passkeys")
        case .adminRemovePasskey: ("DELETE", "/_admin/passkeys/{id}")
        }
    }

    /// How RULES.md, conform's verdicts and its JUnit testcases write it: the path, with the method before it
    /// when another operation shares the path (`DELETE /me/two-factor`, `PUT /me/profile`).
    public var name: String {
        let (method, path) = route
        let shared = Self.allCases.contains { $0 != self && $0.route.path == path }
        return shared ? "\(method) \(path)" : path
    }

    /// The operation a request asks for: `path` without its query, a world's `/w/NAME` already taken off, as
    /// the routes see it. nil for a path the contract does not have. HEAD is its GET (the server answers it so).
    public static func matching(method: String, path: String) -> ContractOperation? {
        let method = method == "HEAD" ? "GET" : method
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return allCases.first { operation in
            let (routeMethod, template) = operation.route
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            guard routeMethod == method, parts.count == segments.count else { return false }
            return zip(parts, segments).allSatisfy { part, segment in
                part == segment || (part.first == "{" && part.last == "}" && !segment.isEmpty)
            }
        }
    }
}

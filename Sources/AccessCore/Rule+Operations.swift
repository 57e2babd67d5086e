extension Rule {
    /// The roads a rule is decided on: the operations of openapi.yaml whose answer it can decide, as the journal
    /// names it for that request. A send limit is decided on every operation that sends to the address or counts
    /// for the client or account; a code's rules on every operation that sends, resends or checks that kind of
    /// code; a link's on every operation that opens or checks that kind of link; a guard on every operation it
    /// stands in front of. docs/RULES.md lists them under each rule (RulesDocumentTests keeps the two in step),
    /// and `accessdeck conform` checks the rule on each, one verdict per rule and operation.
    ///
    /// Empty for `ok`, for the rules of the request itself (`http`), which the gateway decides before any
    /// operation is chosen, and for QA's faults (`fault`), which answer for whatever path QA names.
    public var operations: [ContractOperation] {
        switch self {
        case .ok: []
        case .httpBadRequest, .httpPathNotCanonical, .httpHostMissing, .httpHostNotAllowed, .httpOriginNotAllowed,
            .httpUnsupportedMediaType, .httpPayloadTooLarge, .httpNotFound, .httpMethodNotAllowed, .httpMethod,
            .httpInvalidField, .httpInvalidParameter, .httpInternal:
            []
        case .faultOffline503, .faultOfflineDrop, .faultUnavailable, .faultOffline, .faultTimeout,
            .faultCommitThenFail, .faultStatus, .faultBody, .faultMalformed, .faultReset:
            []

        // MARK: admin
        case .adminUnauthorized: ContractOperation.admin
        case .adminClock: [.adminSetClock, .adminAdvanceClock]
        case .adminInvalidParameter: [.adminJournal, .adminJournalCount]
        case .adminScenario: [.adminLoadScenario, .adminCreateWorld]
        case .adminScenarioInvalid: [.adminListScenarios]
        case .adminSignedOutScenario: [.adminSession]
        case .adminNoScenario, .adminAccountDeleted: [.adminSession, .adminSignInDevice]
        case .adminOutboxInvalid: [.adminOutbox]
        case .adminNoTwoFactor: [.adminTwoFactorCode]
        case .adminWorldName: [.adminCreateWorld, .adminDeleteWorld, .adminDownloadWorld]
        case .adminUnknownWorld: [.adminDeleteWorld, .adminDownloadWorld]
        case .adminWorldExists, .adminWorldLimit, .adminWorldFile: [.adminCreateWorld]
        case .adminWorldDefault: [.adminCreateWorld, .adminDeleteWorld]
        case .adminWorldFault, .invalidFault: [.adminSetFaults]

        // MARK: rate_limit
        case .rateLimitCooldown, .rateLimitDailyCap: ContractOperation.sendingToAnAddress
        case .rateLimitResendWindow:
            [
                .startSignInCode, .resendSignInCode, .resendRegistrationLink, .requestOtp, .resendOtp,
                .reauthEmailSend, .requestEmailChange, .addEmailWithPassword, .resendEmailLink,
            ]
        case .rateLimitClientAddressHourly, .rateLimitGlobalHourly:
            ContractOperation.sendingToAnAddress + [.startRecovery]
        case .rateLimitAccountHourly:
            [
                .setRecoveryEmail, .requestOtp, .resendOtp, .reauthEmailSend, .requestEmailChange,
                .addEmailWithPassword, .resendEmailLink,
            ]
        case .rateLimitPasswordAttempts: [.reauthPassword]
        case .rateLimitLoginLockout: [.loginWithPassword, .completeRecovery]
        case .rateLimitTwoFactorAttempts: [.verifyTwoFactor, .useRecoveryCode, .reauthAuthenticator]

        // MARK: session
        case .sessionInvalid: ContractOperation.signedIn
        case .sessionRevoked: ContractOperation.signedIn + [.refreshSession]
        case .sessionRefreshed, .sessionRefreshRetried, .sessionRefreshReused, .sessionRefreshInvalid:
            [.refreshSession]
        case .sessionLogout: [.logout]
        case .sessionSignedOut, .sessionNotFound, .sessionCurrent: [.signOutSession]
        case .sessionSignedOutOthers: [.signOutOtherSessions]

        // MARK: signin and device
        case .signInCodeSent: [.startSignInCode]
        case .signInCodeResent, .signInRequestClosed: [.resendSignInCode]
        case .signInSignedIn, .signInSignedUp: [.verifySignInCode, .signInWithProvider]
        case .signInChallengeUnknown: [.resendSignInCode, .verifySignInCode]
        case .signInCodeIncorrect, .signInCodeIncorrectExhausted, .signInDisplayNameInvalid: [.verifySignInCode]
        case .signInProviderTokenInvalid: [.signInWithProvider]
        case .deviceInvalid:
            [
                .startSignInCode, .verifySignInCode, .signInWithProvider, .register, .loginWithPassword,
                .startRecovery, .completeRecovery, .adminSignInDevice, .passkeySignIn,
            ]

        // MARK: register and login
        case .registerLinkSent, .registerEmailTaken: [.register]
        case .registerResendAnswered: [.resendRegistrationLink]
        case .registerConfirmed: [.confirmRegistration]
        case .loginSignedIn, .loginCredentialsInvalid, .loginEmailUnverified, .loginLocked: [.loginWithPassword]

        // MARK: onboarding, profile, username
        case .onboardingRecoveryEmailSet, .onboardingEmailAlreadySet: [.setRecoveryEmail]
        case .onboardingContinued, .onboardingStepNotReached, .onboardingProfileRequired,
            .onboardingAlreadyComplete:
            [.continueOnboarding]
        case .profileSaved, .profilePhotoInvalid: [.updateProfile]
        case .usernameAvailable: [.usernameAvailable]
        case .usernameTaken, .usernameInvalid: [.usernameAvailable, .updateProfile]

        // MARK: recovery
        case .recoveryAnswered, .recoveryCooldown, .recoveryDailyCap: [.startRecovery]
        case .recoveryLinkLive: [.checkRecoveryLink]
        case .recoveryLinkUnknown, .recoveryLinkExpired: [.checkRecoveryLink, .completeRecovery]
        case .recoveryCredentialsInvalid, .recoveryLocked, .recoverySignedInLimited: [.completeRecovery]
        case .recoveryLimitedAccess: ContractOperation.refusedToALimitedSession

        // MARK: otp and phone
        case .otpSent, .otpReverifyNotLimited, .phoneUnchanged: [.requestOtp]
        case .otpResent: [.resendOtp]
        case .otpCancelled: [.cancelOtp]
        case .otpVerified, .otpCodeIncorrect, .otpCodeIncorrectExhausted: [.verifyOtp]
        case .otpExpired: [.verifyOtp, .verifySignInCode]
        case .otpRequestClosed: [.resendOtp, .cancelOtp]
        case .otpRequestUnknown: [.resendOtp, .cancelOtp, .verifyOtp]
        case .phoneInvalid: [.startSignInCode, .requestOtp]
        case .phoneTaken: [.requestOtp, .verifyOtp]

        // MARK: reauth and link
        case .reauthRequired:
            [
                .requestOtp, .verifyOtp, .disconnectProvider, .deleteAccount, .signOutSession, .signOutOtherSessions,
                .startTwoFactorSetup, .regenerateRecoveryCodes, .disableTwoFactor, .requestEmailChange,
                .changePassword, .removePasskey,
            ]
        case .reauthGrantByTarget:
            [.requestOtp, .verifyOtp, .disconnectProvider, .requestEmailChange, .changePassword, .removePasskey]
        case .reauthGranted:
            [.reauthPassword, .reauthEmailConfirm, .reauthSocial, .reauthAuthenticator, .reauthPasskey]
        case .reauthMethodUnavailable:
            [
                .requestOtp, .reauthPassword, .reauthEmailSend, .reauthSocial, .reauthAuthenticator,
                .reauthPasskeyOptions,
            ]
        case .reauthPhoneMismatch: [.requestOtp]
        case .reauthPasswordIncorrect: [.reauthPassword]
        case .reauthProviderTokenInvalid: [.reauthSocial]
        case .linkSent: [.reauthEmailSend]
        case .linkExpired:
            [
                .reauthEmailConfirm, .confirmRegistration, .verifyEmailLink, .revertEmailChange,
                .checkPasswordResetLink, .completePasswordReset,
            ]
        case .linkSuperseded:
            [
                .reauthEmailConfirm, .confirmRegistration, .verifyEmailLink, .checkRecoveryLink, .completeRecovery,
                .checkPasswordResetLink, .completePasswordReset,
            ]
        case .linkUnknown:
            [
                .reauthEmailConfirm, .confirmRegistration, .verifyEmailLink, .revertEmailChange,
                .checkPasswordResetLink, .completePasswordReset, .inspectLink,
            ]
        case .linkInspected: [.inspectLink]

        // MARK: email and password
        case .emailAvailable: [.emailAvailable]
        case .emailTaken:
            [
                .emailAvailable, .requestEmailChange, .addEmailWithPassword, .verifyEmailLink, .revertEmailChange,
                .setRecoveryEmail,
            ]
        case .emailInvalid:
            [
                .startSignInCode, .register, .resendRegistrationLink, .loginWithPassword, .setRecoveryEmail,
                .startRecovery, .emailAvailable, .requestEmailChange, .addEmailWithPassword, .requestPasswordReset,
            ]
        case .emailUnchanged, .emailChangeWithoutEmail: [.requestEmailChange]
        case .emailAddWithEmail: [.addEmailWithPassword]
        case .emailLinkSent: [.requestEmailChange, .addEmailWithPassword]
        case .emailLinkResent, .emailNothingPending: [.resendEmailLink]
        case .emailChanged: [.verifyEmailLink]
        case .emailReverted: [.revertEmailChange]
        case .passwordChanged, .passwordWithoutEmail: [.changePassword]
        case .passwordInvalid:
            [.register, .setRecoveryEmail, .addEmailWithPassword, .changePassword, .completePasswordReset]
        case .passwordTooLong:
            [
                .register, .loginWithPassword, .setRecoveryEmail, .completeRecovery, .addEmailWithPassword,
                .changePassword, .completePasswordReset,
            ]
        case .passwordResetAnswered: [.requestPasswordReset]
        case .passwordResetLinkLive: [.checkPasswordResetLink]
        case .passwordReset: [.completePasswordReset]

        // MARK: connect and disconnect
        case .connectDone, .connectAlreadyLinked, .connectProviderTokenInvalid, .connectProviderTaken:
            [.connectProvider]
        case .disconnectDone, .disconnectNotLinked, .disconnectLastMethod: [.disconnectProvider]

        // MARK: delete and hold
        case .deletePreflightClear, .deletePreflightBlocked: [.deletePreflight]
        case .deleteBlocked, .deleteDone: [.deleteAccount]
        case .holdPhoneRecentlyDeleted: [.startSignInCode, .verifySignInCode, .requestOtp, .verifyOtp]
        case .holdEmailRecentlyDeleted:
            [
                .startSignInCode, .verifySignInCode, .register, .setRecoveryEmail, .requestEmailChange,
                .addEmailWithPassword, .verifyEmailLink, .revertEmailChange,
            ]
        case .holdProviderRecentlyDeleted: [.signInWithProvider, .connectProvider]

        // MARK: two_factor
        case .twoFactorRequired: ContractOperation.refusedBeforeTheSecondFactor
        case .twoFactorSetupStarted: [.startTwoFactorSetup]
        case .twoFactorSetupNotFound, .twoFactorSetupExhausted, .twoFactorEnabled: [.confirmTwoFactorSetup]
        case .twoFactorAlreadyEnabled: [.startTwoFactorSetup, .confirmTwoFactorSetup]
        case .twoFactorNotEnabled: [.verifyTwoFactor, .useRecoveryCode, .regenerateRecoveryCodes, .disableTwoFactor]
        case .twoFactorCodeIncorrect: [.verifyTwoFactor, .confirmTwoFactorSetup, .reauthAuthenticator]
        case .twoFactorCodeReplayed: [.verifyTwoFactor, .reauthAuthenticator]
        case .twoFactorLocked: [.verifyTwoFactor, .useRecoveryCode, .reauthAuthenticator]
        case .twoFactorPassed: [.verifyTwoFactor]
        case .twoFactorRecoveryCodeUsed, .twoFactorRecoveryCodeInvalid: [.useRecoveryCode]
        case .twoFactorRecoveryCodesRegenerated: [.regenerateRecoveryCodes]
        case .twoFactorDisabled: [.disableTwoFactor]

        // MARK: passkey
        case .passkeyRegistered: [.registerPasskey]
        case .passkeySignedIn: [.passkeySignIn]
        case .passkeyRefused, .passkeyChallengeExpired: [.registerPasskey, .passkeySignIn, .reauthPasskey]
        case .passkeyNotFound: [.passkeySignIn, .reauthPasskey, .renamePasskey, .removePasskey]
        case .passkeyCloned: [.passkeySignIn, .reauthPasskey]
        case .passkeyRenamed: [.renamePasskey]
        case .passkeyRemoved, .passkeyLastMethod: [.removePasskey]
        }
    }
}

extension ContractOperation {
    /// The reference backend's admin API (`/_admin`).
    public static var admin: [ContractOperation] { allCases.filter { $0.route.path.hasPrefix("/_admin/") } }

    /// Every operation that texts or emails a code or a link to a phone number or an address the request names
    /// or the account has: what the send limits per address count. (A recovery request has limits of its own.)
    public static let sendingToAnAddress: [ContractOperation] = [
        .startSignInCode, .resendSignInCode, .register, .resendRegistrationLink, .setRecoveryEmail, .requestOtp,
        .resendOtp, .reauthEmailSend, .requestEmailChange, .addEmailWithPassword, .resendEmailLink,
        .requestPasswordReset,
    ]

    /// Every operation a bearer access token authenticates.
    public static let signedIn: [ContractOperation] = [
        .getAuthMethods, .disconnectProvider, .connectProvider, .deletePreflight, .deleteAccount, .logout, .getMe,
        .listSessions, .signOutOtherSessions, .signOutSession, .verifyTwoFactor, .useRecoveryCode, .getTwoFactor,
        .disableTwoFactor, .startTwoFactorSetup, .confirmTwoFactorSetup, .regenerateRecoveryCodes, .getProfile,
        .updateProfile, .usernameAvailable, .setRecoveryEmail, .continueOnboarding, .requestOtp, .resendOtp,
        .cancelOtp, .verifyOtp, .reauthPassword, .reauthEmailSend, .reauthEmailConfirm, .reauthSocial,
        .reauthAuthenticator, .emailAvailable, .requestEmailChange, .addEmailWithPassword, .resendEmailLink,
        .changePassword, .passkeyRegistrationOptions, .listPasskeys, .registerPasskey, .renamePasskey,
        .removePasskey, .reauthPasskeyOptions, .reauthPasskey,
    ]

    /// What a session that passed one factor of an account with two-factor on may not call: all but passing
    /// the second step and logging out (refreshing needs no session).
    public static var refusedBeforeTheSecondFactor: [ContractOperation] {
        signedIn.filter { ![.verifyTwoFactor, .useRecoveryCode, .logout].contains($0) }
    }

    /// What a session with limited access (recovered by email) may not call: every change but its profile and
    /// re-verifying a phone, and the reads but its auth methods, its profile, a username and its sessions. The
    /// phone code operations refuse it every purpose but `reverify_phone`.
    public static var refusedToALimitedSession: [ContractOperation] {
        let allowed: [ContractOperation] = [
            .getAuthMethods, .logout, .getMe, .listSessions, .verifyTwoFactor, .useRecoveryCode, .getProfile,
            .updateProfile, .usernameAvailable,
        ]
        return signedIn.filter { !allowed.contains($0) }
    }
}

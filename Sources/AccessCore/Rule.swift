/// Every rule the reference backend decides a request by. Its id is what the journal's `rule` names for each
/// request (`GET /_admin/journal`), what the app's journal panel and spec notes show, and a heading of
/// docs/RULES.md, which says each rule with its numbers. The backend names a rule only through this
/// catalogue, so an id cannot be misspelt or made up on the spot.
///
/// Ids are `family.name`, but for `ok` and `invalid_fault` (kept as the journal has always written them).
public enum Rule: String, CaseIterable, Sendable {
    // MARK: Answered as asked

    case ok

    // MARK: http: the request itself, before any account rule

    case httpBadRequest = "http.bad_request"
    case httpPathNotCanonical = "http.path_not_canonical"
    case httpHostMissing = "http.host_missing"
    case httpHostNotAllowed = "http.host_not_allowed"
    case httpOriginNotAllowed = "http.origin_not_allowed"
    case httpUnsupportedMediaType = "http.unsupported_media_type"
    case httpPayloadTooLarge = "http.payload_too_large"
    case httpNotFound = "http.not_found"
    case httpMethodNotAllowed = "http.method_not_allowed"
    case httpMethod = "http.method"
    case httpInvalidField = "http.invalid_field"
    case httpInvalidParameter = "http.invalid_parameter"
    case httpInternal = "http.internal"

    // MARK: admin: the admin API (/_admin)

    case adminUnauthorized = "admin.unauthorized"
    case adminClock = "admin.clock"
    case adminInvalidParameter = "admin.invalid_parameter"
    case adminScenario = "admin.scenario"
    case adminScenarioInvalid = "admin.scenario_invalid"
    case adminSignedOutScenario = "admin.signed_out_scenario"
    case adminNoScenario = "admin.no_scenario"
    case adminAccountDeleted = "admin.account_deleted"
    case adminOutboxInvalid = "admin.outbox_invalid"
    case adminNoTwoFactor = "admin.no_two_factor"
    case adminWorldName = "admin.world_name"
    case adminUnknownWorld = "admin.unknown_world"
    case adminWorldExists = "admin.world_exists"
    case adminWorldLimit = "admin.world_limit"
    case adminWorldDefault = "admin.world_default"
    case adminWorldFile = "admin.world_file"
    case adminWorldFault = "admin.world_fault"
    case invalidFault = "invalid_fault"

    // MARK: fault: failures QA switched on

    case faultOffline503 = "fault.offline_503"
    case faultOfflineDrop = "fault.offline_drop"
    case faultUnavailable = "fault.unavailable"
    case faultOffline = "fault.offline"
    case faultTimeout = "fault.timeout"
    case faultCommitThenFail = "fault.commit_then_fail"
    case faultStatus = "fault.status"
    case faultBody = "fault.body"
    case faultMalformed = "fault.malformed"
    case faultReset = "fault.reset"

    // MARK: rate_limit: how often codes, links and passwords may be tried

    case rateLimitCooldown = "rate_limit.cooldown"
    case rateLimitResendWindow = "rate_limit.resend_window"
    case rateLimitDailyCap = "rate_limit.daily_cap"
    case rateLimitClientAddressHourly = "rate_limit.client_address_hourly"
    case rateLimitAccountHourly = "rate_limit.account_hourly"
    case rateLimitGlobalHourly = "rate_limit.global_hourly"
    case rateLimitPasswordAttempts = "rate_limit.password_attempts"
    case rateLimitLoginLockout = "rate_limit.login_lockout"
    case rateLimitTwoFactorAttempts = "rate_limit.two_factor_attempts"

    // MARK: session: access and refresh tokens

    case sessionInvalid = "session.invalid"
    case sessionRefreshed = "session.refreshed"
    case sessionRefreshRetried = "session.refresh_retried"
    case sessionRefreshReused = "session.refresh_reused"
    case sessionRefreshInvalid = "session.refresh_invalid"
    case sessionLogout = "session.logout"
    // Active sessions (issue 30).
    case sessionRevoked = "session.revoked"
    case sessionSignedOut = "session.signed_out"
    case sessionSignedOutOthers = "session.signed_out_others"
    case sessionNotFound = "session.not_found"
    case sessionCurrent = "session.current"

    // MARK: signin: Continue with phone, email, Apple or Google

    case signInCodeSent = "signin.code_sent"
    case signInCodeResent = "signin.code_resent"
    case signInSignedIn = "signin.signed_in"
    case signInSignedUp = "signin.signed_up"
    case signInChallengeUnknown = "signin.challenge_unknown"
    case signInRequestClosed = "signin.request_closed"
    case signInCodeIncorrect = "signin.code_incorrect"
    case signInCodeIncorrectExhausted = "signin.code_incorrect_exhausted"
    case signInProviderTokenInvalid = "signin.provider_token_invalid"
    case signInDisplayNameInvalid = "signin.display_name_invalid"

    // MARK: device: the device a sign-in names

    case deviceInvalid = "device.invalid"

    // MARK: register and login: email & password

    case registerLinkSent = "register.link_sent"
    case registerResendAnswered = "register.resend_answered"
    case registerConfirmed = "register.confirmed"
    case registerEmailTaken = "register.email_taken"
    case loginSignedIn = "login.signed_in"
    case loginCredentialsInvalid = "login.credentials_invalid"
    case loginEmailUnverified = "login.email_unverified"
    case loginLocked = "login.locked"

    // MARK: onboarding, profile, username: a new account's first steps

    case onboardingRecoveryEmailSet = "onboarding.recovery_email_set"
    case onboardingContinued = "onboarding.continued"
    case onboardingEmailAlreadySet = "onboarding.email_already_set"
    case onboardingStepNotReached = "onboarding.step_not_reached"
    case onboardingProfileRequired = "onboarding.profile_required"
    case onboardingAlreadyComplete = "onboarding.already_complete"
    case profileSaved = "profile.saved"
    case profilePhotoInvalid = "profile.photo_invalid"
    case usernameAvailable = "username.available"
    case usernameTaken = "username.taken"
    case usernameInvalid = "username.invalid"

    // MARK: recovery: Can't access your account?

    case recoveryAnswered = "recovery.answered"
    case recoveryCooldown = "recovery.cooldown"
    case recoveryDailyCap = "recovery.daily_cap"
    case recoveryLinkLive = "recovery.link_live"
    case recoveryLinkUnknown = "recovery.link_unknown"
    case recoveryLinkExpired = "recovery.link_expired"
    case recoveryCredentialsInvalid = "recovery.credentials_invalid"
    case recoveryLocked = "recovery.locked"
    case recoverySignedInLimited = "recovery.signed_in_limited"
    case recoveryLimitedAccess = "recovery.limited_access"

    // MARK: otp and phone: codes texted to a signed-in account's phone

    case otpSent = "otp.sent"
    case otpResent = "otp.resent"
    case otpCancelled = "otp.cancelled"
    case otpVerified = "otp.verified"
    case otpExpired = "otp.expired"
    case otpRequestClosed = "otp.request_closed"
    case otpRequestUnknown = "otp.request_unknown"
    case otpCodeIncorrect = "otp.code_incorrect"
    case otpCodeIncorrectExhausted = "otp.code_incorrect_exhausted"
    case otpReverifyNotLimited = "otp.reverify_not_limited"
    case phoneInvalid = "phone.invalid"
    case phoneUnchanged = "phone.unchanged"
    case phoneTaken = "phone.taken"

    // MARK: reauth and link: Verify it's you

    case reauthRequired = "reauth.required"
    case reauthGranted = "reauth.granted"
    case reauthGrantByTarget = "reauth.grant_by_target"
    case reauthMethodUnavailable = "reauth.method_unavailable"
    case reauthPhoneMismatch = "reauth.phone_mismatch"
    case reauthPasswordIncorrect = "reauth.password_incorrect"
    case reauthProviderTokenInvalid = "reauth.provider_token_invalid"
    case linkSent = "link.sent"
    case linkExpired = "link.expired"
    case linkSuperseded = "link.superseded"
    case linkUnknown = "link.unknown"
    case linkInspected = "link.inspected"

    // MARK: email and password: changing them

    case emailAvailable = "email.available"
    case emailTaken = "email.taken"
    case emailInvalid = "email.invalid"
    case emailUnchanged = "email.unchanged"
    case emailChangeWithoutEmail = "email.change_without_email"
    case emailAddWithEmail = "email.add_with_email"
    case emailLinkSent = "email.link_sent"
    case emailLinkResent = "email.link_resent"
    case emailNothingPending = "email.nothing_pending"
    case emailChanged = "email.changed"
    case emailReverted = "email.reverted"
    case passwordChanged = "password.changed"
    case passwordInvalid = "password.invalid"
    case passwordTooLong = "password.too_long"
    case passwordWithoutEmail = "password.without_email"
    case passwordResetAnswered = "password.reset_answered"
    case passwordResetLinkLive = "password.reset_link_live"
    case passwordReset = "password.reset"

    // MARK: connect and disconnect: Apple and Google

    case connectDone = "connect.done"
    case connectAlreadyLinked = "connect.already_linked"
    case connectProviderTokenInvalid = "connect.provider_token_invalid"
    case connectProviderTaken = "connect.provider_taken"
    case disconnectDone = "disconnect.done"
    case disconnectNotLinked = "disconnect.not_linked"
    case disconnectLastMethod = "disconnect.last_method"

    // MARK: delete and hold: deleting the account, and what it keeps from new claims

    case deletePreflightClear = "delete.preflight_clear"
    case deletePreflightBlocked = "delete.preflight_blocked"
    case deleteBlocked = "delete.blocked"
    case deleteDone = "delete.done"
    case holdPhoneRecentlyDeleted = "hold.phone_recently_deleted"
    case holdEmailRecentlyDeleted = "hold.email_recently_deleted"
    case holdProviderRecentlyDeleted = "hold.provider_recently_deleted"

    // MARK: two_factor: the authenticator app and recovery codes (issue 31)

    case twoFactorRequired = "two_factor.required"
    case twoFactorSetupStarted = "two_factor.setup_started"
    case twoFactorSetupNotFound = "two_factor.setup_not_found"
    case twoFactorSetupExhausted = "two_factor.setup_exhausted"
    case twoFactorEnabled = "two_factor.enabled"
    case twoFactorAlreadyEnabled = "two_factor.already_enabled"
    case twoFactorNotEnabled = "two_factor.not_enabled"
    case twoFactorCodeIncorrect = "two_factor.code_incorrect"
    case twoFactorCodeReplayed = "two_factor.code_replayed"
    case twoFactorLocked = "two_factor.locked"
    case twoFactorPassed = "two_factor.passed"
    case twoFactorRecoveryCodeUsed = "two_factor.recovery_code_used"
    case twoFactorRecoveryCodeInvalid = "two_factor.recovery_code_invalid"
    case twoFactorRecoveryCodesRegenerated = "two_factor.recovery_codes_regenerated"
    case twoFactorDisabled = "two_factor.disabled"

    // MARK: passkey: WebAuthn passkeys (issue 53)

    case passkeyRegistered = "passkey.registered"
    case passkeySignedIn = "passkey.signed_in"
    case passkeyRefused = "passkey.refused"
    case passkeyChallengeExpired = "passkey.challenge_expired"
    case passkeyNotFound = "passkey.not_found"
    case passkeyCloned = "passkey.cloned"
    case passkeyRenamed = "passkey.renamed"
    case passkeyRemoved = "passkey.removed"
    case passkeyLastMethod = "passkey.last_method"
}

extension Rule {
    /// The part of the id before the dot: what docs/RULES.md groups the rules by.
    public enum Family: String, CaseIterable, Sendable {
        case ok, http, admin, fault
        case rateLimit = "rate_limit"
        case session
        case signIn = "signin"
        case device, register, login, onboarding, profile, username, recovery, otp, phone, reauth, link, email
        case password, connect, disconnect, delete, hold
        case twoFactor = "two_factor"
        case passkey
    }

    /// The longest rule id's length: lists of rules (conform's report, the app's panel) pad ids to it so none
    /// is cut.
    public static let longestID = allCases.map(\.rawValue.count).max() ?? 0

    public var family: Family {
        // `invalid_fault` predates the families; it is the admin API's refusal of a fault.
        if self == .invalidFault { return .admin }
        let prefix = rawValue.split(separator: ".", maxSplits: 1).first.map(String.init) ?? rawValue
        guard let family = Family(rawValue: prefix) else { preconditionFailure("\(rawValue) has no family") }
        return family
    }

    /// One line in our words; docs/RULES.md says each rule in full, with its numbers.
    public var summary: String {
        switch self {
        case .ok: return "Answered as asked: no rule stood in the way."
        case .httpBadRequest:
            return "The request is not what the contract describes (its JSON, a parameter, its framing)."
        case .httpPathNotCanonical:
            return "The path is not written plainly (empty, . or .. segments, percent-encoding)."
        case .httpHostMissing: return "The request has no Host header, two, or one that is not host[:port]."
        case .httpHostNotAllowed: return "A loopback server answers only loopback names in Host."
        case .httpOriginNotAllowed: return "A web page may neither use the admin API nor change anything."
        case .httpUnsupportedMediaType: return "A request body must be sent as application/json."
        case .httpPayloadTooLarge: return "The request body is larger than the server reads."
        case .httpNotFound: return "No such endpoint."
        case .httpMethodNotAllowed: return "The path exists, but not for this method."
        case .httpMethod: return "The framework refused the method."
        case .httpInvalidField: return "A body field is missing, null or out of its bounds."
        case .httpInvalidParameter: return "A query parameter is out of its bounds."
        case .httpInternal: return "Something failed inside the server."
        case .adminUnauthorized: return "The admin API needs this server's admin token."
        case .adminClock: return "The clock moves by 0 seconds to a year, or to the next deadline."
        case .adminInvalidParameter: return "The journal's limit is out of range, or one of its filters does not read."
        case .adminScenario: return "No scenario by that name, or it does not load."
        case .adminScenarioInvalid: return "A scenario file in fixtures does not read."
        case .adminSignedOutScenario: return "This scenario starts signed out: no QA session."
        case .adminNoScenario: return "No scenario is loaded, so there is nobody to sign in as."
        case .adminAccountDeleted: return "The scenario's user deleted their account."
        case .adminOutboxInvalid: return "The outbox holds a message the contract cannot describe."
        case .adminNoTwoFactor: return "That account has no two-factor, so no current code."
        case .adminWorldName: return "A world's name is lower-case letters, digits and -, at most 40."
        case .adminUnknownWorld: return "No world by that name, open or kept."
        case .adminWorldExists: return "A world by that name exists already."
        case .adminWorldLimit: return "The server holds as many worlds as --max-worlds allows."
        case .adminWorldDefault: return "The default world cannot be deleted or replaced."
        case .adminWorldFile: return "An uploaded world file is not one this server can open."
        case .adminWorldFault: return "Only the default world may stop the whole port (offline: refused)."
        case .invalidFault: return "A fault setting is out of its bounds."
        case .faultOffline503: return "Offline fault: every request answers 503."
        case .faultOfflineDrop: return "Offline fault: every connection closes unanswered."
        case .faultUnavailable: return "Endpoint fault: this path answers 503."
        case .faultOffline: return "Endpoint fault: this path's connection closes unanswered."
        case .faultTimeout: return "Endpoint fault: this path never answers."
        case .faultCommitThenFail: return "Endpoint fault: the request ran and committed, then the connection closed."
        case .faultStatus: return "Status fault: this path answers the status QA chose."
        case .faultBody: return "Body fault: this path answers 200 with the JSON QA chose, without running."
        case .faultMalformed: return "Malformed fault: this path answers a body the contract does not describe."
        case .faultReset: return "Reset fault: the connection drops halfway through this path's answer."
        case .rateLimitCooldown: return "One address gets one code or link per cooldown."
        case .rateLimitResendWindow: return "One address gets a few resends per window."
        case .rateLimitDailyCap: return "One address gets a few sends per day."
        case .rateLimitClientAddressHourly: return "One client address asks for a capped number of sends an hour."
        case .rateLimitAccountHourly: return "One signed-in account asks for a capped number of sends an hour."
        case .rateLimitGlobalHourly: return "The whole server sends a capped number of texts and emails an hour."
        case .rateLimitPasswordAttempts: return "Too many wrong passwords for Verify it's you."
        case .rateLimitLoginLockout: return "Password sign-in for this address waits out its lock."
        case .rateLimitTwoFactorAttempts: return "The account's two-factor step waits out its lock."
        case .sessionInvalid: return "No live session behind the access token."
        case .sessionRefreshed: return "The refresh token was rotated into a new pair."
        case .sessionRefreshRetried:
            return "A just-rotated refresh token, again within the reuse interval: the same pair."
        case .sessionRefreshReused: return "A rotated refresh token came back: its sign-in's sessions end."
        case .sessionRefreshInvalid: return "The refresh token is unknown, expired or signed out."
        case .sessionLogout: return "This device's session ended."
        case .sessionRevoked: return "The session was signed out from another device: its calls are refused."
        case .sessionSignedOut: return "One other session of the account was signed out."
        case .sessionSignedOutOthers: return "Every session of the account but the caller's was signed out."
        case .sessionNotFound: return "No live session of the account has that id."
        case .sessionCurrent: return "This device's own session is ended by logging out, not from the list."
        case .signInCodeSent: return "A sign-in code went to the phone or address."
        case .signInCodeResent: return "A new sign-in code replaced the last one."
        case .signInSignedIn: return "An existing account signed in."
        case .signInSignedUp: return "A new account was made and signed in."
        case .signInChallengeUnknown: return "No such sign-in code request."
        case .signInRequestClosed: return "The sign-in code request was used or replaced."
        case .signInCodeIncorrect: return "Wrong sign-in code; tries remain."
        case .signInCodeIncorrectExhausted: return "Wrong sign-in code, the last try: the code is dead."
        case .signInProviderTokenInvalid: return "The Apple or Google token is not one to sign in with."
        case .deviceInvalid: return "The device's fields or public key are malformed."
        case .signInDisplayNameInvalid: return "A display name, trimmed, takes 1 to 50 characters."
        case .registerLinkSent: return "The account was registered; its confirmation link went out."
        case .registerResendAnswered: return "The same answer whether or not an account waits for the address."
        case .registerConfirmed: return "The registration link proved the address."
        case .registerEmailTaken: return "An account already has this email."
        case .loginSignedIn: return "Email and password signed in."
        case .loginCredentialsInvalid: return "Invalid email or password, never saying which."
        case .loginEmailUnverified: return "The address's registration link has not been opened yet."
        case .loginLocked: return "This failure started a lock on the address."
        case .onboardingRecoveryEmailSet: return "The recovery email and its password were kept; the link went out."
        case .onboardingContinued: return "The account moved past an onboarding step."
        case .onboardingEmailAlreadySet: return "The account already has an email."
        case .onboardingStepNotReached: return "The account has not reached that step."
        case .onboardingProfileRequired: return "The profile step cannot be skipped."
        case .onboardingAlreadyComplete: return "Onboarding is already complete."
        case .profileSaved: return "The username and photo were saved."
        case .profilePhotoInvalid: return "The photo is empty or too long."
        case .usernameAvailable: return "Nobody else has this username."
        case .usernameTaken: return "Another account has this username."
        case .usernameInvalid: return "The username breaks the username rules."
        case .recoveryAnswered: return "The same answer whether or not the address has an account."
        case .recoveryCooldown: return "Recovery emails to one address are spaced out."
        case .recoveryDailyCap: return "One address gets a few recovery emails a day."
        case .recoveryLinkLive: return "The recovery link still works."
        case .recoveryLinkUnknown: return "No such recovery link."
        case .recoveryLinkExpired: return "The recovery link was used, replaced or is past its lifetime."
        case .recoveryCredentialsInvalid: return "Wrong password with the recovery link."
        case .recoveryLocked: return "This failure with the recovery link started a lock on the address."
        case .recoverySignedInLimited: return "The recovery signed in with limited access."
        case .recoveryLimitedAccess: return "A limited session may not make this change."
        case .otpSent: return "A code went to the phone."
        case .otpResent: return "A new code replaced the last one."
        case .otpCancelled: return "The code stopped working: its screen was left."
        case .otpVerified: return "The right code: its purpose was carried out."
        case .otpExpired: return "The code is past its lifetime, dead, used or cancelled."
        case .otpRequestClosed: return "The code request was used or cancelled."
        case .otpRequestUnknown: return "No such code request for this account."
        case .otpCodeIncorrect: return "Wrong code; tries remain."
        case .otpCodeIncorrectExhausted: return "Wrong code, the last try: the code is dead."
        case .otpReverifyNotLimited: return "Only a limited session re-verifies a phone."
        case .phoneInvalid: return "Not a valid phone number."
        case .phoneUnchanged: return "That is already the account's number."
        case .phoneTaken: return "Another account has this number."
        case .reauthRequired: return "This change needs Verify it's you."
        case .reauthGranted: return "Verify it's you succeeded: the window opened."
        case .reauthGrantByTarget: return "A grant never verifies a change of its own method."
        case .reauthMethodUnavailable: return "The account has no such method to verify with."
        case .reauthPhoneMismatch: return "A re-auth code goes only to the account's own phone."
        case .reauthPasswordIncorrect: return "Wrong password for Verify it's you."
        case .reauthProviderTokenInvalid: return "The Apple or Google token does not match the linked account."
        case .linkSent: return "A Verify it's you link went to the account's email."
        case .linkExpired: return "The link was used, replaced or is past its lifetime."
        case .linkSuperseded: return "A newer link of the same kind replaced this one before it was opened."
        case .linkUnknown: return "No such link."
        case .linkInspected: return "A link's kind and state were told without spending it."
        case .emailAvailable: return "Nobody else has this email."
        case .emailTaken: return "Another account has this email."
        case .emailInvalid: return "Not a valid email address."
        case .emailUnchanged: return "That is already the account's email."
        case .emailChangeWithoutEmail: return "An account without an email adds one instead."
        case .emailAddWithEmail: return "An account with an email changes it instead."
        case .emailLinkSent: return "The link for the new email went out; nothing changed yet."
        case .emailLinkResent: return "A new link for the pending change replaced the last one."
        case .emailNothingPending: return "No email change is waiting to be resent."
        case .emailChanged: return "The link was opened: the email changed and the old one was told."
        case .emailReverted: return "The old address took its email back and every session ended."
        case .passwordChanged: return "The password changed and every other session ended."
        case .passwordInvalid: return "The new password breaks the password rules."
        case .passwordTooLong: return "The password is longer than any field allows."
        case .passwordWithoutEmail: return "A password goes with an email, and there is none."
        case .passwordResetAnswered: return "The same answer whether or not the address has an account."
        case .passwordResetLinkLive: return "The password reset link still works."
        case .passwordReset: return "The reset link set a new password and ended every session."
        case .connectDone: return "Apple or Google was connected."
        case .connectAlreadyLinked: return "The account already has that provider."
        case .connectProviderTokenInvalid: return "The Apple or Google token is not one to connect with."
        case .connectProviderTaken: return "Another account has that provider account."
        case .disconnectDone: return "Apple or Google was disconnected."
        case .disconnectNotLinked: return "That provider is not connected."
        case .disconnectLastMethod: return "The only way to sign in cannot be disconnected."
        case .deletePreflightClear: return "Nothing stands in the way of deleting the account."
        case .deletePreflightBlocked: return "Sessions, bookings or money stand in the way of deleting."
        case .deleteBlocked: return "The delete was refused: something still stands in the way."
        case .deleteDone: return "The account was deleted; its purge is scheduled."
        case .holdPhoneRecentlyDeleted: return "The number belonged to an account deleted days ago."
        case .holdEmailRecentlyDeleted: return "The email belonged to an account deleted days ago."
        case .holdProviderRecentlyDeleted: return "The Apple or Google account belonged to an account deleted days ago."
        case .twoFactorRequired: return "This session passed one factor; it must pass the second first."
        case .twoFactorSetupStarted: return "A new authenticator secret waits for its first code."
        case .twoFactorSetupNotFound: return "No live pending setup to confirm."
        case .twoFactorSetupExhausted: return "Wrong first code, the last try: the pending setup ended."
        case .twoFactorEnabled: return "The first code matched: two-factor is on, recovery codes shown once."
        case .twoFactorAlreadyEnabled: return "Two-factor is already on."
        case .twoFactorNotEnabled: return "Two-factor is off: nothing to verify, regenerate or turn off."
        case .twoFactorCodeIncorrect: return "Wrong authenticator code; tries remain."
        case .twoFactorCodeReplayed: return "That code was already accepted once; wait for the next one."
        case .twoFactorLocked: return "This wrong code was the last try: the step locks for a while."
        case .twoFactorPassed: return "The authenticator code passed: the session is aal2, with new tokens."
        case .twoFactorRecoveryCodeUsed: return "A recovery code passed the step and is spent."
        case .twoFactorRecoveryCodeInvalid: return "Not one of the account's unused recovery codes."
        case .twoFactorRecoveryCodesRegenerated: return "New recovery codes; the old ones stopped working."
        case .twoFactorDisabled: return "Two-factor is off; its secret and codes are gone."
        case .passkeyRegistered: return "A passkey was registered: it is listed and the account was told."
        case .passkeySignedIn: return "A passkey signed its account in: a session, its counter kept."
        case .passkeyRefused: return "The authenticator's answer failed a relying party check, named by its code."
        case .passkeyChallengeExpired: return "The ceremony's challenge is unknown, used or past its lifetime."
        case .passkeyNotFound: return "No passkey of the account (or none at all) has that credential id."
        case .passkeyCloned: return "The signature counter did not grow: refused, flagged, the account told."
        case .passkeyRenamed: return "The passkey has its new name."
        case .passkeyRemoved: return "The passkey was removed and the account was told."
        case .passkeyLastMethod: return "The only way to sign in cannot be removed."
        }
    }
}

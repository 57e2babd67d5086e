import Foundation

/// One typed method per endpoint of the contract, each a call of the generated client. A non-2xx
/// answer never reaches these: `OutcomeMiddleware` has already thrown it as an `APIError`.
extension AccountClient {
    /// `GET /me/auth-methods`; a success also refreshes the offline cache.
    public func authMethods(cache: AuthMethodsCache? = nil, now: Date = Date()) async throws -> AuthMethods {
        let methods = try await call { try await api.getAuthMethods().ok.body.json }
        cache?.store(methods, at: now)
        return methods
    }

    /// Unlinks Apple or Google; needs a re-auth token, and answers 409 `last_method` for the
    /// only sign-in method.
    public func disconnect(_ provider: SocialProvider, reauthToken: String?) async throws -> AuthMethods {
        try await call {
            try await api.disconnectProvider(
                headers: .init(xReauthToken: reauthToken), body: .json(.init(provider: provider))
            ).ok.body.json
        }
    }

    /// Links Apple or Google with an id token from the provider's sign-in; 409 `provider_taken` when
    /// that provider account belongs to another user.
    public func connect(_ provider: SocialProvider, idToken: String) async throws -> AuthMethods {
        try await call {
            try await api.connectProvider(body: .json(.init(provider: provider, idToken: idToken))).ok.body.json
        }
    }

    /// What stands in the way of deleting the account; empty means go on to re-auth.
    public func deletePreflight() async throws -> DeletePreflight {
        try await call { try await api.deletePreflight().ok.body.json }
    }

    /// Deletes the account (re-auth token); every session ends, so the caller signs out locally.
    public func deleteAccount(reauthToken: String?) async throws -> AccountDeleted {
        try await call { try await api.deleteAccount(headers: .init(xReauthToken: reauthToken)).ok.body.json }
    }

    /// `GET /me/sessions` (issue 30): every live sign-in of the account, this device's first; a success
    /// also refreshes the offline cache.
    public func sessions(cache: AuthMethodsCache? = nil) async throws -> [ActiveSession] {
        let sessions = try await call { try await api.listSessions().ok.body.json }.sessions
        cache?.store(sessions: sessions)
        return sessions
    }

    /// `DELETE /me/sessions/{id}` (re-auth token): signs one other device out.
    public func signOutSession(id: String, reauthToken: String?) async throws {
        _ = try await call {
            try await api.signOutSession(path: .init(id: id), headers: .init(xReauthToken: reauthToken)).noContent
        }
    }

    /// `POST /me/sessions/revoke-others` (re-auth token): every other device signed out; how many.
    public func signOutOtherSessions(reauthToken: String?) async throws -> Int {
        try await call {
            try await api.signOutOtherSessions(headers: .init(xReauthToken: reauthToken)).ok.body.json
        }.signedOut
    }

    /// `POST /auth/logout`: ends this device's session (its whole family of rotations) on the server.
    /// Best effort: the caller signs out locally whatever the answer.
    public func logout() async throws {
        _ = try await call { try await api.logout().noContent }
    }

    public func requestPhoneOTP(
        phone: String, purpose: OTPPurpose, reauthToken: String? = nil
    ) async throws
        -> OTPRequestAccepted
    {
        try await call {
            try await api.requestOtp(
                headers: .init(xReauthToken: reauthToken), body: .json(.init(phone: phone, purpose: purpose))
            ).accepted.body.json
        }
    }

    public func resendPhoneOTP(requestId: String) async throws -> OTPRequestAccepted {
        try await call { try await api.resendOtp(body: .json(.init(requestId: requestId))).accepted.body.json }
    }

    /// Back on the code screen: the request is cancelled server-side.
    public func cancelPhoneOTP(requestId: String) async throws -> OTPCancelled {
        try await call { try await api.cancelOtp(body: .json(.init(requestId: requestId))).ok.body.json }
    }

    public func verifyPhoneOTP(
        requestId: String, code: String, reauthToken: String? = nil
    ) async throws
        -> VerifyOTPResult
    {
        try await call {
            try await api.verifyOtp(
                headers: .init(xReauthToken: reauthToken), body: .json(.init(requestId: requestId, code: code))
            ).ok.body.json
        }
    }

    public func reauthenticate(password: String) async throws -> ReauthGrant {
        try await call { try await api.reauthPassword(body: .json(.init(password: password))).ok.body.json }
    }

    /// Sends a one-shot sign-in link to the user's email.
    public func sendReauthLink() async throws -> EmailLinkSent {
        try await call { try await api.reauthEmailSend().accepted.body.json }
    }

    public func confirmReauthLink(token: String) async throws -> ReauthGrant {
        try await call { try await api.reauthEmailConfirm(body: .json(.init(token: token))).ok.body.json }
    }

    public func reauthenticate(provider: SocialProvider, idToken: String) async throws -> ReauthGrant {
        try await call {
            try await api.reauthSocial(body: .json(.init(provider: provider, idToken: idToken))).ok.body.json
        }
    }

    /// Whether another account holds `email` (never which one).
    public func emailAvailability(_ email: String) async throws -> EmailAvailability {
        try await call { try await api.emailAvailable(query: .init(email: email)).ok.body.json }
    }

    /// Emails a link to the new address; the change applies when it is opened.
    public func requestEmailChange(to email: String, reauthToken: String?) async throws -> EmailLinkSent {
        try await call {
            try await api.requestEmailChange(
                headers: .init(xReauthToken: reauthToken), body: .json(.init(email: email))
            )
            .accepted.body.json
        }
    }

    public func addEmail(_ email: String, password: String) async throws -> EmailLinkSent {
        try await call {
            try await api.addEmailWithPassword(body: .json(.init(email: email, password: password))).accepted.body.json
        }
    }

    public func resendEmailLink() async throws -> EmailLinkSent {
        try await call { try await api.resendEmailLink().accepted.body.json }
    }

    /// Opens an email change or add link; the backend answers with a new session, which is kept.
    public func verifyEmailLink(token: String) async throws -> EmailVerified {
        let verified = try await call { try await api.verifyEmailLink(body: .json(.init(token: token))).ok.body.json }
        try await adopt(verified.session)
        return verified
    }

    /// What an emailed link's token is (kind, state, expiry); asking never spends it, and needs no session.
    public func inspectLink(token: String) async throws -> LinkInfo {
        try await call { try await admin.inspectLink(body: .json(.init(token: token))).ok.body.json }
    }

    /// The old address's way back; every session ends, this one included. The token is the proof: it is
    /// opened signed out as well (the owner on another device), so it carries no session.
    public func revertEmailChange(token: String) async throws -> EmailReverted {
        try await call { try await admin.revertEmailChange(body: .json(.init(token: token))).ok.body.json }
    }

    public func changePassword(to newPassword: String, reauthToken: String?) async throws -> PasswordChanged {
        try await call {
            try await api.changePassword(
                headers: .init(xReauthToken: reauthToken), body: .json(.init(newPassword: newPassword))
            ).ok.body.json
        }
    }

    public func health() async throws -> HealthStatus {
        try await call { try await admin.health().ok.body.json }
    }
}

/// The way in (seeds 004 and 002): calls without a session. Those that sign in keep the new session.
extension AccountClient {
    /// Continue with phone or email: the code goes out; no session yet.
    public func startSignInCode(phone: String) async throws -> SignInChallenge {
        try await call {
            try await admin.startSignInCode(
                body: .json(.init(channel: .phone, phone: phone, device: configuration.device))
            ).accepted.body.json
        }
    }

    public func startSignInCode(email: String) async throws -> SignInChallenge {
        try await call {
            try await admin.startSignInCode(
                body: .json(.init(channel: .email, email: email, device: configuration.device))
            ).accepted.body.json
        }
    }

    public func resendSignInCode(challengeId: String) async throws -> SignInChallenge {
        try await call {
            try await admin.resendSignInCode(body: .json(.init(challengeId: challengeId))).accepted.body.json
        }
    }

    /// `displayName`: seed 004's optional name, sent with the device fields; nil leaves it out.
    public func verifySignInCode(
        challengeId: String, code: String, displayName: String? = nil
    ) async throws
        -> SignedIn
    {
        try await signingIn {
            try await admin.verifySignInCode(
                body: .json(
                    .init(
                        challengeId: challengeId, code: code, device: configuration.device, displayName: displayName))
            ).ok.body.json
        }
    }

    /// Continue with Apple or Google, with an id token from the provider's sheet.
    public func signIn(provider: SocialProvider, idToken: String) async throws -> SignedIn {
        try await signingIn {
            try await admin.signInWithProvider(
                body: .json(.init(provider: provider, idToken: idToken, device: configuration.device))
            ).ok.body.json
        }
    }

    /// Email & password login; a 429 carries the lockout's wait.
    public func login(email: String, password: String) async throws -> SignedIn {
        try await signingIn {
            try await admin.loginWithPassword(
                body: .json(.init(email: email, password: password, device: configuration.device))
            ).ok.body.json
        }
    }

    public func register(email: String, password: String) async throws -> Registered {
        try await call {
            try await admin.register(
                body: .json(.init(email: email, password: password, device: configuration.device))
            ).created.body.json
        }
    }

    public func resendRegistrationLink(email: String) async throws -> VerificationResent {
        try await call {
            try await admin.resendRegistrationLink(body: .json(.init(email: email))).accepted.body.json
        }
    }

    /// Opens the registration link; password login works from then on.
    public func confirmRegistration(token: String) async throws -> RegistrationConfirmed {
        try await call { try await admin.confirmRegistration(body: .json(.init(token: token))).ok.body.json }
    }

    // MARK: - Onboarding (seed 003)

    /// The signed-in user's profile and the first onboarding step they have not finished.
    public func profile() async throws -> Profile {
        try await call { try await api.getProfile().ok.body.json }
    }

    /// Sets the username (and the photo, or none); 409 `username_taken`, 422 `username_invalid`.
    public func updateProfile(username: String, photo: String?) async throws -> Profile {
        try await call {
            try await api.updateProfile(body: .json(.init(username: username, photo: photo))).ok.body.json
        }
    }

    /// Checked as the person types, never saying who holds a taken name.
    public func usernameAvailability(_ username: String) async throws -> UsernameAvailability {
        try await call { try await api.usernameAvailable(query: .init(username: username)).ok.body.json }
    }

    /// The recovery email and its password; the address waits for its emailed link.
    public func setRecoveryEmail(email: String, password: String) async throws -> Profile {
        try await call {
            try await api.setRecoveryEmail(body: .json(.init(email: email, password: password))).accepted.body.json
        }
    }

    /// Leaves a step that may be left (skip the recovery email, go on unverified, finish).
    public func continueOnboarding(from step: OnboardingStep) async throws -> Profile {
        try await call { try await api.continueOnboarding(body: .json(.init(from: step))).ok.body.json }
    }

    // MARK: - Recovery (seed 003)

    /// Asks for a recovery link to `email`; the answer never says whether the address has an account.
    public func startRecovery(email: String) async throws -> RecoveryStarted {
        try await call {
            try await admin.startRecovery(body: .json(.init(email: email, device: configuration.device)))
                .accepted.body.json
        }
    }

    /// Whether a recovery link still works, and for which address; does not spend it.
    public func checkRecoveryLink(token: String) async throws -> RecoveryLink {
        try await call { try await admin.checkRecoveryLink(body: .json(.init(token: token))).ok.body.json }
    }

    /// The link and the recovery email's password: a session with limited access, kept like any sign-in.
    public func completeRecovery(token: String, password: String) async throws -> SignedIn {
        try await signingIn {
            try await admin.completeRecovery(
                body: .json(.init(token: token, password: password, device: configuration.device))
            ).ok.body.json
        }
    }

    // MARK: - Password reset (issue 28 item 25)

    /// Asks for a reset link to `email`; the answer never says whether the address has an account.
    public func requestPasswordReset(email: String) async throws -> PasswordResetRequested {
        try await call {
            try await admin.requestPasswordReset(body: .json(.init(email: email))).accepted.body.json
        }
    }

    /// Whether a reset link still works, and for which address; does not spend it.
    public func checkPasswordResetLink(token: String) async throws -> PasswordResetLink {
        try await call { try await admin.checkPasswordResetLink(body: .json(.init(token: token))).ok.body.json }
    }

    /// The link and a new password: every session of the account ends, this device's included.
    public func completePasswordReset(token: String, newPassword: String) async throws -> PasswordResetDone {
        try await call {
            try await admin.completePasswordReset(body: .json(.init(token: token, newPassword: newPassword))).ok
                .body.json
        }
    }

    /// The session check at start: 401 refreshes once and retries; a refused refresh signs out.
    /// A success also refreshes the offline cache of the methods.
    public func me(cache: AuthMethodsCache? = nil, now: Date = Date()) async throws -> CurrentUser {
        let me = try await call { try await api.getMe().ok.body.json }
        cache?.store(me.authMethods, at: now)
        return me
    }

    func signingIn(_ operation: () async throws -> SignedIn) async throws -> SignedIn {
        let signedIn = try await call(operation)
        try await adopt(signedIn.session)
        return signedIn
    }
}

/// The reference backend's admin API (DESIGN §6): scenarios, outbox, clock, faults, journal.
/// A real backend has none of it. These go through the generated client without a session.
extension AccountClient {
    public func adminScenarios() async throws -> [ScenarioSummary] {
        try await call { try await admin.adminListScenarios().ok.body.json }
    }

    public func adminLoadScenario(_ name: String) async throws -> ScenarioLoaded {
        try await call { try await admin.adminLoadScenario(body: .json(.init(name: name))).ok.body.json }
    }

    /// `GET /_admin/worlds` (issue 33): the same under every world's prefix.
    public func adminWorlds() async throws -> [WorldSummary] {
        try await call { try await admin.adminListWorlds().ok.body.json }
    }

    /// `POST /_admin/worlds {name, scenario}`: 409 `world_exists` / `world_limit`, 400 `invalid_world_name`.
    @discardableResult
    public func adminCreateWorld(_ name: String, scenario: String) async throws -> WorldSummary {
        try await call {
            try await admin.adminCreateWorld(body: .json(.init(name: name, scenario: scenario))).created.body.json
        }
    }

    /// Signs in as the scenario's user and keeps the tokens.
    @discardableResult
    public func adminSignIn() async throws -> SessionTokens {
        let tokens = try await call { try await admin.adminSession().ok.body.json }
        try await adopt(tokens)
        return tokens
    }

    /// `POST /_admin/sessions`: the palette's "Sign in from another device"; the tokens stay with the caller.
    @discardableResult
    public func adminSignInDevice(_ device: DeviceInfo, method: SessionMethod?) async throws -> SessionTokens {
        try await call {
            try await admin.adminSignInDevice(body: .json(.init(device: device, method: method))).ok.body.json
        }
    }

    public func adminOutbox() async throws -> [OutboxMessage] {
        try await call { try await admin.adminOutbox().ok.body.json }.map(OutboxMessage.init)
    }

    /// The scenario and its epoch, the faults and the clock, as they stand: polled to see another tool's changes.
    public func adminState() async throws -> AdminState {
        try await call { try await admin.adminState().ok.body.json }
    }

    public func adminClock() async throws -> ClockState {
        try await call { try await admin.adminClock().ok.body.json }
    }

    public func adminAdvanceClock(seconds: Double) async throws -> ClockAdvanced {
        try await call { try await admin.adminAdvanceClock(body: .json(.init(seconds: seconds))).ok.body.json }
    }

    /// `POST /_admin/clock`: forward to `at` (the backend refuses its past), then frozen or running.
    public func adminSetClock(at: Date? = nil, frozen: Bool? = nil) async throws -> ClockChanged {
        try await call { try await admin.adminSetClock(body: .json(.init(at: at, frozen: frozen))).ok.body.json }
    }

    public func adminAdvanceClockToNextDeadline() async throws -> ClockAdvanced {
        try await call {
            try await admin.adminAdvanceClock(body: .json(.init(to: "next_deadline"))).ok.body.json
        }
    }

    @discardableResult
    public func adminSetFaults(_ faults: FaultSettings) async throws -> FaultSettings {
        try await call { try await admin.adminSetFaults(body: .json(faults)).ok.body.json }
    }

    @discardableResult
    public func adminClearFaults() async throws -> FaultSettings {
        try await call { try await admin.adminClearFaults().ok.body.json }
    }

    public func adminJournal(limit: Int = 100) async throws -> [JournalEntry] {
        try await call { try await admin.adminJournal(query: .init(limit: limit)).ok.body.json }
    }

    /// The simulated provider sheet's accounts on this "device".
    public func adminProviderAccounts(_ provider: SocialProvider) async throws -> [ProviderAccount] {
        try await call { try await admin.adminProviderAccounts(path: .init(provider: provider)).ok.body.json }
    }

    public func adminDeletions() async throws -> [ScheduledPurge] {
        try await call { try await admin.adminDeletions().ok.body.json }
    }

    public func adminProviderToken(_ provider: SocialProvider, subject: String? = nil) async throws -> ProviderToken {
        try await call {
            try await admin.adminProviderToken(path: .init(provider: provider), body: .json(.init(subject: subject)))
                .ok.body.json
        }
    }
}

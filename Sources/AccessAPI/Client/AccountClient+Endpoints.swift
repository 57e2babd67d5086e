import Foundation

/// One typed method per endpoint of the contract (`openapi.yaml`).
extension AccountClient {
    /// `GET /me/auth-methods`; a success also refreshes the offline cache.
    public func authMethods(cache: AuthMethodsCache? = nil, now: Date = Date()) async throws -> AuthMethods {
        let methods: AuthMethods = try await send(.GET, "/me/auth-methods")
        cache?.store(methods, at: now)
        return methods
    }

    /// Unlinks Apple or Google; needs a re-auth token, and answers 409 `last_method` for the
    /// only sign-in method.
    public func disconnect(_ provider: SocialProvider, reauthToken: String?) async throws -> AuthMethods {
        try await send(
            .POST, "/me/auth-methods/disconnect", body: DisconnectBody(provider: provider), reauthToken: reauthToken)
    }

    public func requestPhoneOTP(
        phone: String, purpose: OTPPurpose, reauthToken: String? = nil
    ) async throws
        -> OTPRequestAccepted
    {
        try await send(
            .POST, "/auth/phone/request-otp", body: RequestOTPBody(phone: phone, purpose: purpose),
            reauthToken: reauthToken)
    }

    public func resendPhoneOTP(requestId: String) async throws -> OTPRequestAccepted {
        try await send(.POST, "/auth/phone/resend-otp", body: OTPRequestRef(requestId: requestId))
    }

    /// Back on the code screen: the request is cancelled server-side.
    public func cancelPhoneOTP(requestId: String) async throws -> OTPCancelled {
        try await send(.POST, "/auth/phone/cancel-otp", body: OTPRequestRef(requestId: requestId))
    }

    public func verifyPhoneOTP(
        requestId: String, code: String, reauthToken: String? = nil
    ) async throws
        -> VerifyOTPResult
    {
        try await send(
            .POST, "/auth/phone/verify-otp", body: VerifyOTPBody(requestId: requestId, code: code),
            reauthToken: reauthToken)
    }

    public func reauthenticate(password: String) async throws -> ReauthGrant {
        try await send(.POST, "/auth/reauth/password", body: PasswordReauthBody(password: password))
    }

    /// Sends a one-shot sign-in link to the user's email.
    public func sendReauthLink() async throws -> EmailLinkSent {
        try await send(.POST, "/auth/reauth/email", body: Empty())
    }

    public func confirmReauthLink(token: String) async throws -> ReauthGrant {
        try await send(.POST, "/auth/reauth/email/confirm", body: EmailLinkConfirmBody(token: token))
    }

    public func reauthenticate(provider: SocialProvider, idToken: String) async throws -> ReauthGrant {
        try await send(.POST, "/auth/reauth/social", body: SocialReauthBody(provider: provider, idToken: idToken))
    }

    public func health() async throws -> HealthStatus {
        try await send(.GET, "/health", auth: .none)
    }
}

/// The reference backend's admin API (DESIGN §6): scenarios, outbox, clock, faults, journal.
/// A real backend has none of it.
extension AccountClient {
    public func adminScenarios() async throws -> [ScenarioSummary] {
        try await send(.GET, "/_admin/scenarios", auth: .none)
    }

    public func adminLoadScenario(_ name: String) async throws -> ScenarioLoaded {
        try await send(.POST, "/_admin/scenario", body: LoadScenarioBody(name: name), auth: .none)
    }

    /// Signs in as the scenario's user and keeps the tokens.
    @discardableResult
    public func adminSignIn() async throws -> SessionTokens {
        let tokens: SessionTokens = try await send(.POST, "/_admin/session", body: Empty(), auth: .none)
        try await adopt(tokens)
        return tokens
    }

    public func adminOutbox() async throws -> [OutboxMessage] {
        try await send(.GET, "/_admin/outbox", auth: .none)
    }

    public func adminClock() async throws -> ClockState {
        try await send(.GET, "/_admin/clock", auth: .none)
    }

    public func adminAdvanceClock(seconds: Double) async throws -> ClockAdvanced {
        try await send(.POST, "/_admin/clock/advance", body: ClockAdvanceBody(seconds: seconds), auth: .none)
    }

    public func adminAdvanceClockToNextDeadline() async throws -> ClockAdvanced {
        try await send(.POST, "/_admin/clock/advance", body: ClockAdvanceBody(to: "next_deadline"), auth: .none)
    }

    @discardableResult
    public func adminSetFaults(_ faults: FaultSettings) async throws -> FaultSettings {
        try await send(.POST, "/_admin/faults", body: faults, auth: .none)
    }

    @discardableResult
    public func adminClearFaults() async throws -> FaultSettings {
        try await send(.DELETE, "/_admin/faults", auth: .none)
    }

    public func adminJournal(limit: Int = 100) async throws -> [JournalEntry] {
        try await send(.GET, "/_admin/journal?limit=\(limit)", auth: .none)
    }

    public func adminProviderToken(_ provider: SocialProvider, subject: String? = nil) async throws -> ProviderToken {
        try await send(
            .POST, "/_admin/provider/\(provider.rawValue)/token", body: ProviderTokenBody(subject: subject), auth: .none
        )
    }
}

import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// Every operation of openapi.yaml, served through the generated `APIProtocol`: paths, methods,
/// bodies and success statuses come from the document; refusals are the services' `BackendError`s.
/// Routes the document names and nobody serves, or served routes it does not name, fail
/// ContractDriftTests.
struct ContractHandler: APIProtocol {
    let backend: Backend

    private var request: Request {
        get throws {
            guard let scope = ContractScope.current else {
                throw BackendError(.internalServerError, "internal", "Something went wrong.", rule: .httpInternal)
            }
            return scope.request
        }
    }

    /// The signed-in user, for every operation that changes the account: a session with limited access
    /// (recovered by email, seed 003) is refused here with 403 limited_access. Default-deny on purpose: an
    /// operation a limited session may use asks for `session` instead, so each allowed one is named below.
    private var user: UserRecord {
        get async throws {
            let session = try await session
            try RecoveryService.refuseIfLimited(session.access)
            return session.user
        }
    }

    /// The signed-in user and its session's access, for what a limited session may still do: read its
    /// auth methods and profile, edit the profile, check a username, and re-verify a phone (the phone
    /// code endpoints, which refuse every other purpose to it). GET /auth/me, logout and refresh read
    /// the session themselves.
    private var session: (user: UserRecord, access: AccessLevel) {
        get async throws { try await backend.sessions.authenticateSession(try request) }
    }

    private func decide(_ rule: Rule) { ContractScope.current?.decision.set(rule) }

    // MARK: - Account

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        .ok(.init(body: .json(HealthStatus())))
    }

    func getAuthMethods(_ input: Operations.GetAuthMethods.Input) async throws -> Operations.GetAuthMethods.Output {
        .ok(.init(body: .json(try await session.user.authMethods)))
    }

    func disconnectProvider(
        _ input: Operations.DisconnectProvider.Input
    ) async throws -> Operations.DisconnectProvider.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let methods = try await backend.disconnects.disconnect(
            user: user, provider: body.provider, reauthToken: input.headers.xReauthToken)
        decide(.disconnectDone)
        return .ok(.init(body: .json(methods)))
    }

    func connectProvider(_ input: Operations.ConnectProvider.Input) async throws -> Operations.ConnectProvider.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let methods = try await backend.providerLinks.connect(
            user: user, provider: body.provider, idToken: body.idToken)
        decide(.connectDone)
        return .ok(.init(body: .json(methods)))
    }

    func deletePreflight(_ input: Operations.DeletePreflight.Input) async throws -> Operations.DeletePreflight.Output {
        let preflight = try await backend.deletions.preflight(user: try await user)
        decide(preflight.blockers.isEmpty ? .deletePreflightClear : .deletePreflightBlocked)
        return .ok(.init(body: .json(preflight)))
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        let deleted = try await backend.deletions.delete(user: try await user, reauthToken: input.headers.xReauthToken)
        decide(.deleteDone)
        return .ok(.init(body: .json(deleted)))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let refreshed = try await backend.sessions.refresh(body.refreshToken)
        decide(refreshed.rule)
        return .ok(.init(body: .json(refreshed.tokens)))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        try await backend.sessions.logout(try request)
        decide(.sessionLogout)
        return .noContent(.init())
    }

    // MARK: - Sign-in

    func startSignInCode(_ input: Operations.StartSignInCode.Input) async throws -> Operations.StartSignInCode.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let challenge = try await backend.signIns.start(body)
        decide(.signInCodeSent)
        return .accepted(.init(body: .json(challenge)))
    }

    func resendSignInCode(
        _ input: Operations.ResendSignInCode.Input
    ) async throws -> Operations.ResendSignInCode.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let challenge = try await backend.signIns.resend(challengeId: body.challengeId)
        decide(.signInCodeResent)
        return .accepted(.init(body: .json(challenge)))
    }

    func verifySignInCode(
        _ input: Operations.VerifySignInCode.Input
    ) async throws -> Operations.VerifySignInCode.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.signIns.verify(body)
        decide(signedIn.isNewUser ? .signInSignedUp : .signInSignedIn)
        return .ok(.init(body: .json(signedIn)))
    }

    func signInWithProvider(
        _ input: Operations.SignInWithProvider.Input
    ) async throws -> Operations.SignInWithProvider.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.signIns.withProvider(body)
        decide(signedIn.isNewUser ? .signInSignedUp : .signInSignedIn)
        return .ok(.init(body: .json(signedIn)))
    }

    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let registered = try await backend.passwordLogins.register(body)
        decide(.registerLinkSent)
        return .created(.init(body: .json(registered)))
    }

    func resendRegistrationLink(
        _ input: Operations.ResendRegistrationLink.Input
    ) async throws -> Operations.ResendRegistrationLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let resent = try await backend.passwordLogins.resend(email: body.email)
        decide(.registerResendAnswered)
        return .accepted(.init(body: .json(resent)))
    }

    func confirmRegistration(
        _ input: Operations.ConfirmRegistration.Input
    ) async throws -> Operations.ConfirmRegistration.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let confirmed = try await backend.passwordLogins.confirm(token: body.token)
        decide(.registerConfirmed)
        return .ok(.init(body: .json(confirmed)))
    }

    func loginWithPassword(
        _ input: Operations.LoginWithPassword.Input
    ) async throws -> Operations.LoginWithPassword.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.passwordLogins.login(body)
        decide(.loginSignedIn)
        return .ok(.init(body: .json(signedIn)))
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        .ok(.init(body: .json(try await backend.sessions.me(try request))))
    }

    // MARK: - Onboarding (seed 003)

    func getProfile(_ input: Operations.GetProfile.Input) async throws -> Operations.GetProfile.Output {
        let session = try await session
        return .ok(.init(body: .json(try await backend.onboarding.profile(user: session.user, access: session.access))))
    }

    func updateProfile(_ input: Operations.UpdateProfile.Input) async throws -> Operations.UpdateProfile.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let profile = try await backend.onboarding.update(user: session.user, access: session.access, body: body)
        decide(.profileSaved)
        return .ok(.init(body: .json(profile)))
    }

    func usernameAvailable(
        _ input: Operations.UsernameAvailable.Input
    ) async throws -> Operations.UsernameAvailable.Output {
        let availability = try await backend.onboarding.availability(
            user: try await session.user, username: input.query.username)
        decide(availability.available ? .usernameAvailable : .usernameTaken)
        return .ok(.init(body: .json(availability)))
    }

    func setRecoveryEmail(
        _ input: Operations.SetRecoveryEmail.Input
    ) async throws -> Operations.SetRecoveryEmail.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let profile = try await backend.onboarding.setRecoveryEmail(user: user, body: body)
        decide(.onboardingRecoveryEmailSet)
        return .accepted(.init(body: .json(profile)))
    }

    func continueOnboarding(
        _ input: Operations.ContinueOnboarding.Input
    ) async throws -> Operations.ContinueOnboarding.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let profile = try await backend.onboarding.proceed(user: user, from: body.from)
        decide(.onboardingContinued)
        return .ok(.init(body: .json(profile)))
    }

    // MARK: - Recovery (seed 003)

    func startRecovery(_ input: Operations.StartRecovery.Input) async throws -> Operations.StartRecovery.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let started = try await backend.recovery.start(body, ip: ContractScope.current?.remoteAddress)
        decide(.recoveryAnswered)
        return .accepted(.init(body: .json(started)))
    }

    func checkRecoveryLink(
        _ input: Operations.CheckRecoveryLink.Input
    ) async throws -> Operations.CheckRecoveryLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let link = try await backend.recovery.check(token: body.token)
        decide(.recoveryLinkLive)
        return .ok(.init(body: .json(link)))
    }

    func completeRecovery(
        _ input: Operations.CompleteRecovery.Input
    ) async throws -> Operations.CompleteRecovery.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let signedIn = try await backend.recovery.complete(body)
        decide(.recoverySignedInLimited)
        return .ok(.init(body: .json(signedIn)))
    }

    // MARK: - Phone codes

    func requestOtp(_ input: Operations.RequestOtp.Input) async throws -> Operations.RequestOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let accepted = try await backend.otp.request(
            user: session.user, access: session.access, body: body, reauthToken: input.headers.xReauthToken)
        decide(.otpSent)
        return .accepted(.init(body: .json(accepted)))
    }

    func resendOtp(_ input: Operations.ResendOtp.Input) async throws -> Operations.ResendOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let accepted = try await backend.otp.resend(
            user: session.user, access: session.access, requestId: body.requestId)
        decide(.otpResent)
        return .accepted(.init(body: .json(accepted)))
    }

    func cancelOtp(_ input: Operations.CancelOtp.Input) async throws -> Operations.CancelOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let cancelled = try await backend.otp.cancel(
            user: session.user, access: session.access, requestId: body.requestId)
        decide(.otpCancelled)
        return .ok(.init(body: .json(cancelled)))
    }

    func verifyOtp(_ input: Operations.VerifyOtp.Input) async throws -> Operations.VerifyOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let result = try await backend.otp.verify(
            user: session.user, access: session.access, accessHash: backend.sessions.accessHash(of: try request),
            body: body, reauthToken: input.headers.xReauthToken)
        decide(.otpVerified)
        return .ok(.init(body: .json(result)))
    }

    // MARK: - Re-auth

    func reauthPassword(_ input: Operations.ReauthPassword.Input) async throws -> Operations.ReauthPassword.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.reauth.byPassword(user: user, password: body.password)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    func reauthEmailSend(_ input: Operations.ReauthEmailSend.Input) async throws -> Operations.ReauthEmailSend.Output {
        let sent = try await backend.links.sendReauthLink(user: try await user)
        decide(.linkSent)
        return .accepted(.init(body: .json(sent)))
    }

    func reauthEmailConfirm(
        _ input: Operations.ReauthEmailConfirm.Input
    ) async throws -> Operations.ReauthEmailConfirm.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.links.confirmReauth(user: user, token: body.token)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    func reauthSocial(_ input: Operations.ReauthSocial.Input) async throws -> Operations.ReauthSocial.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let grant = try await backend.providers.reauth(user: user, provider: body.provider, idToken: body.idToken)
        decide(.reauthGranted)
        return .ok(.init(body: .json(grant)))
    }

    // MARK: - Email & password

    func emailAvailable(_ input: Operations.EmailAvailable.Input) async throws -> Operations.EmailAvailable.Output {
        let availability = try await backend.emails.availability(user: try await user, email: input.query.email)
        decide(availability.available ? .emailAvailable : .emailTaken)
        return .ok(.init(body: .json(availability)))
    }

    func requestEmailChange(
        _ input: Operations.RequestEmailChange.Input
    ) async throws -> Operations.RequestEmailChange.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let sent = try await backend.emails.requestChange(
            user: user, email: body.email, reauthToken: input.headers.xReauthToken)
        decide(.emailLinkSent)
        return .accepted(.init(body: .json(sent)))
    }

    func addEmailWithPassword(
        _ input: Operations.AddEmailWithPassword.Input
    ) async throws -> Operations.AddEmailWithPassword.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let sent = try await backend.emails.addWithPassword(user: user, email: body.email, password: body.password)
        decide(.emailLinkSent)
        return .accepted(.init(body: .json(sent)))
    }

    func resendEmailLink(_ input: Operations.ResendEmailLink.Input) async throws -> Operations.ResendEmailLink.Output {
        let sent = try await backend.emails.resend(user: try await user)
        decide(.emailLinkResent)
        return .accepted(.init(body: .json(sent)))
    }

    func verifyEmailLink(_ input: Operations.VerifyEmailLink.Input) async throws -> Operations.VerifyEmailLink.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let verified = try await backend.emails.verify(token: body.token)
        decide(.emailChanged)
        return .ok(.init(body: .json(verified)))
    }

    func revertEmailChange(
        _ input: Operations.RevertEmailChange.Input
    ) async throws -> Operations.RevertEmailChange.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let reverted = try await backend.emails.revert(token: body.token)
        decide(.emailReverted)
        return .ok(.init(body: .json(reverted)))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        let user = try await user
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let changed = try await backend.passwords.change(
            user: user, newPassword: body.newPassword, reauthToken: input.headers.xReauthToken,
            currentSession: backend.sessions.accessHash(of: try request))
        decide(.passwordChanged)
        return .ok(.init(body: .json(changed)))
    }

    // MARK: - Admin (DESIGN §6)

    func adminListScenarios(
        _ input: Operations.AdminListScenarios.Input
    ) async throws -> Operations.AdminListScenarios.Output {
        do {
            return .ok(.init(body: .json(try backend.catalog.summaries())))
        } catch let error as ScenarioError {
            throw BackendError(
                .internalServerError, "scenario_invalid", error.description, rule: .adminScenarioInvalid)
        }
    }

    func adminLoadScenario(
        _ input: Operations.AdminLoadScenario.Input
    ) async throws -> Operations.AdminLoadScenario.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        do {
            return .ok(.init(body: .json(try await backend.scenarios.load(body.name))))
        } catch let error as ScenarioError {
            let unknown = !backend.catalog.names().contains(body.name)
            throw BackendError(
                unknown ? .notFound : .unprocessableContent, unknown ? "unknown_scenario" : "scenario_invalid",
                error.description, rule: .adminScenario)
        }
    }

    func adminSession(_ input: Operations.AdminSession.Input) async throws -> Operations.AdminSession.Output {
        try await backend.scenarios.refuseIfStartsSignedOut()
        let user = try await backend.accounts.primaryUser()
        let access = try await backend.scenarios.sessionAccess()
        return .ok(.init(body: .json(try await backend.sessions.issue(userId: user.id, access: access))))
    }

    func adminOutbox(_ input: Operations.AdminOutbox.Input) async throws -> Operations.AdminOutbox.Output {
        let messages = try await backend.outbox.messages().map { message in
            guard let wire = message.wire else {
                throw BackendError(
                    .internalServerError, "internal", "The outbox holds a message the contract cannot describe.",
                    rule: .adminOutboxInvalid)
            }
            return wire
        }
        return .ok(.init(body: .json(messages)))
    }

    func adminClock(_ input: Operations.AdminClock.Input) async throws -> Operations.AdminClock.Output {
        .ok(.init(body: .json(ClockState(now: backend.clock.now(), frozen: backend.clock.isFrozen))))
    }

    func adminAdvanceClock(
        _ input: Operations.AdminAdvanceClock.Input
    ) async throws -> Operations.AdminAdvanceClock.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        return .ok(.init(body: .json(try await backend.deadlines.advance(body))))
    }

    func adminGetFaults(_ input: Operations.AdminGetFaults.Input) async throws -> Operations.AdminGetFaults.Output {
        .ok(.init(body: .json(backend.faults.current)))
    }

    func adminSetFaults(_ input: Operations.AdminSetFaults.Input) async throws -> Operations.AdminSetFaults.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        if let refusal = try backend.faults.apply(body) {
            let faults = backend.faults
            // Returns once the port refuses connections; this answer still goes out on its own connection.
            await backend.refusals.refuse(for: refusal) { faults.endRefusal() }
        }
        return .ok(.init(body: .json(backend.faults.current)))
    }

    func adminClearFaults(
        _ input: Operations.AdminClearFaults.Input
    ) async throws -> Operations.AdminClearFaults.Output {
        backend.faults.clear()
        await backend.refusals.end()
        return .ok(.init(body: .json(backend.faults.current)))
    }

    func adminJournal(_ input: Operations.AdminJournal.Input) async throws -> Operations.AdminJournal.Output {
        // A number out of range is the journal's 422; what is not a number the contract refuses (400).
        let limit = try backend.journal.limit(from: input.query.limit.map(String.init))
        return .ok(.init(body: .json(backend.journal.recent(limit: limit))))
    }

    func adminProviderToken(
        _ input: Operations.AdminProviderToken.Input
    ) async throws -> Operations.AdminProviderToken.Output {
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        try await JSONBody.refuseNulls(in: ContractScope.current?.request)
        let token = try await backend.providers.mint(provider: input.path.provider, subject: body.subject)
        return .ok(.init(body: .json(token)))
    }

    func adminProviderAccounts(
        _ input: Operations.AdminProviderAccounts.Input
    ) async throws -> Operations.AdminProviderAccounts.Output {
        .ok(.init(body: .json(try await backend.providerLinks.accounts(provider: input.path.provider))))
    }

    func adminDeletions(_ input: Operations.AdminDeletions.Input) async throws -> Operations.AdminDeletions.Output {
        .ok(.init(body: .json(try await backend.deletions.scheduled())))
    }
}

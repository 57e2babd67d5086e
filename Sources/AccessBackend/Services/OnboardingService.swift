import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Seed 003's "Profile Creation & Recovery Setup": a new account chooses its username (and maybe a
/// photo), may leave a recovery email with a password ("Skip for now"), may go on without opening the
/// emailed link, and sees the completion screen. `users.onboarding_step` holds the first unfinished
/// step; `step(after:…)` alone decides which one follows.
struct OnboardingService: Sendable {
    static let maxPhotoLength = RequestBounds.maxPhotoLength

    let store: Store
    let clock: BackendClock
    let passwordLogins: PasswordLoginService

    static let usernameTaken = BackendError(
        .conflict, "username_taken", "This username is taken. Try another one.", rule: .usernameTaken)

    // MARK: - The step order

    /// The one place the order lives: steps an account already satisfies are passed over (an email
    /// sign-up's address is proven by its code, so it never sees the recovery email step).
    static func step(after step: OnboardingStep, hasEmail: Bool, emailVerified: Bool) -> OnboardingStep {
        switch step {
        case .profile:
            return hasEmail
                ? Self.step(after: .recoveryEmail, hasEmail: true, emailVerified: emailVerified) : .recoveryEmail
        case .recoveryEmail:
            return hasEmail && !emailVerified ? .verifyEmail : .finish
        case .verifyEmail:
            return .finish
        case .finish, .complete:
            return .complete
        }
    }

    /// openapi.yaml lists the steps in onboarding's order, and the generated enum keeps it.
    private static func position(_ step: OnboardingStep) -> Int {
        OnboardingStep.allCases.firstIndex(of: step) ?? 0
    }

    /// What onboarding needs of a user row, read inside the caller's transaction.
    private struct State {
        var username: String?
        var photo: String?
        var displayName: String?
        var step: OnboardingStep
        var email: String?
        var emailUnverified: Bool

        func profile(access: AccessLevel) -> Profile {
            Profile(
                username: username, displayName: displayName, photo: photo, onboardingStep: .init(step), email: email,
                emailVerified: email == nil || !emailUnverified, access: .init(access))
        }

        /// For the answers only a full session can reach (a limited one is refused before them).
        var profile: Profile { profile(access: .full) }

        var next: OnboardingStep {
            OnboardingService.step(after: step, hasEmail: email != nil, emailVerified: !emailUnverified)
        }
    }

    /// 401 for an account deleted meanwhile, as authenticating would have answered.
    private static func state(_ db: Database, userId: String) throws -> State {
        guard let state = try liveState(db, userId: userId) else { throw BackendError.unauthorized }
        return state
    }

    private static func liveState(_ db: Database, userId: String) throws -> State? {
        guard let user = try UserRecord.fetchOne(db, key: userId), user.deletedAt == nil else { return nil }
        return State(
            username: user.username, photo: user.photo, displayName: user.displayName, step: user.onboardingStep,
            email: user.email,
            emailUnverified: user.emailUnverified)
    }

    private static func setStep(_ db: Database, userId: String, _ step: OnboardingStep) throws {
        try db.execute(sql: "UPDATE users SET onboarding_step = ? WHERE id = ?", arguments: [step, userId])
    }

    // MARK: - Hooks for the other services, inside their transactions

    /// The profile every `SignedIn` and `GET /auth/me` carries.
    static func profile(_ db: Database, userId: String, access: AccessLevel) throws -> Profile {
        try state(db, userId: userId).profile(access: access)
    }

    /// Where an account a sign-up just created starts: onboarding from its first step.
    static let firstStep = OnboardingStep.profile

    /// The address was just proven (registration link or emailed code): an account waiting on
    /// `verify_email` moves on; any other step stays where it is.
    static func emailVerified(_ db: Database, userId: String) throws {
        guard let state = try liveState(db, userId: userId), state.step == .verifyEmail else { return }
        try setStep(db, userId: userId, state.next)
    }

    // MARK: - Endpoints

    func profile(user: UserRecord, access: AccessLevel) async throws -> Profile {
        try await store.pool.read { db in try Self.profile(db, userId: user.id, access: access) }
    }

    /// `PUT /me/profile`: the uniqueness check reads in the transaction that writes; the unique index
    /// stays the last line of defence and still answers 409.
    func update(user: UserRecord, access: AccessLevel, body: ProfileBody) async throws -> Profile {
        let username = try Self.validUsername(body.username, field: "username")
        let photo = try Self.validPhoto(body.photo)
        do {
            return try await store.pool.write { db in
                var state = try Self.state(db, userId: user.id)
                guard try !Self.taken(db, username: username, by: user.id) else { throw Self.usernameTaken }
                if RulePolicy.current.enforces(.profileSaved) {
                    try db.execute(
                        sql: "UPDATE users SET username = ?, photo = ? WHERE id = ?",
                        arguments: [username, photo, user.id])
                }
                state.username = username
                state.photo = photo
                if state.step == .profile {
                    state.step = state.next
                    // Not kept: the answer says the step was left, and a later read finds it still there.
                    if RulePolicy.current.enforces(.profileSaved, .onboardingStepStored) {
                        try Self.setStep(db, userId: user.id, state.step)
                    }
                }
                return state.profile(access: access)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw Self.usernameTaken
        }
    }

    /// `GET /auth/username-available`: never says who holds a taken name; one's own name is available.
    func availability(user: UserRecord, username typed: String) async throws -> UsernameAvailability {
        let username = try Self.validUsername(typed, field: nil)
        let taken = try await store.pool.read { db in try Self.taken(db, username: username, by: user.id) }
        // Not kept: the answer says the opposite.
        let available =
            taken ? !RulePolicy.current.enforces(.usernameTaken) : RulePolicy.current.enforces(.usernameAvailable)
        return UsernameAvailability(username: username, available: available)
    }

    /// `POST /me/recovery-email`: the address and password as registration stores them, unverified until
    /// the registration link is opened (so password login answers 403 until then).
    func setRecoveryEmail(user: UserRecord, body: RecoveryEmailBody) async throws -> Profile {
        let now = clock.now()
        let email = EmailRules.normalized(body.email)
        guard EmailRules.isValid(email) else { throw EmailService.invalidError }
        try PasswordService.refuseInvalid(body.password, email: email, current: nil)
        // bcrypt takes tens of milliseconds: done before the write lock is taken.
        let passwordHash = PasswordHasher.hash(body.password)
        return try await EventLog.recordingRefusals(store, now: now, userId: user.id, subject: nil) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                var state = try Self.state(db, userId: user.id)
                guard state.email == nil else {
                    throw BackendError(
                        .conflict, "email_already_set", "This account already has an email.",
                        rule: .onboardingEmailAlreadySet)
                }
                guard try !EmailService.taken(db, email: email, by: user.id) else { throw EmailService.takenError }
                try IdentityHoldService.refuseIfHeld(db, digest: store.digest, email: email, now: now)
                let requester = RateLimitService.Requester.client(account: user.id)
                try RateLimitService.check(
                    db, channel: .email, recipient: email, purpose: EmailLink.register.rawValue, isResend: false,
                    requester: requester, now: now)
                try db.execute(
                    sql: "UPDATE users SET email = ?, email_unverified = 1 WHERE id = ?", arguments: [email, user.id])
                try PasswordService.set(db, userId: user.id, hash: passwordHash, changedAt: now)
                _ = try passwordLogins.sendLink(
                    db, userId: user.id, email: email, isResend: false, requester: requester, now: now)
                state.email = email
                state.emailUnverified = true
                if state.step == .recoveryEmail, RulePolicy.current.enforces(.onboardingRecoveryEmailSet) {
                    state.step = state.next
                    // Not kept: the answer says the step was left, and a later read finds it still there.
                    if RulePolicy.current.enforces(.onboardingRecoveryEmailSet, .onboardingStepStored) {
                        try Self.setStep(db, userId: user.id, state.step)
                    }
                }
                return state.profile
            }
        }
    }

    /// `POST /me/onboarding/continue`: leaves a step that may be left. Asking to leave a step the account
    /// is already past answers where it stands, so a repeated tap is harmless.
    func proceed(user: UserRecord, from: OnboardingStep) async throws -> Profile {
        try await store.pool.write { db in
            var state = try Self.state(db, userId: user.id)
            if Self.position(state.step) > Self.position(from) { return state.profile }
            guard state.step == from else {
                throw BackendError(
                    .conflict, "onboarding_step",
                    "This account is at the \(state.step.rawValue) step and has not reached \(from.rawValue) yet.",
                    rule: .onboardingStepNotReached)
            }
            switch from {
            case .profile:
                throw BackendError(
                    .conflict, "onboarding_step", "Choose a username first: the profile step cannot be skipped.",
                    rule: .onboardingProfileRequired)
            case .complete:
                throw BackendError(
                    .conflict, "onboarding_step", "Onboarding is already complete.",
                    rule: .onboardingAlreadyComplete)
            case .recoveryEmail, .verifyEmail, .finish:
                guard RulePolicy.current.enforces(.onboardingContinued) else { return state.profile }
                state.step = state.next
                // Not kept: the answer says the step was left, and a later read finds it still there.
                if RulePolicy.current.enforces(.onboardingContinued, .onboardingStepStored) {
                    try Self.setStep(db, userId: user.id, state.step)
                }
                return state.profile
            }
        }
    }

    // MARK: - Rules

    /// The normalized name, or 422: `invalid_field`/`invalid_parameter` when empty, else `username_invalid`
    /// with every broken rule. `field` nil: it came as the query parameter.
    private static func validUsername(_ typed: String, field: String?) throws -> String {
        let username = UsernameRules.normalized(typed)
        guard !username.isEmpty else {
            if let field {
                throw BackendError(
                    .unprocessableContent, "invalid_field", "\(field): must not be empty.", rule: .httpInvalidField)
            }
            throw BackendError(
                .unprocessableContent, "invalid_parameter", "username: must not be empty.",
                rule: .httpInvalidParameter)
        }
        let problems = UsernameRules.problems(username)
        guard problems.isEmpty else {
            var error = BackendError(
                .unprocessableContent, "username_invalid", problems[0].sentence, rule: .usernameInvalid)
            error.detail.errors = problems.map(\.rawValue)
            // The bounds go with the refusal, so a client's words say this server's numbers, not its own.
            error.detail.min = UsernameRules.minimumLength
            error.detail.max = UsernameRules.maximumLength
            throw error
        }
        return username
    }

    /// A path or a URL, kept as given; absent means no photo.
    private static func validPhoto(_ typed: String?) throws -> String? {
        guard let photo = typed else { return nil }
        guard !photo.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, photo.count <= maxPhotoLength else {
            throw BackendError(
                .unprocessableContent, "invalid_field",
                "photo: 1 to \(maxPhotoLength) characters, or leave it out for no photo.", rule: .profilePhotoInvalid
            )
        }
        return photo
    }

    /// Never says who holds the name. A deleted account's name was cleared with its identifiers.
    private static func taken(_ db: Database, username: String, by userId: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS(SELECT 1 FROM users WHERE username = ? COLLATE NOCASE AND id != ?)",
            arguments: [username, userId]) ?? false
    }
}

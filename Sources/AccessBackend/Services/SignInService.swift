import AccessAPI
import AccessCore
import Foundation
import GRDB

/// Seed 004's way in, one flow for sign-in and sign-up: a code sent to a phone or an email, or an
/// Apple/Google id token. The backend decides at the end whether the account is new. The codes are
/// `CodeService`'s, as every 6-digit code is, counted per phone and per email, and readable only in the outbox.
struct SignInService: Sendable {
    let store: Store
    let clock: BackendClock

    private var codes: CodeService { CodeService(store: store) }

    func start(_ body: StartSignInBody) async throws -> SignInChallenge {
        let now = clock.now()
        let destination = try Self.destination(of: body)
        try DeviceService.validate(body.device)
        return try await EventLog.recordingRefusals(store, now: now, userId: nil, subject: destination) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                // Nobody has this identifier: the sign-in would be a sign-up, which a recent deletion holds off.
                if try Self.owner(db, channel: body.channel, destination: destination) == nil {
                    try Self.refuseIfHeld(
                        db, digest: store.digest, channel: body.channel, destination: destination, now: now)
                }
                let issued = try codes.issue(
                    db, purpose: .signIn, userId: nil, channel: body.channel, destination: destination, now: now)
                return Self.challenge(issued, channel: body.channel, destination: destination)
            }
        }
    }

    /// A new code for the same challenge; a dead (5 wrong) or timed-out one may be replaced, a used one not.
    func resend(challengeId: String) async throws -> SignInChallenge {
        let now = clock.now()
        let destination = try await Self.destination(store, challengeId: challengeId)
        return try await EventLog.recordingRefusals(store, now: now, userId: nil, subject: destination) {
            try await store.pool.write { db in
                try store.retention.pruneIfDue(db, now: now)
                let challenge = try CodeService.fetch(db, id: challengeId, userId: nil)
                let issued = try codes.renew(db, challenge, now: now)
                return Self.challenge(issued, channel: challenge.channel, destination: challenge.destination)
            }
        }
    }

    /// The right code signs in the identifier's account, or creates one (sign-up), on this device.
    func verify(_ body: VerifySignInCodeBody) async throws -> SignedIn {
        let now = clock.now()
        try DeviceService.validate(body.device)
        let displayName = try body.displayName.map(Self.validDisplayName)
        enum Outcome {
            case signedIn(SignedIn)
            case wrong(remaining: Int)
        }
        // Wrong attempts must be committed, so they are returned, not thrown (a throw rolls back).
        let destination = try await Self.destination(store, challengeId: body.challengeId)
        let outcome: Outcome = try await EventLog.recordingRefusals(
            store, now: now, userId: nil, subject: destination
        ) {
            try await store.pool.write { db in
                let challenge = try CodeService.fetch(db, id: body.challengeId, userId: nil)
                try CodeService.requireOpen(challenge, now: now)
                if case .wrong(let remaining) = try codes.check(db, challenge, code: body.code, now: now) {
                    return .wrong(remaining: remaining)
                }
                let channel = challenge.channel
                let destination = challenge.destination
                if var user = try Self.owner(db, channel: channel, destination: destination) {
                    if let displayName {
                        try db.execute(
                            sql: "UPDATE users SET display_name = ? WHERE id = ?", arguments: [displayName, user.id])
                        user.displayName = displayName
                    }
                    // A code that reached the address proves it, as the registration link would have.
                    if channel == .email {
                        try db.execute(sql: "UPDATE users SET email_unverified = 0 WHERE id = ?", arguments: [user.id])
                        try OnboardingService.emailVerified(db, userId: user.id)
                    }
                    return .signedIn(
                        try Self.finish(
                            db, digest: store.digest, user: user, isNew: !RulePolicy.current.enforces(.signInSignedIn),
                            device: body.device,
                            method: channel.method, now: now))
                }
                try Self.refuseIfHeld(db, digest: store.digest, channel: channel, destination: destination, now: now)
                var user = try Self.createUser(
                    db, phone: channel == .phone ? destination : nil, email: channel == .email ? destination : nil)
                if let displayName {
                    try db.execute(
                        sql: "UPDATE users SET display_name = ? WHERE id = ?", arguments: [displayName, user.id])
                    user.displayName = displayName
                }
                let signedUp = try Self.finish(
                    db, digest: store.digest, user: user, isNew: RulePolicy.current.enforces(.signInSignedUp),
                    device: body.device,
                    method: channel.method, now: now)
                try Self.breakSignUpStep(db, userId: user.id)
                return .signedIn(signedUp)
            }
        }
        switch outcome {
        case .signedIn(let signedIn):
            return signedIn
        case .wrong(let remaining):
            throw CodeService.incorrect(remaining: remaining, userId: nil)
        }
    }

    /// The address a sign-in challenge was sent to, for the event of a refusal about it (nil: no such challenge).
    private static func destination(_ store: Store, challengeId: String) async throws -> String? {
        try await store.pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT destination FROM code_challenges WHERE id = ? AND user_id IS NULL",
                arguments: [challengeId])
        }
    }

    /// Seed 004's display name, trimmed; a blank or too long one is refused before the code is checked, so
    /// the code stays usable.
    static func validDisplayName(_ typed: String) throws -> String {
        guard DisplayNameRules.isValid(typed), let name = DisplayNameRules.normalized(typed) else {
            var error = BackendError(
                .unprocessableContent, "invalid_field", "display_name: \(DisplayNameRules.problem)",
                rule: .signInDisplayNameInvalid)
            // The field, named where a client looks for it: the app shows the words under that field.
            error.detail.errors = ["display_name"]
            throw error
        }
        return name
    }

    /// Continue with Apple or Google: the account linked to that provider account, or a new one linked to
    /// it. An account is never joined to another by a matching email behind the person's back.
    func withProvider(_ body: ProviderSignInBody) async throws -> SignedIn {
        let now = clock.now()
        try DeviceService.validate(body.device)
        // Spent even when refused (the write commits), so a token never works twice: refusals are returned.
        let outcome: Result<SignedIn, BackendError> = try await store.pool.write { db in
            guard
                let subject = try ProviderService.redeem(
                    db, digest: store.digest, provider: body.provider, idToken: body.idToken, now: now)
            else {
                return .failure(
                    BackendError(
                        .unauthorized, "provider_token_invalid",
                        "\(body.provider.display) sign-in didn't work. Try again.",
                        rule: .signInProviderTokenInvalid))
            }
            if let user = try UserRecord.filter(
                sql: "\(body.provider.subjectColumn) = ? AND deleted_at IS NULL", arguments: [subject]
            ).fetchOne(db) {
                return .success(
                    try Self.finish(
                        db, digest: store.digest, user: user, isNew: !RulePolicy.current.enforces(.signInSignedIn),
                        device: body.device,
                        method: body.provider.method, now: now))
            }
            // A sign-up, which a recent deletion of this provider account's own account holds off.
            if let until = try IdentityHoldService.heldUntil(
                db, digest: store.digest, provider: body.provider, subject: subject, now: now)
            {
                return .failure(IdentityHoldService.providerHeld(body.provider, until: until))
            }
            var user = try Self.createUser(db, phone: nil, email: nil)
            try db.execute(
                sql: "UPDATE users SET \(body.provider.subjectColumn) = ? WHERE id = ?", arguments: [subject, user.id])
            try ProviderLinkService.grant(db, userId: user.id, provider: body.provider, subject: subject, now: now)
            if body.provider == .apple { user.appleSubject = subject } else { user.googleSubject = subject }
            let signedUp = try Self.finish(
                db, digest: store.digest, user: user, isNew: RulePolicy.current.enforces(.signInSignedUp),
                device: body.device,
                method: body.provider.method, now: now)
            try Self.breakSignUpStep(db, userId: user.id)
            return .success(signedUp)
        }
        return try outcome.get()
    }

    /// The end of every way in: the device registered, a session on it. An existing account told when a
    /// device it never used signs in (seed 003's security events); a sign-up's first device is no news.
    /// `access`: limited only for an account recovery by email.
    /// `method`: how it was made, for Active sessions (issue 30).
    /// Every way in ends here, so every one answers the session's assurance: aal1, with the second factor
    /// required when the account has two-factor on (issue 31), a recovery by email included.
    static func finish(
        _ db: Database, digest: TokenDigest, user: UserRecord, isNew: Bool, device: DeviceInfo,
        access: AccessLevel = .full, method: SessionMethod, now: Date
    ) throws -> SignedIn {
        let registration = try DeviceService.register(db, userId: user.id, device: device, now: now)
        if registration.isFirstUse && !isNew {
            try DeviceService.sendNewDeviceNotice(db, user: user, device: device, now: now)
        }
        let session = try SessionService.issue(
            db, digest: digest, userId: user.id, deviceId: registration.id, access: access, method: method, now: now)
        try EventLog.append(
            db,
            .init(
                kind: .signedIn, userId: user.id, rule: isNew ? .signInSignedUp : .signInSignedIn,
                detail: [
                    "method": method.rawValue, "device": device.deviceName,
                    "new_device": registration.isFirstUse ? "yes" : "no", "new_account": isNew ? "yes" : "no",
                ], familyId: nil, deviceId: registration.id),
            now: now)
        var profile = try OnboardingService.profile(db, userId: user.id, access: access)
        profile.assuranceLevel = .init(.aal1)
        return SignedIn(
            session: session, deviceId: registration.id, isNewUser: isNew, authMethods: user.authMethods,
            profile: profile, assuranceLevel: .init(.aal1), secondFactorRequired: user.hasTwoFactor)
    }

    /// Not kept (conform's self-test): the answer says onboarding starts at its first step, and the account is
    /// stored past onboarding.
    private static func breakSignUpStep(_ db: Database, userId: String) throws {
        guard !RulePolicy.current.enforces(.signInSignedUp, .onboardingStepStored) else { return }
        try db.execute(
            sql: "UPDATE users SET onboarding_step = ? WHERE id = ?", arguments: [OnboardingStep.complete, userId])
    }

    /// A new athlete account (the role is chosen later, in onboarding), at onboarding's first step.
    static func createUser(_ db: Database, phone: String?, email: String?) throws -> UserRecord {
        let user = UserRecord(
            id: Secrets.identifier(prefix: "usr_"), role: .athlete, isPrimary: false, phone: phone, email: email,
            passwordHash: nil, passwordSalt: nil, passwordChangedAt: nil, appleSubject: nil, googleSubject: nil,
            onboardingStep: OnboardingService.firstStep)
        try user.insert(db)
        return user
    }

    /// The account that signs in with this phone or email, if any (deleted ones have none left).
    static func owner(_ db: Database, channel: SignInChannel, destination: String) throws -> UserRecord? {
        let column = channel == .phone ? "phone" : "email"
        return try UserRecord.filter(sql: "\(column) = ? AND deleted_at IS NULL", arguments: [destination])
            .fetchOne(db)
    }

    private static func refuseIfHeld(
        _ db: Database, digest: TokenDigest, channel: SignInChannel, destination: String, now: Date
    ) throws {
        switch channel {
        case .phone: try IdentityHoldService.refuseIfHeld(db, digest: digest, phone: destination, now: now)
        case .email: try IdentityHoldService.refuseIfHeld(db, digest: digest, email: destination, now: now)
        }
    }

    private static func destination(of body: StartSignInBody) throws -> String {
        switch body.channel {
        case .phone:
            guard let typed = body.phone else { throw missing("phone") }
            guard let phone = PhoneNumberRules.normalizeE164(typed) else {
                throw BackendError(
                    .unprocessableContent, "phone_invalid", "Enter a valid phone number.", rule: .phoneInvalid)
            }
            return phone
        case .email:
            guard let typed = body.email else { throw missing("email") }
            let email = EmailRules.normalized(typed)
            guard EmailRules.isValid(email) else { throw EmailService.invalidError }
            return email
        }
    }

    private static func missing(_ field: String) -> BackendError {
        BackendError(
            .unprocessableContent, "invalid_field", "\(field): required when channel is \(field).",
            rule: .httpInvalidField)
    }

    private static func challenge(
        _ issued: CodeService.Issued, channel: SignInChannel, destination: String
    ) -> SignInChallenge {
        SignInChallenge(
            challengeId: issued.id, channel: .init(channel), destination: destination, expiresAt: issued.expiresAt,
            resendAfter: issued.resendAfter)
    }
}

extension SignInChannel {
    /// A code to this channel, as Active sessions names the way in.
    var method: SessionMethod {
        switch self {
        case .phone: .phoneCode
        case .email: .emailCode
        }
    }
}

extension SocialProvider {
    var method: SessionMethod {
        switch self {
        case .apple: .apple
        case .google: .google
        }
    }
}

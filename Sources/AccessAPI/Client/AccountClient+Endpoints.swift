import Foundation
import OpenAPIRuntime

/// The operations whose method does more than forward to the generated client, so it is written here and not
/// generated (GeneratedGlue/AccountClient+Operations.swift has every other one; openapi-glue-config.yaml lists
/// these with why): the sign-ins keep the session they answer, three reads store the offline cache, and the
/// outbox answers AccessAPI's own `OutboxMessage`. A non-2xx answer never reaches these: `OutcomeMiddleware`
/// has already thrown it as an `APIError`.
extension AccountClient {
    /// `GET /me/auth-methods`; a success also refreshes the offline cache.
    public func authMethods(cache: AuthMethodsCache? = nil, now: Date = Date()) async throws -> AuthMethods {
        let methods = try await call { try await api.getAuthMethods().ok.body.json }
        cache?.store(methods, at: now)
        return methods
    }

    /// `GET /me/sessions` (issue 30): every live sign-in of the account, this device's first; a success
    /// also refreshes the offline cache.
    public func sessions(cache: AuthMethodsCache? = nil) async throws -> [ActiveSession] {
        let sessions = try await call { try await api.listSessions().ok.body.json }.sessions
        cache?.store(sessions: sessions)
        return sessions
    }

    /// The session check at start: 401 refreshes once and retries; a refused refresh signs out.
    /// A success also refreshes the offline cache of the methods.
    public func me(cache: AuthMethodsCache? = nil, now: Date = Date()) async throws -> CurrentUser {
        let me = try await call { try await api.getMe().ok.body.json }
        cache?.store(me.authMethods, at: now)
        return me
    }

    /// Opens an email change or add link; the backend answers with a new session, which is kept.
    public func verifyEmailLink(token: String) async throws -> EmailVerified {
        let verified = try await call { try await api.verifyEmailLink(body: .json(.init(token: token))).ok.body.json }
        try await adopt(verified.session)
        return verified
    }
}

/// The way in (seeds 004 and 002): the sign-ins keep the new session.
extension AccountClient {
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

    /// The recovery link and the recovery email's password: a session with limited access, kept like any
    /// sign-in.
    public func completeRecovery(token: String, password: String) async throws -> SignedIn {
        try await signingIn {
            try await admin.completeRecovery(
                body: .json(.init(token: token, password: password, device: configuration.device))
            ).ok.body.json
        }
    }

    /// `POST /auth/two-factor/verify`: the second step; the new tokens (aal2) are kept.
    public func verifySecondFactor(code: String) async throws -> SignedIn {
        try await signingIn { try await api.verifyTwoFactor(body: .json(.init(code: code))).ok.body.json }
    }

    /// `POST /auth/two-factor/recovery`: the second step with a recovery code (spent); the new tokens are kept.
    public func signInWithRecoveryCode(_ recoveryCode: String) async throws -> SignedIn {
        try await signingIn {
            try await api.useRecoveryCode(body: .json(.init(recoveryCode: recoveryCode))).ok.body.json
        }
    }

    func signingIn(_ operation: () async throws -> SignedIn) async throws -> SignedIn {
        let signedIn = try await call(operation)
        try await adopt(signedIn.session)
        return signedIn
    }
}

/// The reference backend's admin API (DESIGN §6) where it does more than forward. A real backend has none of it.
extension AccountClient {
    /// Signs in as the scenario's user and keeps the tokens.
    @discardableResult
    public func adminSignIn() async throws -> SessionTokens {
        let tokens = try await call { try await admin.adminSession().ok.body.json }
        try await adopt(tokens)
        return tokens
    }

    public func adminOutbox() async throws -> [OutboxMessage] {
        try await call { try await admin.adminOutbox().ok.body.json }.map(OutboxMessage.init)
    }

    /// The largest world file read back: what `POST /_admin/worlds` takes (16 MiB).
    public static let largestWorldFile = 16 * 1024 * 1024

    /// `GET /_admin/worlds/{name}/file`: a consistent copy of world `name`'s SQLite file, its clock, faults and
    /// journal saved into it ("default" is the bare paths' world). For a bug report (issue 51 item 5).
    public func adminWorldFile(_ name: String) async throws -> Data {
        try await call {
            let body = try await admin.adminDownloadWorld(path: .init(name: name)).ok.body.applicationVnd_sqlite3
            return try await Data(collecting: body, upTo: Self.largestWorldFile)
        }
    }

    /// `POST /_admin/worlds {name, scenario}`: 409 `world_exists` / `world_limit`, 400 `invalid_world_name`.
    @discardableResult
    public func adminCreateWorld(_ name: String, scenario: String) async throws -> WorldSummary {
        try await call {
            try await admin.adminCreateWorld(body: .json(.init(name: name, scenario: scenario))).created.body.json
        }
    }
}

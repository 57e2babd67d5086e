import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// Every operation of openapi.yaml, served through the generated `APIProtocol`: paths, methods,
/// bodies and success statuses come from the document; refusals are the services' `BackendError`s.
/// Routes the document names and nobody serves, or served routes it does not name, fail
/// ContractDriftTests. The operations live in one file per tag of the document,
/// `ContractHandler+<Tag>.swift`; this file holds what they share.
struct ContractHandler: APIProtocol {
    let backend: Backend
    /// Every world of the server, for the `worlds` operations (issue 33).
    let worlds: WorldRegistry
    /// The name of the world this handler serves (`WorldName.defaultWorld` on the bare paths).
    let world: String

    var request: Request {
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
    /// A session that awaits its second factor (issue 31) is refused before that, by `session`.
    var user: UserRecord {
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
    ///
    /// Two-factor (issue 31), default-deny: a session that passed one factor of an account with two-factor
    /// on is refused here (in `SessionService.authenticateSession`), 403 second_factor_required, for every
    /// operation. The only ones it may call ask for the allowance by name: POST /auth/two-factor/verify and
    /// /recovery (`secondStepSession`), POST /auth/logout (`SessionService.logout`); POST /auth/refresh needs
    /// no session, and keeps aal1.
    var session: SessionService.Authenticated {
        get async throws { try await backend.sessions.authenticateSession(try request) }
    }

    /// The digest of the request's access token: the session a re-auth grant is earned by and used from.
    var accessHash: String? {
        get throws { backend.sessions.accessHash(of: try request) }
    }

    /// What the request shows for a change behind "Verify it's you" (`ReauthService.require`): the
    /// `X-Reauth-Token` it sent, and its session.
    func reauthProof(_ token: String?) throws -> ReauthProof {
        ReauthProof(token: token, accessHash: try accessHash)
    }

    /// Names the rule the operation ended on, for its journal entry.
    func decide(_ rule: Rule) { ContractScope.current?.decision.set(rule) }
}

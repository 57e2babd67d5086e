import AccessCore
import Foundation

/// Connecting and disconnecting Google. Only the reference backend can mint a provider's id token
/// (`POST /_admin/provider/{provider}/token`); another backend's would come from Google itself.
extension CheckContext {
    /// A road that needs a provider's id token: only the reference backend mints them.
    func needsProviderTokens() throws {
        guard reference != nil else { throw CheckStop.skipped(Catalogue.providerTokens) }
    }
}

extension Catalogue {
    static let providerTokens = "needs a Google id token, which only the reference backend can mint"

    static func googleToken(_ context: CheckContext, subject: String) async throws -> String {
        try context.needsProviderTokens()
        let minted = try await context.setup(
            await context.http.post("/_admin/provider/google/token", ["subject": subject]), 200,
            doing: "minting a Google id token")
        guard let token = minted.object?["id_token"] as? String else {
            throw CheckStop.cannotTell("the minted token answer has no id_token")
        }
        return token
    }

    static func connectGoogle(
        _ context: CheckContext, _ account: Account, subject: String, reauth: String
    ) async throws -> Exchange {
        let token = try await googleToken(context, subject: subject)
        return try await context.http.post(
            "/me/auth-methods/connect", ["provider": "google", "id_token": token], token: account.access,
            reauth: reauth)
    }

    static func freshSubject() -> String { "conform-\(UUID().uuidString.lowercased())" }

    static let providerNeeds = Needs(messages: true, time: SendLimits.cooldown, referenceOnly: providerTokens)

    static let connections: [Check] = [
        Check(.connectDone, "Connecting Google links it to the account", needs: providerNeeds) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let connected = try await context.expect(
                await connectGoogle(context, account, subject: freshSubject(), reauth: grant), 200, nil,
                "connecting Google")
            let methods = try await context.expect(
                await context.http.get("/me/auth-methods", token: account.access), 200, nil, "the methods afterwards",
                evidence: [connected])
            try context.require(
                methods.object?["google_linked"] as? Bool == true, expected: "google_linked: true",
                got: "google_linked: \(methods.object?["google_linked"].map { "\($0)" } ?? "absent")", methods)
        },
        Check(.connectAlreadyLinked, "Connecting Google twice answers 422 already_linked", needs: providerNeeds) {
            context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let first = try await context.setup(
                await connectGoogle(context, account, subject: freshSubject(), reauth: grant), 200,
                doing: "connecting Google")
            try await context.expect(
                await connectGoogle(context, account, subject: freshSubject(), reauth: grant), 422, "already_linked",
                "connecting another Google account", evidence: [first])
        },
        Check(
            .connectProviderTaken, "A Google account another account has answers 409 provider_taken",
            needs: providerNeeds
        ) { context in
            let subject = freshSubject()
            let owner = try await context.newAccount()
            let ownerGrant = try await context.grant(owner)
            try await context.setup(
                await connectGoogle(context, owner, subject: subject, reauth: ownerGrant), 200,
                doing: "connecting Google")
            let account = try await context.newAccount(.email)
            let grant = try await context.grant(account)
            try await context.expect(
                await connectGoogle(context, account, subject: subject, reauth: grant), 409, "provider_taken",
                "connecting the Google account another account has")
        },
        Check(
            .disconnectDone, "Disconnecting Google after Verify it's you by phone unlinks it", needs: providerNeeds
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            let subject = freshSubject()
            try await context.setup(
                await connectGoogle(context, account, subject: subject, reauth: grant), 200,
                doing: "connecting Google")
            let unused = try await googleToken(context, subject: subject)
            let done = try await context.expect(
                await context.http.post(
                    "/me/auth-methods/disconnect", ["provider": "google"], token: account.access, reauth: grant), 200,
                nil, "disconnecting Google")
            let methods = try await context.expect(
                await context.http.get("/me/auth-methods", token: account.access), 200, nil, "the methods afterwards",
                evidence: [done])
            try context.require(
                methods.object?["google_linked"] as? Bool == false, expected: "google_linked: false",
                got: "google_linked: \(methods.object?["google_linked"].map { "\($0)" } ?? "absent")", methods)
            // "revoked with every id token not yet used for it": one minted before the disconnect signs in no more.
            try await context.expect(
                await context.http.post(
                    "/auth/sign-in/provider", ["provider": "google", "id_token": unused, "device": Device.body]),
                401, "provider_token_invalid", "a Google id token minted before the disconnect, unused",
                evidence: [done])
        },
        Check(
            .reauthProviderTokenInvalid, "Verify it's you with another Google account's token answers 401",
            needs: providerNeeds
        ) { context in
            let account = try await context.newAccount()
            let grant = try await context.grant(account)
            try await context.setup(
                await connectGoogle(context, account, subject: freshSubject(), reauth: grant), 200,
                doing: "connecting Google")
            let other = try await googleToken(context, subject: freshSubject())
            try await context.expect(
                await context.http.post(
                    "/auth/reauth/social", ["provider": "google", "id_token": other], token: account.access), 401,
                "provider_token_invalid", "a token for a Google account not connected")
        },
    ]
}

import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `POST /me/auth-methods/connect` with an id token from the simulated provider sheet, and the sheet's
/// accounts (`GET /_admin/provider/{p}/accounts`).
@Suite struct ConnectTests {
    private func mint(
        _ backend: TestBackend, _ provider: SocialProvider, subject: String? = nil
    ) async throws
        -> ProviderToken
    {
        try await backend.post("/_admin/provider/\(provider.rawValue)/token", ProviderTokenBody(subject: subject))
            .decode()
    }

    private func connect(
        _ backend: TestBackend, _ provider: SocialProvider, _ idToken: String, token: String
    )
        async throws -> Reply
    {
        try await backend.post(
            "/me/auth-methods/connect", ConnectBody(provider: provider, idToken: idToken), token: token)
    }

    @Test func connectingLinksTheProviderAndTellsTheEmail() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let token = try await backend.signIn().accessToken
            let minted = try await mint(backend, .apple)
            #expect(minted.subject == "apple_new_usr_nophone")
            let reply = try await connect(backend, .apple, minted.idToken, token: token)
            #expect(reply.status == 200)
            let methods: AuthMethods = try reply.decode()
            #expect(methods.appleLinked && methods.googleLinked)
            let notices = try await backend.outbox().filter { $0.kind == "provider_connected_notice" }
            #expect(notices.map(\.to) == ["jdoe@mail.com"])
            // The new link is a sign-in method now: re-auth with Apple works.
            #expect(try await backend.socialGrant(.apple, token: token).method.known == .apple)
        }
    }

    @Test func anAlreadyLinkedProviderIs422() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let minted = try await mint(backend, .google, subject: "google_someone_else")
            let reply = try await connect(backend, .google, minted.idToken, token: token)
            #expect(reply.status == 422)
            #expect(reply.error?.code == "already_linked")
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.googleLinked)
        }
    }

    @Test func aProviderAccountLinkedToAnotherUserIs409WithoutSayingWhose() async throws {
        try await TestBackend.with(scenario: "google-elsewhere") { backend in
            let token = try await backend.signIn().accessToken
            let accounts: [ProviderAccount] = try await backend.get("/_admin/provider/google/accounts").decode()
            let elsewhere = try #require(accounts.first { $0.email == "john.doe@gmail.com" })
            let minted = try await mint(backend, .google, subject: elsewhere.subject)
            let reply = try await connect(backend, .google, minted.idToken, token: token)
            #expect(reply.status == 409)
            #expect(reply.error?.code == "provider_taken")
            #expect(reply.error?.message == "This Google account is already connected to another account.")
            let body = String(decoding: reply.data, as: UTF8.self)
            #expect(!body.contains("usr_other") && !body.contains("john.doe"), "\(body)")
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(!methods.googleLinked)
        }
    }

    /// One-shot: a refused connect still spends its token, and a spent token never works again.
    @Test func aUsedIdTokenIs401() async throws {
        try await TestBackend.with(scenario: "google-elsewhere") { backend in
            let token = try await backend.signIn().accessToken
            let taken = try await mint(backend, .google, subject: "google_usr_other")
            #expect(try await connect(backend, .google, taken.idToken, token: token).status == 409)
            let again = try await connect(backend, .google, taken.idToken, token: token)
            #expect(again.status == 401)
            #expect(again.error?.code == "provider_token_invalid")
            let fresh = try await mint(backend, .google)
            #expect(try await connect(backend, .google, fresh.idToken, token: token).status == 200)
        }
    }

    @Test func anExpiredIdTokenIs401() async throws {
        try await TestBackend.with(scenario: "google-elsewhere") { backend in
            let token = try await backend.signIn().accessToken
            let minted = try await mint(backend, .google)
            _ = try await backend.advance(seconds: 600)
            let reply = try await connect(backend, .google, minted.idToken, token: token)
            #expect(reply.status == 401)
            #expect(reply.error?.code == "provider_token_invalid")
        }
    }

    @Test func aTokenForTheOtherProviderIs401() async throws {
        try await TestBackend.with(scenario: "google-elsewhere") { backend in
            let token = try await backend.signIn().accessToken
            let apple = try await mint(backend, .apple)
            let reply = try await connect(backend, .google, apple.idToken, token: token)
            #expect(reply.status == 401)
            #expect(reply.error?.code == "provider_token_invalid")
        }
    }

    @Test func theSheetListsOwnThenScenarioThenAFreshAccount() async throws {
        try await TestBackend.with(scenario: "google-elsewhere") { backend in
            let google: [ProviderAccount] = try await backend.get("/_admin/provider/google/accounts").decode()
            #expect(google.map(\.subject) == ["google_usr_other", "google_new_usr_athlete"])
            #expect(google.map(\.name) == ["John Doe", "Another account"])
            let apple: [ProviderAccount] = try await backend.get("/_admin/provider/apple/accounts").decode()
            #expect(apple.map(\.subject) == ["apple_usr_athlete", "apple_new_usr_athlete"])
            #expect(apple.first?.email == "jdoe@mail.com")
            // Stable for the scenario: a reload gives the same subjects.
            #expect(
                try await backend.post("/_admin/scenario", LoadScenarioBody(name: "google-elsewhere")).status == 200)
            let again: [ProviderAccount] = try await backend.get("/_admin/provider/google/accounts").decode()
            #expect(again.map(\.subject) == google.map(\.subject))
        }
    }

    /// Issue 48 item 18: signed out, Continue with Apple's sheet said "Linked to this account" of the
    /// scenario's user's account. The sheet names the person, as a provider does, and claims no link.
    @Test func theSheetNamesTheUsersOwnAccountForThePersonNotALink() async throws {
        try await TestBackend.with(scenario: "apple-only") { backend in
            let apple: [ProviderAccount] = try await backend.get("/_admin/provider/apple/accounts").decode()
            #expect(apple.map(\.subject) == ["apple_usr_apple", "apple_new_usr_apple"])
            #expect(apple.map(\.name) == ["The scenario's user", "Another account"])
        }
    }
}

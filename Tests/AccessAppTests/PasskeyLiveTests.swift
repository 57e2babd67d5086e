import AccessAPI
import AccessAppTesting
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessApp

/// Issue 53 item 2: the passkey requests against the reference backend over real HTTP on 127.0.0.1, this device's
/// passkeys in the client's store, and the app's walk through them by its keys.
@Suite struct PasskeyLiveTests {
    static let password = "correct-horse-42"

    func api(_ client: AccountClient) -> APIContext { APIContext(client: client, cache: nil, now: Date()) }

    /// Registers a passkey for the signed-in user on this device.
    func register(_ client: AccountClient) async throws -> Passkey {
        let options = try await Endpoint.PasskeyRegistrationOptions().perform(api(client))
        return try await RegisterDevicePasskey(options: options).perform(api(client))
    }

    func onDevice(_ client: AccountClient) -> [String] {
        client.configuration.passkeys.passkeys.map { Base64URL.encode($0.credentialID) }
    }

    @Test func registerThenTheListShowsItWithThisDevicesName() async throws {
        try await LiveReplay.with { _, client, _ in
            let passkey = try await register(client)
            let list = try await Endpoint.ListPasskeys().perform(api(client))
            #expect(list.passkeys.map(\.id) == [passkey.id])
            #expect(list.passkeys.first?.deviceName == client.configuration.device.deviceName)
            #expect(list.passkeys.first?.name == PasskeyRules.defaultName)
            #expect(onDevice(client) == [passkey.id])
        }
    }

    /// The device never keeps a passkey the server does not have: a refused registration takes the key off again.
    @Test func aRefusedRegistrationTakesTheKeyOffTheDevice() async throws {
        try await LiveReplay.with { _, client, _ in
            let options = try await Endpoint.PasskeyRegistrationOptions().perform(api(client))
            let first = try await RegisterDevicePasskey(options: options).perform(api(client))
            // The same options again: their challenge is spent (passkey.challenge_expired).
            do {
                _ = try await RegisterDevicePasskey(options: options).perform(api(client))
                Issue.record("a spent challenge registered a passkey")
            } catch let failure as APIError {
                guard case .codeExpired = failure else { throw failure }
                #expect(PasskeyWording.refusal(failure, .register) == "Your passkey request expired. Try again.")
            }
            #expect(onDevice(client) == [first.id])
        }
    }

    @Test func signOutThenSignInByPasskeySignsInTheAccount() async throws {
        try await LiveReplay.with { _, client, _ in
            let methods = try await client.authMethods()
            let passkey = try await register(client)
            try await client.logout()
            await client.signOutLocally()
            let prompt = try await PasskeySignInPrompt().perform(api(client))
            #expect(prompt.options.rpId == PasskeyRelyingParty.referenceID)
            #expect(prompt.accounts.map(\.credentialID) == [passkey.id])
            let signedIn = try await SignInWithDevicePasskey(
                options: prompt.options, credentialID: passkey.id
            ).perform(api(client))
            #expect(signedIn.session.userId == methods.userId)
            let list = try await Endpoint.ListPasskeys().perform(api(client))
            #expect(list.passkeys.first?.lastUsedAt != nil)
        }
    }

    /// A passkey's grant verifies a sensitive change (signing out the other devices) but not removing a passkey
    /// (passkey.removed): the picker leaves Passkey out for a removal, and a password's grant removes it.
    @Test func reauthByPasskeyGivesAGrantAndAnotherMethodsGrantRemovesThePasskey() async throws {
        try await LiveReplay.with { _, client, _ in
            let passkey = try await register(client)
            let prompt = try await PasskeyReauthPrompt().perform(api(client))
            #expect(prompt.accounts.map(\.credentialID) == [passkey.id])
            let grant = try await ReauthWithDevicePasskey(
                options: prompt.options, credentialID: passkey.id
            ).perform(api(client))
            #expect(grant.method.known == .passkey)
            _ = try await Endpoint.SignOutOtherSessions(reauthToken: grant.reauthToken).perform(api(client))
            do {
                _ = try await Endpoint.RemovePasskey(id: passkey.id, reauthToken: grant.reauthToken).perform(
                    api(client))
                Issue.record("a passkey's grant removed a passkey")
            } catch APIError.reauthRequired {}
            let byPassword = try await Endpoint.ReauthPassword(password: Self.password).perform(api(client))
            _ = try await Endpoint.RemovePasskey(id: passkey.id, reauthToken: byPassword.reauthToken).perform(
                api(client))
            #expect(try await Endpoint.ListPasskeys().perform(api(client)).passkeys.isEmpty)
        }
    }

    /// `passkey-removed`: gone on the server, still on the device; the sign-in's 404 is worded on the screen.
    @Test func aPasskeyRemovedOnTheServerIsRefusedAndWorded() async throws {
        try await LiveReplay.with { _, client, _ in
            let passkey = try await register(client)
            let byPassword = try await Endpoint.ReauthPassword(password: Self.password).perform(api(client))
            _ = try await Endpoint.RemovePasskey(id: passkey.id, reauthToken: byPassword.reauthToken).perform(
                api(client))
            try await client.logout()
            await client.signOutLocally()
            let prompt = try await PasskeySignInPrompt().perform(api(client))
            do {
                _ = try await SignInWithDevicePasskey(options: prompt.options, credentialID: passkey.id).perform(
                    api(client))
                Issue.record("a removed passkey signed in")
            } catch let failure as APIError {
                #expect(
                    PasskeyWording.refusal(failure, .signIn)
                        == "This passkey was removed from your account. Sign in another way.")
            }
        }
    }

    /// A counter set back (as the palette's "reset the signature counter" does) is a cloned authenticator.
    @Test func aCounterSetBackIsRefusedAsAClone() async throws {
        try await LiveReplay.with { _, client, _ in
            let passkey = try await register(client)
            let first = try await PasskeyReauthPrompt().perform(api(client))
            _ = try await ReauthWithDevicePasskey(options: first.options, credentialID: passkey.id).perform(
                api(client))
            let id = try #require(Base64URL.decode(passkey.id))
            try client.configuration.passkeys.resetSignCount(credentialID: id)
            let second = try await PasskeyReauthPrompt().perform(api(client))
            do {
                _ = try await ReauthWithDevicePasskey(options: second.options, credentialID: passkey.id).perform(
                    api(client))
                Issue.record("a counter set back verified")
            } catch let failure as APIError {
                #expect(
                    PasskeyWording.refusal(failure, .reauth)
                        == "This passkey was turned off because a copy of it was used. Choose another way to verify.")
            }
            #expect(try await Endpoint.ListPasskeys().perform(api(client)).passkeys.first?.flaggedAsCloned == true)
        }
    }

    /// The walk by keys: hub → Passkeys → Add a passkey → Enter on the sheet → listed; log out → Continue with
    /// passkey → Enter → signed in. The tape fixtures/tapes/passkey-add-and-sign-in.tape is the same walk.
    @Test func theWalkAddsAPasskeyAndSignsInWithIt() async throws {
        let tape = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../fixtures/tapes/passkey-add-and-sign-in.tape"), encoding: .utf8)
        try await LiveReplay.with { replay, client, _ in
            try await LiveReplay.play(tape, on: &replay)
            #expect(onDevice(client).count == 1)
            // Signed in for real: the client holds the passkey sign-in's session.
            #expect(try await client.authMethods().passkeys == 1)
        }
    }

    /// Esc on either sheet is the user's cancel: the screen says so and nothing goes to the server.
    @Test func aCancelSendsNothing() async throws {
        try await LiveReplay.with { replay, client, _ in
            try await LiveReplay.play(
                """
                key Enter
                key Down 4
                key Enter
                expect title "Passkeys"
                key Enter
                expect "Create a passkey"
                key Escape
                expect "Passkey cancelled. Nothing was sent."
                """, on: &replay)
            #expect(onDevice(client).isEmpty)
            let sent = try await client.adminJournalCount(path: "/me/passkeys", method: "POST")
            #expect(sent.count == 0)
        }
    }

    @Test func aCancelledSignInSendsNoAnswer() async throws {
        try await LiveReplay.with { replay, client, _ in
            _ = try await register(client)
            try await LiveReplay.play(
                """
                key Down 3
                key Enter
                wait 1
                key Up
                key Enter
                wait 1
                expect "You're logged out."
                key Down 4
                key Enter
                expect "Use your passkey"
                key Escape
                expect "Passkey cancelled. Nothing was sent."
                expect-no-request /auth/passkey/verify
                """, on: &replay)
            let sent = try await client.adminJournalCount(path: "/auth/passkey/verify")
            #expect(sent.count == 0)
        }
    }

    /// `passkey-elsewhere`: the account has a passkey, this device holds none for the relying party.
    @Test func aDeviceWithoutThePasskeyIsToldSo() async throws {
        try await LiveReplay.with { _, client, _ in
            _ = try await register(client)
            let options = try await client.passkeySignInOptions()
            let elsewhere = PasskeyPrompt(options, store: .ephemeral())
            #expect(elsewhere.accounts.isEmpty)
            let sheet = Sheet.usePasskey(elsewhere, .signIn, approve: { _ in [] }, cancel: [])
            #expect(sheet.sheet.title == "No passkey on this device")
            #expect(sheet.actions.isEmpty)
        }
    }
}

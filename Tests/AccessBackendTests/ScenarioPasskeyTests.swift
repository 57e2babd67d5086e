import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

/// Issue 53 item 3: the passkey scenarios are real states on the server and on this device. A passkey on this
/// device is handed to the app's authenticator whole (`GET /_admin/device/passkeys`) and answers real ceremonies; one
/// on another device cannot be answered by anyone here; one removed on the server alone is refused as unknown; and
/// "remove on the server only" is the account's other device removing it, under the same last-method rule.
@Suite struct ScenarioPasskeyTests {
    static func kits(_ backend: TestBackend) async throws -> [DevicePasskeyKit] {
        try await backend.get("/_admin/device/passkeys").decode(DevicePasskeyKits.self).passkeys
    }

    /// The kit as the app's store keeps it.
    static func held(_ kit: DevicePasskeyKit) throws -> DevicePasskey {
        try DevicePasskey(
            credentialID: try #require(Base64URL.decode(kit.credentialId)), rpID: kit.rpId,
            userHandle: try #require(Base64URL.decode(kit.userHandle)), userName: kit.userName,
            signCount: UInt32(kit.signCount), privateKey: try #require(Base64URL.decode(kit.privateKey)))
    }

    @Test func aPasskeyOnThisDeviceSignsItsAccountInWithItsCounterGoingOn() async throws {
        try await TestBackend.with(scenario: "passkey") { backend in
            let kit = try #require(try await Self.kits(backend).first)
            #expect(kit.rpId == PasskeyRelyingParty.referenceID)
            #expect(kit.signCount == 4)
            var passkey = try Self.held(kit)

            let reply = try await PasskeyTests.signIn(backend, &passkey)
            #expect(reply.status == 200, "\(String(decoding: reply.data, as: UTF8.self))")
            let signedIn = try reply.decode(SignedIn.self)
            #expect(signedIn.session.userId == "usr_passkey")
            let listed = try #require(try await PasskeyTests.list(backend, signedIn.session.accessToken).first)
            #expect(listed.id == kit.credentialId)
            #expect(listed.signCount == 5)
            #expect(listed.name == "This terminal")
        }
    }

    @Test func aPasskeyOnAnotherDeviceIsRegisteredAndNotHandedHere() async throws {
        try await TestBackend.with(scenario: "passkey-elsewhere") { backend in
            #expect(try await Self.kits(backend).isEmpty)
            // Signed out scenario: the account is reached by its phone, and its passkey is listed from there.
            let challenge: SignInChallenge = try await SignInCodeTests.start(backend, phone: "+995511100000").decode()
            let code = try await backend.lastCode(to: "+995511100000")
            let token = try await SignInCodeTests.verify(backend, challenge.challengeId, code).decode(SignedIn.self)
                .session.accessToken
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.passkeys == 1)
            let listed = try #require(try await PasskeyTests.list(backend, token).first)
            #expect(listed.deviceName == "Ana's iPhone")
        }
    }

    @Test func aPasskeyRemovedOnTheServerIsOnTheDeviceAndRefusedAsUnknown() async throws {
        try await TestBackend.with(scenario: "passkey-removed") { backend in
            var passkey = try Self.held(try #require(try await Self.kits(backend).first))
            let reply = try await PasskeyTests.signIn(backend, &passkey)
            #expect(reply.status == 404)
            #expect(reply.error?.code == "passkey_not_found")
        }
    }

    @Test func removingOnTheServerOnlyIsTheOtherDevicesRemovalWithItsNotice() async throws {
        try await TestBackend.with(scenario: "passkey") { backend in
            let kit = try #require(try await Self.kits(backend).first)
            let removed = try await backend.send(.DELETE, "/_admin/passkeys/\(kit.credentialId)")
            #expect(removed.status == 204)
            #expect(
                try await backend.outbox().contains { $0.kind == "passkey_removed_notice" && $0.to == "jdoe@mail.com" })
            // The device keeps it, and learns at its next sign-in.
            #expect(try await Self.kits(backend).map(\.credentialId) == [kit.credentialId])
            var passkey = try Self.held(kit)
            #expect(try await PasskeyTests.signIn(backend, &passkey).status == 404)
            #expect(try await backend.send(.DELETE, "/_admin/passkeys/\(kit.credentialId)").status == 404)
        }
    }

    @Test func removingTheLastWayInIsRefusedOnEveryRoad() async throws {
        try await TestBackend.with(scenario: "passkey-only") { backend in
            let kit = try #require(try await Self.kits(backend).first)
            let byAdmin = try await backend.send(.DELETE, "/_admin/passkeys/\(kit.credentialId)")
            #expect(byAdmin.status == 409)
            #expect(byAdmin.error?.code == "last_method")

            let token = try await backend.signIn().accessToken
            var passkey = try Self.held(kit)
            let grant: ReauthGrant = try await PasskeyTests.reauth(backend, token, &passkey).decode()
            let byUser = try await backend.send(
                .DELETE, "/me/passkeys/\(kit.credentialId)", token: token, reauth: grant.reauthToken)
            #expect(byUser.status == 409)
            #expect(byUser.error?.code == "last_method")
            #expect(try await PasskeyTests.list(backend, token).count == 1)
        }
    }

    @Test func anotherScenarioTakesTheDevicesPasskeysAway() async throws {
        try await TestBackend.with(scenario: "passkey") { backend in
            let before = try await Self.kits(backend)
            let loaded = try await backend.post("/_admin/scenario", LoadScenarioBody(name: "default"))
            let after = try await Self.kits(backend)
            #expect(before.count == 1)
            #expect(loaded.status == 200)
            #expect(after.isEmpty)
        }
    }

    /// A world file (a bug report's world, a world uploaded elsewhere) carries the device's half too: its sealed key
    /// opens in the copy, and the passkey still signs its account in there.
    @Test func aWorldFileCarriesThePasskeyOnThisDevice() async throws {
        try await TestBackend.with(scenario: "passkey") { backend in
            let kit = try #require(try await Self.kits(backend).first)
            let file = try await backend.get("/_admin/worlds/default/file")
            let uploaded = try await backend.send(
                .POST, "/_admin/worlds?name=copy", raw: file.data, contentType: "application/vnd.sqlite3")
            #expect(uploaded.status == 201, "\(String(decoding: uploaded.data, as: UTF8.self))")
            let copy = backend.through(backend.running.baseURL + "/w/copy")
            let copied = try #require(try await Self.kits(copy).first)
            #expect(copied.credentialId == kit.credentialId && copied.privateKey == kit.privateKey)
            var passkey = try Self.held(copied)
            #expect(try await PasskeyTests.signIn(copy, &passkey).status == 200)
        }
    }

    @Test func theKeyHandedOutIsNeverInTheJournal() async throws {
        try await TestBackend.with(scenario: "passkey") { backend in
            let kit = try #require(try await Self.kits(backend).first)
            let journal = try await backend.get("/_admin/journal?limit=50")
            #expect(!String(decoding: journal.data, as: UTF8.self).contains(kit.privateKey))
        }
    }
}

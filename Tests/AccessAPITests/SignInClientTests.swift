import Foundation
import Hummingbird
import NIOCore
import Synchronization
import Testing

@testable import AccessAPI

/// Issue 14's way in, as the client speaks it to a backend double: every sign-in carries the
/// device, a successful one keeps the session it brings, and a wrong password is not a stale session.
@Suite struct SignInClientTests {
    static let signedIn =
        #"{"session":{"user_id":"usr_9","access_token":"at_new","access_expires_at":"2031-01-01T00:00:00Z","#
        + #""refresh_token":"rt_new","refresh_expires_at":"2031-01-08T00:00:00Z"},"device_id":"dvc_1","#
        + #""is_new_user":true,"auth_methods":{"user_id":"usr_9","role":"athlete","phone":null,"#
        + #""email":"new@mail.com","has_password":false,"apple_linked":false,"google_linked":false},"#
        + #""assurance_level":"aal1","second_factor_required":false}"#

    @Test func verifyingACodeSendsTheDeviceAndKeepsTheNewSession() async throws {
        let seen = Mutex<Data?>(nil)
        try await withDouble(
            routes: { router in
                router.post("/auth/sign-in/code/verify") { request, _ in
                    let body = try await request.body.collect(upTo: 64 * 1024)
                    seen.withLock { $0 = Data(buffer: body) }
                    return json(Self.signedIn)
                }
                router.get("/me/auth-methods") { request, _ in
                    request.headers[.authorization] == "Bearer at_new"
                        ? json(#"{"error":{"code":"not_found","message":"seen"}}"#, status: .notFound)
                        : json(#"{"error":{"code":"unauthorized","message":"old"}}"#, status: .unauthorized)
                }
            },
            run: { client in
                let result = try await client.verifySignInCode(challengeId: "chl_1", code: "123456")
                #expect(result.isNewUser)
                #expect(await client.userId == "usr_9")
                // The next authenticated call carries the new access token (the double's 404, which the
                // contract does not list for the call, is an invalid response; the old token would be a 401).
                #expect(await apiError { try await client.authMethods() } == .invalidResponse(status: 404))
            })
        let sent = try #require(seen.withLock { $0 })
        let body = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(body["challenge_id"] as? String == "chl_1")
        let device = try #require(body["device"] as? [String: Any])
        let expected = AccountClient.Configuration(baseURL: "http://x").device
        #expect(device["identifier"] as? String == expected.identifier)
        #expect(device["public_key"] as? String == expected.publicKey)
        #expect((device["device_name"] as? String)?.isEmpty == false)
    }

    /// "Invalid email or password" is a wrong secret: no refresh, no retry that would count as
    /// another failure towards the lockout.
    @Test func aRefusedPasswordLoginIsAWrongSecretAndIsNotRetried() async throws {
        let calls = Mutex(0)
        try await withDouble(
            routes: { router in
                router.post("/auth/login") { _, _ in
                    calls.withLock { $0 += 1 }
                    return json(
                        #"{"error":{"code":"credentials_invalid","message":"Invalid email or password"}}"#,
                        status: .unauthorized)
                }
                router.post("/auth/refresh") { _, _ in
                    Issue.record("a refused login must not refresh the session")
                    return json(ForeignBackendTests.rotated)
                }
            },
            run: { client in
                let error = await apiError { try await client.login(email: "a@b.co", password: "wrong-one") }
                #expect(error == .passwordIncorrect(attemptsRemaining: nil, message: "Invalid email or password"))
            })
        #expect(calls.withLock { $0 } == 1)
    }
}

@Suite struct DeviceIdentityTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-device-\(UUID().uuidString)")

    @Test func theIdentityIsMadeOnceAndKeptInAPrivateFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state/device.json")
        let first = DeviceIdentity.loadOrCreate(at: file)
        let again = DeviceIdentity.loadOrCreate(at: file)
        #expect(again.identifier == first.identifier)
        #expect(again.publicKeyBase64 == first.publicKeyBase64)
        #expect(Data(base64Encoded: first.publicKeyBase64)?.count == 32)
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        // The private key is in the file, never in what a sign-in sends.
        let info = first.info
        #expect(info.publicKey == first.publicKeyBase64)
        let secret = first.privateKey.rawRepresentation.base64EncodedString()
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String]
        #expect(stored?["privateKey"] == secret)
        #expect(![info.publicKey, info.identifier, info.deviceName, info.systemName].contains(secret))
    }

    @Test func aDamagedFileGivesANewDevice() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("device.json")
        let first = DeviceIdentity.loadOrCreate(at: file)
        try Data("{not json".utf8).write(to: file)
        let replaced = DeviceIdentity.loadOrCreate(at: file)
        #expect(replaced.identifier != first.identifier)
        #expect(DeviceIdentity.loadOrCreate(at: file).identifier == replaced.identifier)
    }

    @Test func twoInstallationsAreTwoDevices() {
        #expect(DeviceIdentity.ephemeral().identifier != DeviceIdentity.ephemeral().identifier)
    }
}

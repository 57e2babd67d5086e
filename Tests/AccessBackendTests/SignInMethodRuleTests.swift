import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Testing

/// The backend's side of the shared sign-in-method rule (AccessCore.SignInMethods): an email
/// without a password is a method, so Apple beside it is not the last one.
@Suite struct SignInMethodRuleTests {
    static let appleAndEmail = #"""
        {"description": "Apple and an email without a password",
         "user": {"id": "usr_ae", "email": "ae@mail.com", "apple_linked": true}}
        """#

    @Test func appleBesideAnEmailWithoutPasswordIsNotTheLastMethod() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        let scenarios = root.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(Self.appleAndEmail.utf8).write(to: scenarios.appendingPathComponent("apple-email.json"))
        let configuration = ReferenceBackend.Configuration(
            scenario: "apple-email", fixturesDirectory: root, frozenClock: true)
        try await TestBackend.with(configuration: configuration) { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.post(
                "/me/auth-methods/disconnect", DisconnectBody(provider: .apple), token: token)
            // Not the hard block (409), and not the session as implicit auth: verify it's you first.
            #expect(reply.status == 403)
            #expect(reply.error?.code == "reauth_required")
        }
    }
}

import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Seed 000's shape: an AuthMethods object carries `"phone"` and `"email"` always, `null` when unset, inside
/// whatever answer holds it. The operations whose answers hold one are read from the document
/// (ContractBodies.answersHoldingAuthMethods), not listed by hand: the hand list had left out three.
@Suite struct ExplicitNullAnswersTests {
    /// The `auth_methods` object of an answer, as the wire has it.
    static func authMethods(in reply: Reply) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: reply.data) as? [String: Any])
        return try #require(object["auth_methods"] as? [String: Any], "\(String(decoding: reply.data, as: UTF8.self))")
    }

    @Test func anOpenedEmailLinkAnswersThePhoneAsNull() async throws {
        try await TestBackend.with(scenario: "no-phone") { backend in
            let session = try await backend.signIn()
            let grant = try await backend.passwordGrant(token: session.accessToken)
            let sent = try await backend.post(
                "/auth/email/request-change", EmailChangeBody(email: "new.email@gmail.com"), token: session.accessToken,
                reauth: grant.reauthToken)
            #expect(sent.status == 202)
            let link = try #require(
                try await backend.outbox().last { $0.to == "new.email@gmail.com" && $0.kind == "email_verify_link" }?
                    .token)
            let verified = try await backend.post("/auth/email/verify", EmailLinkConfirmBody(token: link))
            #expect(verified.status == 200)
            let methods = try Self.authMethods(in: verified)
            #expect(methods.keys.contains("phone"), "\(methods)")
            #expect(methods["phone"] is NSNull)
            #expect(methods["email"] as? String == "new.email@gmail.com")
        }
    }

    @Test func everyOperationWhoseAnswerHoldsAuthMethodsIsCovered() {
        let ids = ContractBodies.answersHoldingAuthMethods
        for operation in [
            Operations.GetAuthMethods.id, Operations.GetMe.id, Operations.VerifyTwoFactor.id,
            Operations.UseRecoveryCode.id,
            Operations.VerifyEmailLink.id, Operations.VerifySignInCode.id,
        ] {
            #expect(ids.contains(operation), "\(operation)")
        }
        #expect(!ids.contains(Operations.GetTwoFactor.id))
    }
}

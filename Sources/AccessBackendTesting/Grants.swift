import AccessAPI
import Foundation

/// "Verify it's you" by the methods that go through the outbox, as the app does them.
extension TestBackend {
    /// A grant from a code texted to the account's own phone.
    public func phoneGrant(token: String, phone: String = "+995511100000") async throws -> String {
        let accepted: OTPRequestAccepted = try await requestOTP(phone, .reauth, token: token).decode()
        let code = try await lastCode(to: phone)
        let result: VerifyOTPResult = try await verify(accepted.requestId, code, token: token).decode()
        guard let grant = result.reauth, grant.method.known == .phone else { throw TestFailure("no phone grant") }
        return grant.reauthToken
    }

    /// A grant from the link emailed to the account's address.
    public func emailGrant(token: String) async throws -> String {
        let sent = try await send(.POST, "/auth/reauth/email", token: token)
        guard sent.status == 202 else { throw TestFailure("reauth link: status \(sent.status)") }
        guard let link = try await outbox().last(where: { $0.kind == "reauth_link" })?.token else {
            throw TestFailure("no reauth link in the outbox")
        }
        let grant: ReauthGrant = try await post(
            "/auth/reauth/email/confirm", EmailLinkConfirmBody(token: link), token: token
        ).decode()
        guard grant.method.known == .email else { throw TestFailure("not an email grant") }
        return grant.reauthToken
    }
}

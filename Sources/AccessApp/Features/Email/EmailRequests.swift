import AccessAPI

/// `POST /auth/email/verify` through `AccountClient.verifyEmailLink`, which keeps the session it answers.
struct VerifyEmailLink: APIRequest {
    var token: String
    func perform(_ api: APIContext) async throws -> EmailVerified {
        try await api.client.verifyEmailLink(token: token)
    }
}

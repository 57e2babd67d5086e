import AccessAPI
import AccessCore
import Foundation
import Testing

/// Issue 27: a username's 422 carries the server's own length bounds, read by the client as `bounds`, so the
/// app's words can say the server's numbers. Against the reference backend over HTTP.
@Suite struct UsernameBoundsClientTests {
    @Test func aRefusedUsernameComesWithTheServersBounds() async throws {
        try await withLiveBackend(scenario: "new-user", signIn: false) { live in
            let challenge = try await live.client.startSignInCode(channel: .phone, phone: "+995511123456")
            _ = try await live.client.verifySignInCode(challengeId: challenge.challengeId, code: "135790")
            let bounds = FieldBounds(min: UsernameRules.minimumLength, max: UsernameRules.maximumLength)
            let tooLong = await apiError {
                try await live.client.updateProfile(username: String(repeating: "a", count: 31), photo: nil)
            }
            guard case .invalid(let rules, _, let sent) = tooLong else {
                Issue.record("expected a 422 username_invalid, got \(String(describing: tooLong))")
                return
            }
            #expect(rules == ["too_long"])
            #expect(sent == bounds)
            let tooShort = await apiError { try await live.client.usernameAvailable(username: "ab") }
            guard case .invalid(let shortRules, _, let shortBounds) = tooShort else {
                Issue.record("expected a 422 username_invalid, got \(String(describing: tooShort))")
                return
            }
            #expect(shortRules == ["too_short"])
            #expect(shortBounds == bounds)
        }
    }
}

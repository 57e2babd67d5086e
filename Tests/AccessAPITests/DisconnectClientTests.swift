import AccessAPI
import Foundation
import Testing

@Suite struct DisconnectClientTests {
    @Test func disconnectNeedsReauthThenUnlinks() async throws {
        try await withLiveBackend { live in
            let refused = await apiError {
                try await live.client.disconnectProvider(provider: .google, reauthToken: nil)
            }
            guard case .reauthRequired = refused else {
                Issue.record("expected reauthRequired, got \(String(describing: refused))")
                return
            }
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            let methods = try await live.client.disconnectProvider(provider: .google, reauthToken: grant.reauthToken)
            #expect(!methods.googleLinked)
            #expect(methods.appleLinked)
        }
    }

    @Test func theOnlyMethodCannotBeDisconnected() async throws {
        try await withLiveBackend(scenario: "apple-only") { live in
            let error = await apiError { try await live.client.disconnectProvider(provider: .apple, reauthToken: nil) }
            guard case .server(409, "last_method", let message) = error else {
                Issue.record("expected 409 last_method, got \(String(describing: error))")
                return
            }
            #expect(!message.isEmpty)
        }
    }
}

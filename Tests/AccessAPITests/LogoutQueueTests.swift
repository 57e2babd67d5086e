import AccessAPI
import AccessBackend
import Foundation
import Logging
import Testing

/// Log out is local at once; the backend is told when it answers (issue 27). Over real HTTP.
@Suite struct LogoutQueueTests {
    /// The session as the backend issued it, read back from the test client's session file.
    private func keptTokens(_ live: LiveBackend) throws -> SessionTokens {
        try #require(try SessionStore(fileURL: live.folder.appendingPathComponent("session.json")).load())
    }

    /// Whether the backend still takes `tokens`: a fresh client that holds only them asks who it is.
    private func backendStillTakes(_ tokens: SessionTokens, _ live: LiveBackend) async -> Bool {
        let other = AccountClient(
            configuration: patient(live.server.baseURL), sessionStore: nil, initialSession: tokens,
            logger: Logger(label: "test.other") { _ in SwiftLogNoOpLogHandler() }, sleep: { _ in })
        let error = await apiError { try await other.me() }
        await other.shutdown()
        return error == nil
    }

    @Test func aLogOutWithNoBackendIsLocalAndToldWhenItAnswers() async throws {
        try await withLiveBackend { live in
            let tokens = try keptTokens(live)
            try await live.client.adminSetFaults(FaultSettings(offline: "refused"))
            await live.client.logOut()?.value
            #expect(await live.client.isSignedIn == false)
            #expect(live.client.logoutsPending == 1)

            await live.server.endRefusal()
            #expect(await backendStillTakes(tokens, live))
            await live.client.tellPendingLogouts()?.value
            #expect(live.client.logoutsPending == 0)
            #expect(await backendStillTakes(tokens, live) == false)
        }
    }

    @Test func aLogOutWithTheBackendThereTellsItAtOnce() async throws {
        try await withLiveBackend { live in
            let tokens = try keptTokens(live)
            await live.client.logOut()?.value
            #expect(live.client.logoutsPending == 0)
            #expect(await backendStillTakes(tokens, live) == false)
        }
    }
}

import AccessAPI
import Foundation
import Logging
import Testing

/// Issue 30: another device signs this one out. Its next call is 401 `session_revoked`: the client does not
/// try a refresh (the refresh token died too), forgets the session and says why.
@Suite struct SignedOutElsewhereTests {
    @Test func theNextCallIsSignedOutElsewhereAndTheSessionIsForgotten() async throws {
        try await withLiveBackend { live in
            let folder = live.folder.appendingPathComponent("other")
            let other = AccountClient(
                configuration: patient(live.server.baseURL),
                sessionStore: SessionStore(fileURL: folder.appendingPathComponent("session.json")),
                logger: Logger(label: "test.other") { _ in SwiftLogNoOpLogHandler() }, sleep: { _ in })
            do {
                try await other.adminSignIn()
                let sessions = try await other.sessions()
                #expect(sessions.count == 2)
                let target = try #require(sessions.first { !$0.isCurrent })
                let grant = try await other.reauthPassword(password: "correct-horse-42")
                try await other.signOutSession(id: target.id, reauthToken: grant.reauthToken)
            } catch {
                await other.shutdown()
                throw error
            }
            await other.shutdown()

            await #expect(
                throws: APIError.signedOutElsewhere(
                    message: "You were signed out from another device. Sign in again.")
            ) {
                _ = try await live.client.authMethods()
            }
            let paths = live.client.journal.records.map { "\($0.path) \($0.status ?? 0)" }
            #expect(paths.last == "/me/auth-methods 401")
            #expect(!paths.contains { $0.hasPrefix("/auth/refresh") })
            let stored = try SessionStore(fileURL: live.folder.appendingPathComponent("session.json")).load()
            #expect(stored == nil)
        }
    }
}

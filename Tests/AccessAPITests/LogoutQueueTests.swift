import AccessBackend
import Foundation
import Logging
import Testing

@testable import AccessAPI

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

    /// A 5xx is not offline any more (issue 48 item 2), but the backend did not hear the log out either: it
    /// waits to be told, as with no answer.
    @Test func aLogOutAnsweredWithAServerErrorIsToldLater() async throws {
        try await withLiveBackend { live in
            let tokens = try keptTokens(live)
            try await live.client.adminSetFaults(FaultSettings(offline: "503"))
            await live.client.logOut()?.value
            #expect(await live.client.isSignedIn == false)
            #expect(live.client.logoutsPending == 1)

            _ = try await live.client.adminClearFaults()
            #expect(await backendStillTakes(tokens, live))
            await live.client.tellPendingLogouts()?.value
            #expect(live.client.logoutsPending == 0)
            #expect(await backendStillTakes(tokens, live) == false)
        }
    }

    /// Quit before the backend answered: the next start (a new client on the same session folder)
    /// still has the log out, and tells it once the backend is back.
    @Test func aLogOutNotToldYetOutlivesTheRun() async throws {
        try await withLiveBackend { live in
            let tokens = try keptTokens(live)
            let store = SessionStore(fileURL: live.folder.appendingPathComponent("session.json"))
            try await live.client.adminSetFaults(FaultSettings(offline: "refused"))
            await live.client.logOut()?.value
            #expect(live.client.logoutsPending == 1)

            let (restarted, _) = AccountClient.restoringSession(
                configuration: patient(live.server.baseURL), sessionStore: store,
                logger: Logger(label: "test.restarted") { _ in SwiftLogNoOpLogHandler() })
            #expect(restarted.logoutsPending == 1)
            await live.server.endRefusal()
            #expect(await backendStillTakes(tokens, live))
            await restarted.tellPendingLogouts()?.value
            #expect(restarted.logoutsPending == 0)
            #expect(await backendStillTakes(tokens, live) == false)
            #expect(FileManager.default.fileExists(atPath: store.pendingLogoutsURL.path) == false)
            await restarted.shutdown()
        }
    }

    /// One session folder shared by two origins (`ACCESSDECK_SESSION_FILE`): a log out is told only to
    /// the origin that issued it.
    @Test func aPendingLogOutIsKeptForItsOwnOriginOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.json")
        let first = try #require(BackendOrigin(baseURL: "http://127.0.0.1:1111"))
        let second = try #require(BackendOrigin(baseURL: "http://127.0.0.1:2222"))
        let tokens = SessionTokens(
            userId: "u", accessToken: "a", accessExpiresAt: Date(timeIntervalSince1970: 1_800_000_000),
            refreshToken: "r", refreshExpiresAt: Date(timeIntervalSince1970: 1_800_000_000))
        SessionStore(fileURL: file, origin: first).savePendingLogouts([tokens])
        #expect(SessionStore(fileURL: file, origin: second).loadPendingLogouts().isEmpty)
        #expect(SessionStore(fileURL: file, origin: first).loadPendingLogouts() == [tokens])
        SessionStore(fileURL: file, origin: second).savePendingLogouts([])
        #expect(SessionStore(fileURL: file, origin: first).loadPendingLogouts() == [tokens])
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

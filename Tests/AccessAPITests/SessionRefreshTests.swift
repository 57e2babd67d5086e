import AccessAPI
import Foundation
import Testing

@Suite struct SessionRefreshTests {
    @Test func anExpiredAccessTokenIsRefreshedOnceAndTheCallRetried() async throws {
        try await withLiveBackend { live in
            let before = try #require(
                try SessionStore(fileURL: live.folder.appendingPathComponent("session.json")).load())
            _ = try await live.client.adminAdvanceClock(seconds: 3601)
            let methods = try await live.client.authMethods()
            #expect(methods.email == "jdoe@mail.com")
            let paths = live.client.journal.records.map { "\($0.path) \($0.status ?? 0)" }
            #expect(paths.suffix(3) == ["/me/auth-methods 401", "/auth/refresh 200", "/me/auth-methods 200"])
            // The rotated tokens were saved.
            let after = try #require(
                try SessionStore(fileURL: live.folder.appendingPathComponent("session.json")).load())
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken)
        }
    }

    @Test func concurrentUnauthorizedCallsShareOneRefresh() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminAdvanceClock(seconds: 3601)
            try await withThrowingTaskGroup(of: AuthMethods.self) { group in
                for _ in 0..<6 { group.addTask { try await live.client.authMethods() } }
                for try await methods in group { #expect(methods.userId == "usr_athlete") }
            }
            let refreshes = live.client.journal.records.filter { $0.path == "/auth/refresh" }
            #expect(refreshes.count == 1)
            #expect(refreshes.first?.status == 200)
        }
    }

    /// Issue 25, defect 12: the refresh committed but its reply never came (commit_then_fail); the next
    /// call refreshes with the same token again, and stays signed in.
    @Test func aLostRefreshReplyDoesNotSignOut() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminAdvanceClock(seconds: 3601)
            let lost = Components.Schemas.EndpointFault(path: "/auth/refresh", kind: .commitThenFail)
            _ = try await live.client.adminSetFaults(FaultSettings(endpoints: [lost]))
            guard case .offline? = await apiError({ try await live.client.authMethods() }) else {
                Issue.record("expected no answer from the refresh")
                return
            }
            #expect(await live.client.isSignedIn)
            _ = try await live.client.adminClearFaults()
            let methods = try await live.client.authMethods()
            #expect(methods.email == "jdoe@mail.com")
            #expect(await live.client.isSignedIn)
            let paths = live.client.journal.records.map { "\($0.path) \($0.status ?? 0)" }
            #expect(paths.suffix(3) == ["/me/auth-methods 401", "/auth/refresh 200", "/me/auth-methods 200"])
        }
    }

    @Test func aFailedRefreshClearsTheSessionAndSignsOut() async throws {
        try await withLiveBackend { live in
            let file = live.folder.appendingPathComponent("session.json")
            #expect(FileManager.default.fileExists(atPath: file.path))
            _ = try await live.client.adminAdvanceClock(seconds: 8 * 86_400)
            #expect(await apiError { try await live.client.authMethods() } == .signedOut)
            #expect(!(await live.client.isSignedIn))
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func logoutEndsTheSessionOnTheServer() async throws {
        try await withLiveBackend { live in
            try await live.client.logout()
            // The access token is refused, and so is its refresh token: the client gives up.
            #expect(await apiError { try await live.client.authMethods() } == .signedOut)
            let paths = live.client.journal.records.map { "\($0.path) \($0.status ?? 0)" }
            #expect(paths.suffix(3) == ["/auth/logout 204", "/me/auth-methods 401", "/auth/refresh 401"])
        }
    }
}

@Suite struct SessionStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-store-\(UUID().uuidString)")
    let tokens = SessionTokens(
        userId: "usr_1", accessToken: "a", accessExpiresAt: Date(timeIntervalSince1970: 1_800_000_000),
        refreshToken: "r", refreshExpiresAt: Date(timeIntervalSince1970: 1_800_600_000))

    @Test func theFileIsReadableOnlyByTheUser() throws {
        let store = SessionStore(fileURL: folder.appendingPathComponent("nested/session.json"))
        try store.save(tokens)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(
            atPath: store.fileURL.deletingLastPathComponent().path)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        #expect(try store.load() == tokens)
        try store.save(tokens)  // replacing keeps the mode and leaves no temporary files
        #expect(
            (try FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int) == 0o600)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.fileURL.deletingLastPathComponent().path) == [
                "session.json"
            ])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Signing out on purpose is remembered beside the session (the QA shortcut stays off) until a
    /// session is saved again.
    @Test func signingOutLeavesAMarkerThatTheNextSessionRemoves() throws {
        let store = SessionStore(fileURL: folder.appendingPathComponent("session.json"))
        try store.save(tokens)
        #expect(!store.userSignedOut)
        store.signOut()
        #expect(store.userSignedOut)
        #expect(try store.load() == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.signedOutMarkerURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try store.save(tokens)
        #expect(!store.userSignedOut)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aMissingFileIsNoSession() throws {
        #expect(try SessionStore(fileURL: folder.appendingPathComponent("none.json")).load() == nil)
    }

    @Test func aCorruptFileIsAClearErrorAndTheClientStartsSignedOut() async throws {
        let file = folder.appendingPathComponent("session.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: file)
        let store = SessionStore(fileURL: file)
        #expect(throws: SessionStoreError.corrupt(path: file.path)) { try store.load() }
        let (client, problem) = AccountClient.restoringSession(
            configuration: .init(baseURL: "http://127.0.0.1:9"), sessionStore: store)
        #expect(problem == .corrupt(path: file.path))
        #expect("\(problem!)".contains("damaged"))
        #expect(!(await client.isSignedIn))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await client.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func locationFollowsTheEnvironment() {
        #expect(SessionStore.defaultLocation(environment: ["ACCESSDECK_SESSION_FILE": "/x/s.json"]).path == "/x/s.json")
        #expect(
            SessionStore.defaultLocation(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/a"]).path
                == "/state/accessdeck/session.json")
        #expect(
            SessionStore.defaultLocation(environment: ["HOME": "/home/a"]).path
                == "/home/a/.local/state/accessdeck/session.json")
    }
}

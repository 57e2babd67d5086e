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
            // The refresh token ran out: the backend says so (issue 49 item 3), and the device says why.
            #expect(await apiError { try await live.client.authMethods() } == .sessionEnded(reason: "expired"))
            #expect(!(await live.client.isSignedIn))
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func logoutEndsTheSessionOnTheServer() async throws {
        try await withLiveBackend { live in
            try await live.client.logout()
            // The access token is refused, and so is its refresh token: the client gives up, told why (issue 49).
            #expect(await apiError { try await live.client.authMethods() } == .sessionEnded(reason: "logged_out"))
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

    @Test func locationFollowsTheEnvironmentAndTheOrigin() throws {
        let origin = try #require(BackendOrigin(baseURL: "http://127.0.0.1:8080/api/v1"))
        #expect(
            SessionStore.defaultLocation(for: origin, environment: ["ACCESSDECK_SESSION_FILE": "/x/s.json"]).path
                == "/x/s.json")
        #expect(
            SessionStore.defaultLocation(for: origin, environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/a"]).path
                == "/state/accessdeck/backends/http_127.0.0.1_8080/session.json")
        #expect(
            SessionStore.defaultLocation(for: origin, environment: ["HOME": "/home/a"]).path
                == "/home/a/.local/state/accessdeck/backends/http_127.0.0.1_8080/session.json")
        #expect(
            AuthMethodsCache.defaultLocation(for: origin, environment: ["HOME": "/home/a"]).path
                == "/home/a/.local/state/accessdeck/backends/http_127.0.0.1_8080/auth-methods.json")
    }
}

/// Issue 27: a session and the cached data are kept per backend origin; a token goes only to the origin
/// that issued it.
@Suite struct SessionOriginTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accessdeck-origin-\(UUID().uuidString)")
    let tokens = SessionTokens(
        userId: "usr_1", accessToken: "at_a", accessExpiresAt: Date(timeIntervalSince1970: 1_900_000_000),
        refreshToken: "rt_a", refreshExpiresAt: Date(timeIntervalSince1970: 1_900_600_000))

    @Test func originsAreSchemeHostAndPort() throws {
        let origin = try #require(BackendOrigin(baseURL: "HTTPS://API.Example.com/api/v1/"))
        #expect(origin.description == "https://api.example.com:443")
        #expect(origin == BackendOrigin(baseURL: "https://api.example.com:443/other"))
        #expect(origin != BackendOrigin(baseURL: "http://api.example.com"))
        #expect(origin != BackendOrigin(baseURL: "https://api.example.com:8443"))
        #expect(BackendOrigin(baseURL: "http://127.0.0.1:8080") != BackendOrigin(baseURL: "http://localhost:8080"))
        #expect(BackendOrigin(baseURL: "http://[::1]:8080")?.folderName == "http___1_8080")
        #expect(BackendOrigin(baseURL: "ftp://host") == nil)
        // Issue 33: each world of a reference backend issues its own tokens.
        let alice = try #require(BackendOrigin(baseURL: "http://127.0.0.1:8080/w/alice"))
        #expect(alice.description == "http://127.0.0.1:8080/w/alice")
        #expect(alice.folderName == "http_127.0.0.1_8080_w_alice")
        #expect(alice != BackendOrigin(baseURL: "http://127.0.0.1:8080/w/bob"))
        #expect(alice != BackendOrigin(baseURL: "http://127.0.0.1:8080"))
        #expect(BackendOrigin(baseURL: "http://127.0.0.1:8080")?.folderName == "http_127.0.0.1_8080")
        #expect(BackendOrigin(baseURL: "not a url") == nil)
    }

    @Test func anotherOriginsFoldersHoldNoSession() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_STATE_HOME": folder.path]
        let first = try #require(BackendOrigin(baseURL: "http://127.0.0.1:8080"))
        let second = try #require(BackendOrigin(baseURL: "https://api.example.com"))
        try SessionStore(fileURL: SessionStore.defaultLocation(for: first, environment: environment), origin: first)
            .save(tokens)
        let other = SessionStore(
            fileURL: SessionStore.defaultLocation(for: second, environment: environment), origin: second)
        #expect(try other.load() == nil)
        let same = SessionStore(
            fileURL: SessionStore.defaultLocation(for: first, environment: environment), origin: first)
        #expect(try same.load() == tokens)
    }

    /// One file for every backend (`ACCESSDECK_SESSION_FILE`): a session another origin issued is not loaded.
    @Test func oneFileLoadsOnlyItsOwnOrigin() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.json")
        let first = try #require(BackendOrigin(baseURL: "http://127.0.0.1:8080"))
        let second = try #require(BackendOrigin(baseURL: "http://127.0.0.1:9090"))
        try SessionStore(fileURL: file, origin: first).save(tokens)
        #expect(try SessionStore(fileURL: file, origin: second).load() == nil)
        #expect(try SessionStore(fileURL: file, origin: first).load() == tokens)
        // A file from before origins were kept names none: no origin may use it.
        try SessionStore(fileURL: file).save(tokens)
        #expect(try SessionStore(fileURL: file, origin: first).load() == nil)
    }

    @Test func theUnkeyedFilesOfEarlierVersionsAreDropped() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_STATE_HOME": folder.path]
        let state = SessionStore.stateFolder(environment: environment)
        try SessionStore(fileURL: state.appendingPathComponent("session.json")).save(tokens)
        try Data("{}".utf8).write(to: state.appendingPathComponent("auth-methods.json"))
        try Data().write(to: state.appendingPathComponent("device.json"))
        SessionStore.dropUnkeyedFiles(environment: environment)
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("session.json").path))
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("auth-methods.json").path))
        // The installation's identity is not a backend's.
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("device.json").path))
    }
}

import AccessAPI
import Foundation
import Testing

@Suite struct AuthMethodsCacheTests {
    @Test func theLastGoodFetchSurvivesGoingOfflineAndARestart() async throws {
        try await withLiveBackend { live in
            let file = live.folder.appendingPathComponent("auth-methods.json")
            let cache = AuthMethodsCache(fileURL: file)
            #expect(cache.latest == nil)
            let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
            let methods = try await live.client.authMethods(cache: cache, now: fetchedAt)
            try await live.client.adminSetFaults(FaultSettings(offline: "drop"))
            let error = await apiError { try await live.client.authMethods(cache: cache, now: fetchedAt + 60) }
            if case .offline = error {} else { Issue.record("expected offline, got \(String(describing: error))") }
            // The failed fetch left the cache alone, in memory and on disk.
            let expected = AuthMethodsCache.Entry(methods: methods, fetchedAt: fetchedAt)
            #expect(cache.latest == expected)
            #expect(AuthMethodsCache(fileURL: file).latest == expected)
        }
    }

    /// Issue 30: the Active sessions list is kept beside the methods, so it too is there offline after a
    /// restart; a later fetch of the methods keeps it, a failed load of the list leaves it alone.
    @Test func theSessionsListSurvivesGoingOfflineAndARestart() async throws {
        try await withLiveBackend { live in
            let file = live.folder.appendingPathComponent("auth-methods.json")
            let cache = AuthMethodsCache(fileURL: file)
            let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
            let methods = try await live.client.authMethods(cache: cache, now: fetchedAt)
            let sessions = try await live.client.sessions(cache: cache)
            #expect(!sessions.isEmpty)
            _ = try await live.client.authMethods(cache: cache, now: fetchedAt + 30)
            try await live.client.adminSetFaults(FaultSettings(offline: "drop"))
            let error = await apiError { try await live.client.sessions(cache: cache) }
            if case .offline = error {} else { Issue.record("expected offline, got \(String(describing: error))") }
            let expected = AuthMethodsCache.Entry(methods: methods, fetchedAt: fetchedAt + 30, sessions: sessions)
            #expect(cache.latest == expected)
            #expect(AuthMethodsCache(fileURL: file).latest == expected)
            cache.clear()
            #expect(AuthMethodsCache(fileURL: file).latest == nil)
        }
    }

    /// The phone and email are as private as the session beside them: 0600 in a 0700 folder, even
    /// when the folder was made readable earlier.
    @Test func theFileIsReadableOnlyByTheUser() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withLiveBackend { live in
            let file = folder.appendingPathComponent("auth-methods.json")
            _ = try await live.client.authMethods(cache: AuthMethodsCache(fileURL: file))
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
            #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        }
    }

    @Test func aDamagedCacheFileIsIgnored() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).json")
        try Data("garbage".utf8).write(to: file)
        #expect(AuthMethodsCache(fileURL: file).latest == nil)
        try? FileManager.default.removeItem(at: file)
    }
}

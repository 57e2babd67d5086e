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

    @Test func aDamagedCacheFileIsIgnored() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).json")
        try Data("garbage".utf8).write(to: file)
        #expect(AuthMethodsCache(fileURL: file).latest == nil)
        try? FileManager.default.removeItem(at: file)
    }
}

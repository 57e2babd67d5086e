import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Testing

/// Issue 25, item 11: two servers on one `--db` each kept their own session cache, so after a logout on
/// one the other still took the token. A second server on the same file is refused.
@Suite struct DatabaseLockTests {
    private func configuration(_ path: String) -> ReferenceBackend.Configuration {
        .init(databasePath: path, fixturesDirectory: TestBackend.fixtures, frozenClock: true)
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aSecondServerOnTheSameFileIsRefused() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        // The same file under another spelling is the same file.
        let otherSpelling = directory.appendingPathComponent("../\(directory.lastPathComponent)/state.sqlite").path

        try await TestBackend.with(configuration: configuration(path)) { first in
            let tokens = try await first.signIn()
            for spelling in [path, otherSpelling] {
                do {
                    let second = try await ReferenceBackend.start(configuration(spelling))
                    await second.shutdown()
                    Issue.record("a second server started on \(spelling)")
                } catch let error as ReferenceBackend.ConfigurationError {
                    #expect(error.description.contains("another accessdeck server"), "\(error)")
                    #expect(error.description.contains(spelling), "\(error)")
                }
            }
            // The first one is untouched by the attempts.
            #expect(try await first.get("/me/auth-methods", token: tokens.accessToken).status == 200)
        }
        // Once it has stopped, the file is free again.
        try await TestBackend.with(configuration: configuration(path)) { again in
            let health = try await again.get("/health")
            #expect(health.status == 200)
        }
    }

    @Test func theLockFileIsPrivateAndBesideTheDatabase() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        try await TestBackend.with(configuration: configuration(path)) { _ in
            let attributes = try FileManager.default.attributesOfItem(atPath: path + ".lock")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test func temporaryDatabasesNeedNoLock() async throws {
        try await TestBackend.with { first in
            try await TestBackend.with { second in
                #expect(first.running.databasePath != second.running.databasePath)
                #expect(!FileManager.default.fileExists(atPath: first.running.databasePath + ".lock"))
            }
        }
    }
}

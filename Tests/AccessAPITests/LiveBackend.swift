import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Logging
import Testing

/// The real reference backend as the backend's test kit starts it (127.0.0.1, a temporary SQLite file, a
/// frozen clock that only the admin API moves), plus the app's client pointed at it.
struct LiveBackend {
    let server: RunningBackend
    let client: AccountClient
    let folder: URL

    static func start(
        scenario: String = "default", signIn: Bool = true, logger: Logger? = nil
    ) async throws -> LiveBackend {
        let server = try await ReferenceBackend.start(
            TestBackend.configuration(
                scenario: scenario, logger: Logger(label: "test.backend") { _ in SwiftLogNoOpLogHandler() }))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessdeck-client-\(UUID().uuidString)")
        let client = AccountClient(
            configuration: patient(server.baseURL),
            sessionStore: SessionStore(fileURL: folder.appendingPathComponent("session.json")),
            logger: logger ?? Logger(label: "test.client") { _ in SwiftLogNoOpLogHandler() },
            sleep: { _ in })
        let live = LiveBackend(server: server, client: client, folder: folder)
        // A client dropped without its shutdown stops the whole test process (AsyncHTTPClient's debug
        // check): a failed sign-in must end as this test's failure, not as everyone's crash.
        do {
            if signIn { try await client.adminSignIn() }
        } catch {
            await live.stop()
            throw error
        }
        return live
    }

    func stop() async {
        await client.shutdown()
        await server.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs `body` against a fresh backend and always stops it.
func withLiveBackend(
    scenario: String = "default", signIn: Bool = true, logger: Logger? = nil,
    _ body: (LiveBackend) async throws -> Void
) async throws {
    let live = try await LiveBackend.start(scenario: scenario, signIn: signIn, logger: logger)
    do {
        try await body(live)
    } catch {
        await live.stop()
        throw error
    }
    await live.stop()
}

/// The error a call threw, for `#expect(... == .taken(...))`-style checks.
func apiError(_ call: () async throws -> some Any) async -> APIError? {
    do {
        _ = try await call()
        return nil
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("expected an APIError, got \(error)")
        return nil
    }
}

/// A client configuration for tests against a live backend: the whole suite shares two cores, so a slow
/// answer here means a loaded machine, not a silent backend (NoAnswerTests test the short defaults).
func patient(_ baseURL: String) -> AccountClient.Configuration {
    var configuration = AccountClient.Configuration(baseURL: baseURL)
    configuration.requestTimeout = .seconds(30)
    configuration.connectTimeout = .seconds(30)
    return configuration
}

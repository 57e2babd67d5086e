import AccessAPI
import AccessBackend
import AccessBackendTesting
import Foundation
import Logging
import Testing

@testable import AccessApp

/// Issue 33: the palette's world switch as the app's runtime does it (`ClientPerformer` with `WorldClients`),
/// against a real reference backend with worlds on 127.0.0.1. What the switch did is checked on the server:
/// the world's journal and clock, and the default world's, which must not have moved.
@Suite struct WorldSwitchLiveTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// The backend, and a state folder of the test's own for the kept sessions.
    static func with(_ body: (TestBackend, [String: String]) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worlds-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = TestBackend.configuration()
        configuration.logger = quiet
        try await TestBackend.with(configuration: configuration) { backend in
            try await body(backend, ["XDG_STATE_HOME": folder.path])
        }
    }

    /// The app's start on the default world: its client (signed in as QA there) and the performer over it.
    static func start(
        _ backend: TestBackend, keptIn: [String: String]?, clock: (AccountClient) -> WorldClients.Clock
    ) async throws -> (client: AccountClient, performer: ClientPerformer) {
        // Patient: the whole suite shares two cores, so a slow answer means a loaded machine (a world's first
        // request opens it), not a silent backend; the short defaults have tests of their own.
        var configuration = AccountClient.Configuration(baseURL: backend.running.baseURL)
        configuration.requestTimeout = .seconds(30)
        configuration.connectTimeout = .seconds(30)
        let client = AccountClient(configuration: configuration, sessionStore: nil, logger: quiet)
        let worlds = WorldClients(
            serverURL: backend.running.baseURL, configuration: configuration, keptIn: keptIn, clock: clock(client))
        let performer = ClientPerformer(client: client, cache: nil, worlds: worlds)
        do {
            try await client.adminSignIn()
        } catch {
            await client.shutdown()
            throw error
        }
        return (client, performer)
    }

    static func stop(_ client: AccountClient, _ performer: ClientPerformer) async {
        await performer.shutdownWorlds()
        await client.shutdown()
    }

    static func perform<R: APIRequest>(_ request: R, on performer: ClientPerformer) async throws -> R.Reply {
        let result = await performer.perform(AnyRequest(request), now: Date(timeIntervalSince1970: 1_800_000_000))
        let value = try result.get()
        return try #require(value.value as? R.Reply)
    }

    static func journalPaths(_ backend: TestBackend, world: String?) async throws -> [String] {
        let prefix = world.map { "/w/\($0)" } ?? ""
        return try await backend.get(prefix + "/_admin/journal?limit=500").decode([JournalEntry].self).map(\.path)
    }

    static func adminNow(_ backend: TestBackend, world: String?) async throws -> Date {
        let prefix = world.map { "/w/\($0)" } ?? ""
        return try await backend.get(prefix + "/_admin/clock").decode(ClockState.self).now
    }

    static func advance(_ backend: TestBackend, world: String?, seconds: Double) async throws {
        let prefix = world.map { "/w/\($0)" } ?? ""
        let reply = try await backend.post(prefix + "/_admin/clock/advance", ClockAdvanceBody(seconds: seconds))
        #expect(reply.status == 200)
    }

    /// After "New world from scenario" bob, the app's calls go to `/w/bob` (bob's journal has them, the
    /// default world's does not) and its session is kept under bob's origin, not the default one's.
    @Test func afterTheSwitchCallsGoToTheWorldAndItsSessionIsKeptUnderItsOrigin() async throws {
        try await Self.with { backend, keptIn in
            let (client, performer) = try await Self.start(backend, keptIn: keptIn) { _ in
                .inProcess(
                    FollowingClock(source: { backend.running.clock.now() }),
                    worldClock: { backend.running.worldClock($0) })
            }
            do {
                let entered = try await Self.perform(EnterWorld(name: "bob", newFrom: "default"), on: performer)
                #expect(entered.name == "bob")
                #expect(entered.signedIn != nil)
                #expect(entered.problem == nil)
                _ = try await Self.perform(CheckSession(), on: performer)

                let bob = try await Self.journalPaths(backend, world: "bob")
                #expect(bob.contains("/_admin/session"))
                #expect(bob.contains("/auth/me"))
                let main = try await Self.journalPaths(backend, world: nil)
                #expect(!main.contains("/auth/me"))
                // The default world saw the app's own QA sign-in at its start, and the world's making.
                #expect(main.filter { $0 == "/_admin/session" }.count == 1)
                #expect(main.contains("/_admin/worlds"))

                let server = backend.running.baseURL
                let bobOrigin = try #require(BackendOrigin(baseURL: server + "/w/bob"))
                let mainOrigin = try #require(BackendOrigin(baseURL: server))
                let bobFile = SessionStore.defaultLocation(for: bobOrigin, environment: keptIn)
                #expect(FileManager.default.fileExists(atPath: bobFile.path))
                #expect(bobFile.path.contains("_w_bob"))
                let mainFile = SessionStore.defaultLocation(for: mainOrigin, environment: keptIn)
                #expect(!FileManager.default.fileExists(atPath: mainFile.path))
                // The kept session is bob's: a client restoring it is signed in to bob, not to the default world.
                let restored = AccountClient.restoringSession(
                    configuration: .init(baseURL: server + "/w/bob"),
                    sessionStore: SessionStore(fileURL: bobFile, origin: bobOrigin), logger: Self.quiet
                ).client
                let me = try? await restored.me()
                await restored.shutdown()
                #expect(me != nil)

                // Back to the default world: the bare base URL.
                let back = try await Self.perform(EnterWorld(name: nil), on: performer)
                #expect(back.name == nil)
                #expect(performer.client.configuration.baseURL == server)
            } catch {
                await Self.stop(client, performer)
                throw error
            }
            await Self.stop(client, performer)
        }
    }

    /// Defect 1 on the embedded backend: after the switch the app's clock is bob's, read in process; bob's
    /// advance shows in it, the default world's does not; and back in the default world, it follows that one.
    @Test func theEmbeddedAppsClockFollowsTheWorldItSwitchedTo() async throws {
        try await Self.with { backend, _ in
            let clock = FollowingClock(source: { backend.running.clock.now() })
            let (client, performer) = try await Self.start(backend, keptIn: nil) { _ in
                .inProcess(clock, worldClock: { backend.running.worldClock($0) })
            }
            do {
                #expect(clock.now() == (try await Self.adminNow(backend, world: nil)))
                _ = try await Self.perform(EnterWorld(name: "bob", newFrom: "default"), on: performer)
                try await Self.advance(backend, world: "bob", seconds: 3600)
                let bob = try await Self.adminNow(backend, world: "bob")
                #expect(clock.now() == bob)
                try await Self.advance(backend, world: nil, seconds: 7200)
                #expect(clock.now() == bob)
                #expect(clock.now() != (try await Self.adminNow(backend, world: nil)))

                _ = try await Self.perform(EnterWorld(name: nil), on: performer)
                #expect(clock.now() == (try await Self.adminNow(backend, world: nil)))
            } catch {
                await Self.stop(client, performer)
                throw error
            }
            await Self.stop(client, performer)
        }
    }

    /// Defect 1 with `--backend`: after the switch the clock resyncs from bob's admin clock, not the default
    /// world's. The clocks are a day apart, so "within a minute" tells which one is followed.
    @Test func theRemoteAppsClockResyncsFromTheWorldItSwitchedTo() async throws {
        try await Self.with { backend, keptIn in
            let (client, performer) = try await Self.start(backend, keptIn: keptIn) { client in
                .remote(
                    RemoteBackendClock(
                        serverNow: { [serverClock = client.serverClock] in serverClock.now() },
                        reference: FollowingClock(resync: { try? await client.adminClock().now })))
            }
            let clock = try #require(
                {
                    if case .remote(let remote) = performer.worlds?.clock { return remote }
                    return nil
                }())
            func follows(_ date: Date) -> Bool { abs(clock.now().timeIntervalSince(date)) < 60 }
            do {
                clock.followReference(serverNow: try await Self.adminNow(backend, world: nil))
                _ = try await Self.perform(EnterWorld(name: "bob", newFrom: "default"), on: performer)
                try await Self.advance(backend, world: "bob", seconds: 86_400)
                // A sleep resyncs first; one already due returns at once.
                try await clock.sleep(until: .distantPast)
                let bob = try await Self.adminNow(backend, world: "bob")
                #expect(follows(bob))
                try await Self.advance(backend, world: nil, seconds: 2 * 86_400)
                try await clock.sleep(until: .distantPast)
                #expect(follows(bob))
                #expect(!follows(try await Self.adminNow(backend, world: nil)))
            } catch {
                await Self.stop(client, performer)
                throw error
            }
            await Self.stop(client, performer)
        }
    }
}

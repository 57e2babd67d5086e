import AccessAPI
import AccessApp
import AccessBackend
import AccessCore
import CursesDriver
import Foundation
import Logging
import TerminalKit

/// Where the app's backend is and how the app is signed in to it.
struct BackendConnection: Sendable {
    let client: AccountClient
    let cache: AuthMethodsCache
    let isReferenceBackend: Bool
    let sessionProblem: String?
    let embedded: RunningBackend?
    /// The app's clock: the reference backend's time when there is one, so moving that clock
    /// moves every countdown on screen; another backend's as its Date headers tell it.
    let clock: any AppClock
    let baseURL: String
    /// nil for the embedded backend, which is the reference one by construction.
    let identity: Identity?
    /// The app had a session when it started (a stored one, or the embedded backend's QA sign-in).
    let startsSignedIn: Bool
    /// Makes another world's client for the palette's world switch (issue 33).
    let worlds: WorldClients
    /// The embedded backend's world as it was before the app signed in, and the backend's time then: what a bug
    /// report replays its tape on (issue 51 item 5). nil with `--backend`, or when not asked for.
    var startWorld: (file: Data, at: Date)? = nil

    /// The first screen: a stored session is checked first (`GET /auth/me`); the embedded backend's
    /// fresh QA session needs no check; nobody signed in starts on Welcome.
    var root: any ScreenModel {
        guard startsSignedIn else { return WelcomeScreen() }
        return identity == nil ? SettingsScreen() : SessionCheckScreen()
    }

    /// `frozenClock`: the embedded backend's time moves only when advanced (`accessdeck play`). `keepStartWorld`:
    /// copy the embedded backend's world before the sign-in (`startWorld`). `report`: start the embedded backend on
    /// a bug report's world file, its clock stopped where the report's session began (`open-report`).
    static func open(
        _ options: BackendOptions, frozenClock: Bool? = nil, keepStartWorld: Bool = false,
        report: (databasePath: String, clockAt: Date)? = nil
    ) async throws -> BackendConnection {
        // Nothing may write to the terminal once curses owns it.
        let quiet = Logger(label: "accessdeck") { _ in SwiftLogNoOpLogHandler() }
        // Seed 004's device registration: this installation's identity, kept beside the session file.
        let device = DeviceIdentity.loadOrCreate(at: DeviceIdentity.defaultLocation()).info
        if let url = options.backendURL {
            guard let origin = BackendOrigin(baseURL: url) else {
                throw RuntimeError("--backend takes an http(s) URL with a host, not '\(url)'")
            }
            // The session and the cached data are this origin's: another --backend starts signed out and is
            // never sent a token it did not issue.
            SessionStore.dropUnkeyedFiles()
            let store = SessionStore(fileURL: SessionStore.defaultLocation(for: origin), origin: origin)
            var configuration = AccountClient.Configuration(baseURL: url)
            configuration.device = device
            // This device's passkeys are kept, as its session is, for a backend that keeps its accounts.
            configuration.passkeys = DevicePasskeyStore.load(at: DevicePasskeyStore.defaultLocation())
            if let timeout = options.timeout { configuration.setTimeout(seconds: timeout) }
            let (client, problem) = AccountClient.restoringSession(
                configuration: configuration, sessionStore: store, logger: quiet)
            // Whether it is the reference backend is what the user said (`--reference-backend`), never a probe
            // of an admin path: a backend that happens to answer one does not change the app (issue 27).
            // The QA shortcut is not taken after the user logged out here: then the app starts signed out.
            let identity = Identity(qaSignInAllowed: options.qaSignIn && !store.userSignedOut)
            let clock = RemoteBackendClock(
                serverNow: { [serverClock = client.serverClock] in serverClock.now() },
                reference: FollowingClock(resync: { [client] in try? await client.adminClock().now }))
            let worlds = WorldClients(
                serverURL: WorldNames.serverURL(of: url), configuration: configuration,
                keptIn: ProcessInfo.processInfo.environment, clock: .remote(clock))
            return BackendConnection(
                client: client, cache: AuthMethodsCache(fileURL: AuthMethodsCache.defaultLocation(for: origin)),
                isReferenceBackend: options.declaresReferenceBackend, sessionProblem: problem.map { "\($0)" },
                embedded: nil, clock: clock,
                baseURL: url, identity: identity, startsSignedIn: await client.isSignedIn,
                worlds: worlds)
        }
        var backendConfiguration = ReferenceBackend.Configuration(
            port: options.port ?? 0, databasePath: report?.databasePath, scenario: options.scenario,
            frozenClock: frozenClock, logger: quiet)
        backendConfiguration.clockStoppedAt = report?.clockAt
        let backend = try await ReferenceBackend.start(backendConfiguration)
        var configuration = AccountClient.Configuration(baseURL: backend.baseURL)
        configuration.device = device
        // The embedded backend's world is new every run, and so are this device's passkeys for it (as its session
        // is not kept): a kept file would offer last run's passkeys for accounts this world never had.
        configuration.passkeys = .ephemeral()
        if let timeout = options.timeout { configuration.setTimeout(seconds: timeout) }
        let client = AccountClient(configuration: configuration, sessionStore: nil, logger: quiet)
        // The QA shortcut, unless the scenario starts signed out: then the way in is the screens.
        var signedIn = true
        var startWorld: (file: Data, at: Date)?
        do {
            // Before the sign-in, whose session a replay makes again; in process, so the journal has no row of it.
            if keepStartWorld { startWorld = (try backend.worldFile(), backend.clock.now()) }
            // The scenario's passkeys on this device (issue 53), into this run's authenticator.
            try await ScenarioDevicePasskeys.take(client)
            try await client.adminSignIn()
        } catch APIError.server(409, ErrorCode.signedOutScenario.rawValue, _) {
            signedIn = false
        } catch {
            await client.shutdown()
            await backend.shutdown()
            throw error
        }
        // A world switch points this same clock at the new world's, read in process too (issue 33).
        let clock = FollowingClock(source: { [clock = backend.clock] in clock.now() })
        return BackendConnection(
            client: client, cache: AuthMethodsCache(fileURL: nil), isReferenceBackend: true, sessionProblem: nil,
            embedded: backend, clock: clock, baseURL: backend.baseURL, identity: nil, startsSignedIn: signedIn,
            worlds: WorldClients(
                serverURL: backend.baseURL, configuration: configuration, keptIn: nil,
                clock: .inProcess(clock, worldClock: backend.worldClock)),
            startWorld: startWorld)
    }

    /// How the app was started against a backend reached with `--backend`.
    struct Identity: Sendable {
        /// `--qa-sign-in`, and no log out on this machine since (the signed-out marker beside the session file).
        let qaSignInAllowed: Bool
    }

    /// What `identify` did on a declared reference backend: the methods of the QA sign-in if it took one.
    struct Found {
        var qaSignedIn: AuthMethods?
        /// Where the QA user's onboarding stands; nil (taken as onboarded) when the backend gave none.
        var qaProfile: Profile?
    }

    /// For `--backend` declared a reference backend, after the first frame (an unreachable host cannot
    /// hold the screen): with `--qa-sign-in`, QA is signed in as its scenario's user unless a session was
    /// kept, and the app's clock follows the backend's. Any other backend: nil, nothing asked.
    /// `identify` has something to do (its answer is not nil).
    var identifies: Bool { identity != nil && isReferenceBackend }

    func identify() async -> Found? {
        guard let identity, identifies else { return nil }
        var found = Found()
        // The QA shortcut finds no one when the scenario's user was deleted or the scenario starts
        // signed out, and is not taken after the user logged out here: then the app stays signed out.
        if identity.qaSignInAllowed, !(await client.isSignedIn), (try? await client.adminSignIn()) != nil {
            found.qaSignedIn = try? await client.authMethods(cache: cache, now: clock.now())
            // A backend without onboarding (404, 501) or any failure: nil, taken as onboarded.
            found.qaProfile = try? await client.getProfile()
        }
        if let remote = clock as? RemoteBackendClock, let serverNow = try? await client.adminClock().now {
            remote.followReference(serverNow: serverNow)
        }
        return found
    }

    func close() async {
        await client.shutdown()
        await embedded?.shutdown()
    }
}

/// The palette's "clear all faults" reaches the embedded backend in process while its port refuses.
extension RunningBackend: EmbeddedBackendControl {}

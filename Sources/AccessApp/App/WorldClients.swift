import AccessAPI
import AccessCore
import Foundation
import Logging

/// The clients of the reference backend's worlds (issue 33), for the palette's world switch: world NAME is
/// the server's base URL with `/w/NAME`, the default world the bare one. Each world is an origin of its own
/// (`BackendOrigin.world`): with `keptIn`, its session and cached data are kept in its own folder, as a start
/// with `--world NAME` keeps them. Entering a world also points the app's clock at that world's clock.
public struct WorldClients: Sendable {
    /// How the app's clock follows the world it is in.
    public enum Clock: Sendable {
        /// The embedded backend: the world's clock read in process (`worldClock(NAME)`, nil NAME the default
        /// world), as the default world's is from the start: no call lands in the world's journal for it.
        case inProcess(FollowingClock, worldClock: @Sendable (String?) -> @Sendable () -> Date)
        /// A backend over HTTP (`--backend`): the world's admin clock, `GET /w/NAME/_admin/clock`.
        case remote(RemoteBackendClock)

        var app: any AppClock {
            switch self {
            case .inProcess(let clock, _): clock
            case .remote(let clock): clock
            }
        }
    }

    /// The server's bare base URL (the default world's).
    public let serverURL: String
    /// The start's configuration (device, time-outs); its base URL is replaced.
    public let configuration: AccountClient.Configuration
    /// The environment that names the state folder the sessions and cached data are kept in
    /// (`SessionStore.stateFolder`); nil: nothing is kept (the embedded backend, whose worlds end with it).
    public let keptIn: [String: String]?
    public let clock: Clock

    public init(
        serverURL: String, configuration: AccountClient.Configuration, keptIn: [String: String]?, clock: Clock
    ) {
        self.serverURL = serverURL
        self.configuration = configuration
        self.keptIn = keptIn
        self.clock = clock
    }

    /// `world` nil: the default world.
    public func baseURL(world: String?) -> String {
        world.map { WorldNames.baseURL(serverURL, world: $0) } ?? serverURL
    }

    /// World `world`'s client (its kept session restored) and cache; the app's clock follows the world's from
    /// here, and `now` is the world's time.
    public func connect(world: String?) async -> (client: AccountClient, cache: AuthMethodsCache, now: Date) {
        let quiet = Logger(label: "accessdeck") { _ in SwiftLogNoOpLogHandler() }
        var configuration = configuration
        configuration.baseURL = baseURL(world: world)
        let client: AccountClient
        let cache: AuthMethodsCache
        if let keptIn, let origin = BackendOrigin(baseURL: configuration.baseURL) {
            let store = SessionStore(
                fileURL: SessionStore.defaultLocation(for: origin, environment: keptIn), origin: origin)
            client =
                AccountClient.restoringSession(configuration: configuration, sessionStore: store, logger: quiet)
                .client
            cache = AuthMethodsCache(fileURL: AuthMethodsCache.defaultLocation(for: origin, environment: keptIn))
        } else {
            client = AccountClient(configuration: configuration, sessionStore: nil, logger: quiet)
            cache = AuthMethodsCache(fileURL: nil)
        }
        // Its admin clock, once: the world's time now, and a closed world opens (the embedded one's clock is
        // read in process only while the world is open).
        let serverNow = try? await client.adminClock().now
        switch clock {
        case .inProcess(let following, let worldClock):
            following.follow(source: worldClock(world))
        case .remote(let remote):
            remote.followReference(resync: { try? await client.adminClock().now }, serverNow: serverNow)
        }
        return (client, cache, serverNow ?? clock.app.now())
    }
}

import AccessAPI
import AccessCore
import Foundation
import Synchronization

/// Names one request: the reducer mints it (`AppState.send`) and notes who waits for it in
/// `AppState.pending`; a reply whose id nobody waits for any more (the screen was left) is dropped.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    public let value: Int
    public init(_ value: Int) { self.value = value }
    public var description: String { "#\(value)" }
}

/// What a request may use while it runs: the client, the offline cache, the app clock's time, the
/// embedded backend when there is one, and the way into another world of the reference backend.
public struct APIContext: Sendable {
    public let client: AccountClient
    public let cache: AuthMethodsCache?
    public let now: Date
    public let embedded: (any EmbeddedBackendControl)?
    /// Moves the app's requests and clock to world NAME (nil: the default world) and answers the context they
    /// run in from then on; nil where the runtime cannot change worlds (tapes, tests' stand-ins).
    public let enterWorld: (@Sendable (String?) async -> APIContext)?

    public init(
        client: AccountClient, cache: AuthMethodsCache?, now: Date, embedded: (any EmbeddedBackendControl)? = nil,
        enterWorld: (@Sendable (String?) async -> APIContext)? = nil
    ) {
        self.client = client
        self.cache = cache
        self.now = now
        self.embedded = embedded
        self.enterWorld = enterWorld
    }
}

/// What the app can do to the reference backend it runs in process when HTTP cannot reach it: a `refused`
/// fault closes the very port the admin API listens on.
public protocol EmbeddedBackendControl: Sendable {
    func endRefusal() async
}

/// A backend call a feature asks for, as a value, so reducers stay pure and tests can compare
/// it. Each feature declares its own next to its screens.
public protocol APIRequest: Equatable, Sendable {
    associatedtype Reply: Equatable & Sendable
    func perform(_ api: APIContext) async throws -> Reply
    /// Whether its answer tells if the backend is there: true for every call that goes to it (an
    /// offline failure raises the banner, an answer clears it); false for what the app reads from its
    /// own memory (its journal).
    var reachesBackend: Bool { get }
}

extension APIRequest {
    public var reachesBackend: Bool { true }
}

/// The reply of a request that answers nothing but success.
public struct Acknowledged: Equatable, Sendable {
    public init() {}
}

/// Any request, so commands and effects can carry them and still be compared.
public struct AnyRequest: Equatable, Sendable, CustomReflectable {
    public let base: any APIRequest

    public init(_ base: some APIRequest) { self.base = base }

    public static func == (lhs: AnyRequest, rhs: AnyRequest) -> Bool { lhs.base.isEqual(to: rhs.base) }

    public var customMirror: Mirror { Mirror(reflecting: base) }

    public var reachesBackend: Bool { base.reachesBackend }

    /// The request's type: half of a call's key (`CallKey`).
    var requestType: any APIRequest.Type { type(of: base) }

    /// Runs the request; every failure comes back as an `APIError`.
    public func perform(_ api: APIContext) async -> Result<Answer, APIError> {
        await base.performErased(api)
    }
}

extension APIRequest {
    fileprivate func isEqual(to other: any APIRequest) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }

    fileprivate func performErased(_ api: APIContext) async -> Result<Answer, APIError> {
        do {
            return .success(Answer(try await perform(api)))
        } catch let error as APIError {
            return .failure(error)
        } catch {
            return .failure(.offline(reason: "\(type(of: error))"))
        }
    }
}

/// What a request answered, as `Action.response` carries it back: the request's own `Reply` value. One
/// action carries every request's answer, so the value crosses the effect runner without its type; only
/// the `Call` that sent the request reads it back, as that request's `Reply` (`Call.reply(to:as:)`). No
/// screen, overlay or console code reads one any other way.
public struct Answer: Equatable, Sendable, CustomReflectable {
    let value: any Equatable & Sendable

    public init(_ value: some Equatable & Sendable) { self.value = value }

    public static func == (lhs: Answer, rhs: Answer) -> Bool { equal(lhs.value, rhs.value) }

    private static func equal<A: Equatable>(_ lhs: A, _ rhs: any Equatable) -> Bool {
        guard let rhs = rhs as? A else { return false }
        return lhs == rhs
    }

    public var customMirror: Mirror { Mirror(reflecting: value) }
}

/// Where a member of a request generated from the contract goes (GeneratedGlue/Endpoints.swift), by its
/// name there: what `Redaction` judges.
enum ContractMember {
    case body(String), path(String), query(String), header(String)

    var isSecret: Bool {
        switch self {
        case .body(let name), .path(let name), .query(let name): Redaction.isSecret(name)
        case .header(let name): Redaction.isSecretHeader(name)
        }
    }
}

extension Mirror {
    /// A request generated from the contract as dumps show it: its members, each one whose name in the
    /// contract is a secret's (a password, a code, a token) shown as `Redaction.placeholder`.
    init(contractRequest subject: some APIRequest, _ members: [(label: String, member: ContractMember, value: Any)]) {
        let children = members.map { (label: $0.label, value: $0.member.isSecret ? Redaction.placeholder : $0.value) }
        self.init(subject, children: children.map { Mirror.Child(label: $0.label, value: $0.value) })
    }
}

/// What runs the app's requests for the effect runner: the HTTP client, or a test's stand-in.
public protocol RequestPerforming: Sendable {
    func perform(_ request: AnyRequest, now: Date) async -> Result<Answer, APIError>
    /// Forgets the session (in memory and its file) and the cached auth methods.
    func signOutLocally() async
    /// Log out: as `signOutLocally`, and the backend is told when it can be (never waited for).
    func logOut() async
}

extension RequestPerforming {
    public func logOut() async { await signOutLocally() }
}

/// Runs requests with an `AccountClient`: what the effect runner hands every `.request` to. With `worlds`, a
/// world switch puts another world's client in the first one's place for every request after it.
public struct ClientPerformer: RequestPerforming {
    private let current: CurrentClient
    public let embedded: (any EmbeddedBackendControl)?
    public let worlds: WorldClients?

    public var client: AccountClient { current.value.client }
    public var cache: AuthMethodsCache? { current.value.cache }

    public init(
        client: AccountClient, cache: AuthMethodsCache?, embedded: (any EmbeddedBackendControl)? = nil,
        worlds: WorldClients? = nil
    ) {
        current = CurrentClient((client, cache))
        self.embedded = embedded
        self.worlds = worlds
    }

    public func perform(_ request: AnyRequest, now: Date) async -> Result<Answer, APIError> {
        let api = context(current.value, now: now)
        let result = await request.perform(api)
        // The backend answered in time (and not with a 5xx): a log out it has not heard of yet can be told now.
        let heard =
            if case .failure(let failure) = result { !failure.gotNoAnswer && !failure.isServerError } else { true }
        if heard { api.client.tellPendingLogouts() }
        return result
    }

    private func context(_ value: (client: AccountClient, cache: AuthMethodsCache?), now: Date) -> APIContext {
        guard let worlds else {
            return APIContext(client: value.client, cache: value.cache, now: now, embedded: embedded)
        }
        return APIContext(
            client: value.client, cache: value.cache, now: now, embedded: embedded,
            enterWorld: { [current] world in
                let made = await worlds.connect(world: world)
                current.replace(with: (made.client, made.cache))
                return context((made.client, made.cache), now: made.now)
            })
    }

    public func logOut() async {
        await client.logOut()
        cache?.clear()
    }

    /// Forgets the session (in memory and its file) and the cached auth methods.
    public func signOutLocally() async {
        await client.signOutLocally()
        cache?.clear()
    }

    /// Shuts down the clients world switches made (the first one is its maker's to shut down).
    public func shutdownWorlds() async {
        for client in current.made { await client.shutdown() }
    }
}

/// The client requests go to now. A client left by a world switch is kept open until `shutdownWorlds`: a
/// request of the old world still under way finishes on it (its answer is dropped: nobody waits for it).
final class CurrentClient: Sendable {
    private let state: Mutex<(value: (client: AccountClient, cache: AuthMethodsCache?), made: [AccountClient])>

    init(_ value: (client: AccountClient, cache: AuthMethodsCache?)) { state = Mutex((value, [])) }

    var value: (client: AccountClient, cache: AuthMethodsCache?) { state.withLock { $0.value } }
    var made: [AccountClient] { state.withLock { $0.made } }

    func replace(with value: (client: AccountClient, cache: AuthMethodsCache?)) {
        state.withLock {
            $0.value = value
            $0.made.append(value.client)
        }
    }
}

import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// Talks to any backend that speaks the contract (`openapi.yaml`): ours or a real one.
/// The calls themselves are the generated `Client`'s; this class keeps the session and puts
/// three client middlewares around every call (ClientMiddlewares.swift): the bearer token with
/// one refresh-and-retry on 401, retries of a GET whose answer was lost (never of a refused
/// connection or a time-out), and the journal with typed errors. One typed method per operation: generated in GeneratedGlue/AccountClient+Operations.swift, by hand in AccountClient+Endpoints.swift where it does more than forward.
public final class AccountClient: Sendable {
    public struct Configuration: Sendable {
        /// Where the contract's paths start, with any prefix: `http://127.0.0.1:8080` or
        /// `https://api.example.com/api/v1`.
        public var baseURL: String
        /// How long a connection may take to open; a refused one fails at once, whatever this says.
        public var connectTimeout: Duration
        /// How long a whole call may take, the connection included: a backend that accepts and never
        /// answers has timed out after this (`APIError.timedOut`).
        public var requestTimeout: Duration
        /// Waits before each retry of a GET whose answer was lost (the connection closed mid-answer, a
        /// 502/503/504). A refused connection or a time-out is not retried: the backend is not there, and
        /// asking again only keeps the person waiting.
        public var getRetryDelays: [Duration] = [.milliseconds(200), .milliseconds(800)]
        /// Sent with every sign-in (seed 004's device registration); the app passes its kept identity.
        public var device: DeviceInfo = Self.processDevice
        /// This device's passkeys, which answer the passkey ceremonies (issue 53); the app passes its kept
        /// `passkeys.json`, tests and the embedded backend's QA runs one that lives as long as the process.
        public var passkeys: DevicePasskeyStore = .ephemeral()

        /// One identity per process when none is kept: tests and the embedded backend's QA runs.
        static let processDevice = DeviceIdentity.ephemeral().info

        public init(baseURL: String) {
            var trimmed = baseURL
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            self.baseURL = trimmed
            let timeouts = Timeouts.defaults(for: trimmed)
            connectTimeout = timeouts.connect
            requestTimeout = timeouts.request
        }

        /// `--timeout`: `seconds` for a whole call; the connection gets no longer than its default.
        public mutating func setTimeout(seconds: Double) {
            requestTimeout = .milliseconds(Int((seconds * 1000).rounded()))
            connectTimeout = min(connectTimeout, requestTimeout)
        }
    }

    /// How long the client waits for a backend, by where it is.
    public struct Timeouts: Equatable, Sendable {
        public var connect: Duration
        public var request: Duration

        /// This machine (`127.0.0.1`, `localhost`, `::1`): a connection opens in a millisecond or not at
        /// all, and the reference backend answers in a few; seconds more only leave a spinner turning.
        public static let loopback = Timeouts(connect: .milliseconds(500), request: .seconds(3))
        /// A host over a real network (Wi-Fi, a VPN, another continent): room for a slow handshake and
        /// a busy server, still short of the minute a socket would wait on its own.
        public static let remote = Timeouts(connect: .seconds(3), request: .seconds(8))

        public static func defaults(for baseURL: String) -> Timeouts {
            isLoopback(baseURL) ? loopback : remote
        }

        static func isLoopback(_ baseURL: String) -> Bool {
            guard let host = URL(string: baseURL)?.host?.lowercased() else { return false }
            return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        }
    }

    public let configuration: Configuration
    public let journal: RequestJournal
    /// The backend's clock as its answers tell it: what countdowns against a backend without an
    /// admin clock are measured on.
    public let serverClock: ServerClock
    let keeper: SessionKeeper
    let http: HTTPClient
    /// Operations that act as the signed-in user.
    let api: Client
    /// Operations that carry no session: health, refresh and the reference backend's admin API
    /// (its generated admin client, used by the app's QA features).
    public let admin: Client
    /// A client for the signed-in operations of a session other than the kept one (a logged-out
    /// session the backend is still to be told of).
    private let sessionClient: @Sendable (SessionKeeper) -> Client
    /// Sessions ended here that the backend has not heard of yet, kept beside the session file.
    private let logouts: LogoutQueue

    /// `sleep` waits between GET retries; tests pass one that returns at once.
    public init(
        configuration: Configuration, sessionStore: SessionStore?, initialSession: SessionTokens? = nil,
        logger: Logger = Logger(label: "accessdeck.client"), serverClock: ServerClock = ServerClock(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.serverClock = serverClock
        let journal = RequestJournal()
        self.journal = journal
        let keeper = SessionKeeper(store: sessionStore, initial: initialSession)
        logouts = LogoutQueue(store: sessionStore)
        self.keeper = keeper
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout = .init(connect: TimeAmount(configuration.connectTimeout))
        // A refused connection is an answer: nobody is there. Left on, the pool would keep trying to
        // connect until the connect time-out, for every call (issue 27: 7 s of "Checking your session…").
        httpConfiguration.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        let transport = AsyncHTTPClientTransport(
            configuration: .init(client: http, timeout: TimeAmount(configuration.requestTimeout)))
        // An unparsable base URL still builds a client: every call then fails as offline.
        let serverURL = URL(string: configuration.baseURL) ?? URL(string: "http://invalid.invalid")!
        let outcome = OutcomeMiddleware(
            journal: journal, logger: logger, serverClock: serverClock, requestTimeout: configuration.requestTimeout)
        let retry = GetRetryMiddleware(delays: configuration.getRetryDelays, sleep: sleep, logger: logger)
        let admin = Client(
            serverURL: serverURL, configuration: .init(dateTranscoder: ContractDates()), transport: transport,
            middlewares: [retry, outcome])
        self.admin = admin
        let refresh: @Sendable (String) async throws -> SessionTokens = { refreshToken in
            try await admin.refreshSession(body: .json(.init(refreshToken: refreshToken))).ok.body.json
        }
        sessionClient = { keeper in
            Client(
                serverURL: serverURL, configuration: .init(dateTranscoder: ContractDates()), transport: transport,
                middlewares: [SessionMiddleware(keeper: keeper, refresh: refresh), retry, outcome])
        }
        api = sessionClient(keeper)
    }

    /// Loads the saved session, if any; a damaged file is removed and reported. Log outs an earlier run
    /// could not tell the backend are sent now, in the background.
    public static func restoringSession(
        configuration: Configuration, sessionStore: SessionStore, logger: Logger = Logger(label: "accessdeck.client")
    ) -> (client: AccountClient, problem: SessionStoreError?) {
        var tokens: SessionTokens?
        var problem: SessionStoreError?
        do {
            tokens = try sessionStore.load()
        } catch let error as SessionStoreError {
            sessionStore.clear()
            problem = error
        } catch {}
        let client = AccountClient(
            configuration: configuration, sessionStore: sessionStore, initialSession: tokens, logger: logger)
        client.tellPendingLogouts()
        return (client, problem)
    }

    public func shutdown() async { try? await http.shutdown() }

    public var isSignedIn: Bool { get async { await keeper.current != nil } }
    public var userId: String? { get async { await keeper.current?.userId } }

    /// Keeps new tokens (after a sign-in) in memory and in the session file.
    public func adopt(_ tokens: SessionTokens) async throws { try await keeper.replace(with: tokens) }

    public func signOutLocally() async { await keeper.signOut() }

    /// Log out (seed 002): the session is forgotten here at once, and `POST /auth/logout` goes out with
    /// it in the background. A backend that does not answer is told later, when a call gets an answer
    /// again (`tellPendingLogouts`); the ones not told are kept with the session file, so the next start
    /// tells them when the backend first answers. Nobody waits for it.
    @discardableResult
    public func logOut() async -> Task<Void, Never>? {
        let tokens = await keeper.current
        await keeper.signOut()
        guard let tokens else { return nil }
        logouts.add(tokens)
        return tellPendingLogouts()
    }

    /// Sends the log outs the backend has not heard of, one at a time, in the background; the task doing
    /// it (nil when there is nothing to tell or it is under way already), for a test to await.
    @discardableResult
    public func tellPendingLogouts() -> Task<Void, Never>? {
        logouts.flush { [self] tokens in await tellLogout(tokens) }
    }

    /// Whether any log out still waits to be told.
    public var logoutsPending: Int { logouts.count }

    /// true once the backend answered (a 204, or a 401: that session was over anyway); false without an
    /// answer, to try again later. The session's own refresh token renews an expired access token first.
    private func tellLogout(_ tokens: SessionTokens) async -> Bool {
        let client = sessionClient(SessionKeeper(store: nil, initial: tokens))
        do {
            _ = try await call { try await client.logout().noContent }
            return true
        } catch let error as APIError where error.gotNoAnswer || error.isServerError {
            // No answer (offline, timed out), or a server failing (a 5xx): it has not heard, so tell it again later.
            return false
        } catch {
            return true
        }
    }

    /// Runs one generated call and turns whatever it throws into an `APIError` (cancellation
    /// stays a `CancellationError`). Errors of status are already typed by `OutcomeMiddleware`;
    /// what is left is an answer that could not be read as the contract says.
    func call<Result>(_ operation: () async throws -> Result) async throws -> Result {
        let status = LastStatus()
        do {
            return try await LastStatus.$current.withValue(status) { try await operation() }
        } catch {
            if let typed = APIError.unwrapping(error) { throw typed }
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            // A 2xx the contract does not list for the call, or a body that does not decode.
            throw APIError.invalidResponse(status: status.value ?? 0)
        }
    }
}

extension APIError {
    /// The `APIError` a middleware threw, from inside the runtime's `ClientError` wrapper.
    static func unwrapping(_ error: any Error) -> APIError? {
        if let error = error as? APIError { return error }
        if let error = error as? ClientError { return error.underlyingError as? APIError }
        return nil
    }
}

/// Sessions logged out here, in order, until the backend has heard of each.
final class LogoutQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let store: SessionStore?
    private var waiting: [SessionTokens]
    private var telling = false

    init(store: SessionStore?) {
        self.store = store
        waiting = store?.loadPendingLogouts() ?? []
    }

    var count: Int { lock.withLock { waiting.count } }

    func add(_ tokens: SessionTokens) {
        lock.withLock {
            waiting.append(tokens)
            store?.savePendingLogouts(waiting)
        }
    }

    /// Tells the waiting ones in a task of its own, one after the other; stops at the first without an
    /// answer. A flush already under way takes the new ones too.
    func flush(_ tell: @escaping @Sendable (SessionTokens) async -> Bool) -> Task<Void, Never>? {
        let start = lock.withLock {
            guard !telling, !waiting.isEmpty else { return false }
            telling = true
            return true
        }
        guard start else { return nil }
        return Task {
            // Done and no longer telling in one step: one added meanwhile is never left behind.
            while let next = lock.withLock({ () -> SessionTokens? in
                if waiting.isEmpty { telling = false }
                return waiting.first
            }) {
                guard await tell(next) else { return lock.withLock { telling = false } }
                lock.withLock {
                    _ = waiting.removeFirst()
                    store?.savePendingLogouts(waiting)
                }
            }
        }
    }
}

/// The status of the last answer of one call, so an unreadable body can still say it.
final class LastStatus: @unchecked Sendable {
    @TaskLocal static var current: LastStatus?
    private let lock = NSLock()
    private var status: Int?

    var value: Int? { lock.withLock { status } }
    func set(_ newValue: Int) { lock.withLock { status = newValue } }
}

extension APIError {
    /// A short, stable name for the journal.
    var code: String {
        switch self {
        case .offline: return "offline"
        case .timedOut: return APIError.timedOutCode
        case .rateLimited: return "rate_limited"
        case .codeIncorrect: return "code_incorrect"
        case .passwordIncorrect: return "password_incorrect"
        case .codeExpired: return "code_expired"
        case .taken: return "taken"
        case .invalid: return "invalid"
        case .reauthRequired: return "reauth_required"
        case .unauthorized: return "unauthorized"
        case .signedOut: return "signed_out"
        case .signedOutElsewhere: return "session_revoked"
        case .sessionEnded: return "session_ended"
        case .server(_, let code, _): return code.isEmpty ? "server" : code
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension Duration {
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

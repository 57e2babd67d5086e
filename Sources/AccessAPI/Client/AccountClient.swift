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
/// one refresh-and-retry on 401, retries of a GET that got no answer, and the journal with
/// typed errors. One typed method per endpoint lives in AccountClient+Endpoints.swift.
public final class AccountClient: Sendable {
    public struct Configuration: Sendable {
        /// Where the contract's paths start, with any prefix: `http://127.0.0.1:8080` or
        /// `https://api.example.com/api/v1`.
        public var baseURL: String
        public var connectTimeout: Duration = .seconds(2)
        public var requestTimeout: Duration = .seconds(10)
        /// Waits before each retry of a GET that got no answer (or a 502/503/504).
        public var getRetryDelays: [Duration] = [.milliseconds(200), .milliseconds(800)]
        /// Sent with every sign-in (seed 004's device registration); the app passes its kept identity.
        public var device: DeviceInfo = Self.processDevice

        /// One identity per process when none is kept: tests and the embedded backend's QA runs.
        static let processDevice = DeviceIdentity.ephemeral().info

        public init(baseURL: String) {
            var trimmed = baseURL
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            self.baseURL = trimmed
        }
    }

    public let configuration: Configuration
    public let journal: RequestJournal
    /// The backend's clock as its answers tell it: what countdowns against a backend without an
    /// admin clock are measured on.
    public let serverClock: ServerClock
    let keeper: SessionKeeper
    private let http: HTTPClient
    /// Operations that act as the signed-in user.
    let api: Client
    /// Operations that carry no session: health, refresh and the reference backend's admin API
    /// (its generated admin client, used by the app's QA features).
    public let admin: Client

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
        self.keeper = keeper
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout = .init(connect: TimeAmount(configuration.connectTimeout))
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        let transport = AsyncHTTPClientTransport(
            configuration: .init(client: http, timeout: TimeAmount(configuration.requestTimeout)))
        // An unparsable base URL still builds a client: every call then fails as offline.
        let serverURL = URL(string: configuration.baseURL) ?? URL(string: "http://invalid.invalid")!
        let outcome = OutcomeMiddleware(journal: journal, logger: logger, serverClock: serverClock)
        let retry = GetRetryMiddleware(delays: configuration.getRetryDelays, sleep: sleep, logger: logger)
        let admin = Client(
            serverURL: serverURL, configuration: .init(dateTranscoder: ContractDates()), transport: transport,
            middlewares: [retry, outcome])
        self.admin = admin
        let session = SessionMiddleware(keeper: keeper) { refreshToken in
            try await admin.refreshSession(body: .json(.init(refreshToken: refreshToken))).ok.body.json
        }
        api = Client(
            serverURL: serverURL, configuration: .init(dateTranscoder: ContractDates()), transport: transport,
            middlewares: [session, retry, outcome])
    }

    /// Loads the saved session, if any; a damaged file is removed and reported.
    public static func restoringSession(
        configuration: Configuration, sessionStore: SessionStore, logger: Logger = Logger(label: "accessdeck.client")
    ) -> (client: AccountClient, problem: SessionStoreError?) {
        do {
            let tokens = try sessionStore.load()
            return (
                AccountClient(
                    configuration: configuration, sessionStore: sessionStore, initialSession: tokens, logger: logger),
                nil
            )
        } catch let error as SessionStoreError {
            sessionStore.clear()
            return (AccountClient(configuration: configuration, sessionStore: sessionStore, logger: logger), error)
        } catch {
            return (AccountClient(configuration: configuration, sessionStore: sessionStore, logger: logger), nil)
        }
    }

    public func shutdown() async { try? await http.shutdown() }

    public var isSignedIn: Bool { get async { await keeper.current != nil } }
    public var userId: String? { get async { await keeper.current?.userId } }

    /// Keeps new tokens (after a sign-in) in memory and in the session file.
    public func adopt(_ tokens: SessionTokens) async throws { try await keeper.replace(with: tokens) }

    public func signOutLocally() async { await keeper.signOut() }

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
            throw APIError.server(
                status: status.value ?? 0, code: "bad_response", message: "The server's answer could not be read.")
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
        case .rateLimited: return "rate_limited"
        case .codeIncorrect: return "code_incorrect"
        case .passwordIncorrect: return "password_incorrect"
        case .codeExpired: return "code_expired"
        case .taken: return "taken"
        case .invalid: return "invalid"
        case .reauthRequired: return "reauth_required"
        case .unauthorized: return "unauthorized"
        case .signedOut: return "signed_out"
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

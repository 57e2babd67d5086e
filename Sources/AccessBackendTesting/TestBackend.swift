import AccessAPI
import AccessBackend
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// A reference backend on 127.0.0.1:0 with a temporary SQLite file and a frozen clock, plus a real
/// HTTP client. Time moves only through `POST /_admin/clock/advance`.
public final class TestBackend: Sendable {
    public let running: RunningBackend
    public let client: HTTPClient

    /// The repository's fixtures/, found from this file's place in the checkout (Sources/AccessBackendTesting).
    public static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    /// Where the helpers send: the backend itself, or a proxy in front of it (`through(_:)`).
    private let baseURL: String

    private init(running: RunningBackend) {
        self.running = running
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        self.baseURL = running.baseURL
    }

    private init(running: RunningBackend, client: HTTPClient, baseURL: String) {
        self.running = running
        self.client = client
        self.baseURL = baseURL
    }

    /// The same backend with every helper sending to `baseURL`, a proxy in front of it (issue 52). Stop the
    /// backend this came from, not this.
    public func through(_ baseURL: String) -> TestBackend {
        TestBackend(running: running, client: client, baseURL: baseURL)
    }

    /// How every test starts a reference backend: the repository's fixtures, a frozen clock, port 0, and a
    /// temporary database unless `databasePath` names one.
    public static func configuration(
        scenario: String = "default", databasePath: String? = nil, logger: Logger? = nil
    ) -> ReferenceBackend.Configuration {
        var configuration = ReferenceBackend.Configuration(
            databasePath: databasePath, scenario: scenario, fixturesDirectory: fixtures, frozenClock: true)
        if let logger { configuration.logger = logger }
        return configuration
    }

    public static func with<T>(
        scenario: String = "default", databasePath: String? = nil, logger: Logger? = nil,
        _ body: (TestBackend) async throws -> T
    ) async throws -> T {
        try await with(
            configuration: configuration(scenario: scenario, databasePath: databasePath, logger: logger), body)
    }

    public static func with<T>(
        configuration: ReferenceBackend.Configuration, _ body: (TestBackend) async throws -> T
    ) async throws -> T {
        let backend = TestBackend(running: try await ReferenceBackend.start(configuration))
        do {
            let result = try await body(backend)
            await backend.stop()
            return result
        } catch {
            await backend.stop()
            throw error
        }
    }

    public func stop() async {
        try? await client.shutdown()
        await running.shutdown()
    }

    // MARK: HTTP

    public func send(
        _ method: HTTPMethod, _ path: String, raw: Data? = nil, token: String? = nil, reauth: String? = nil,
        contentType: String? = "application/json", headers extra: [(String, String)] = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let reauth { request.headers.add(name: APIHeader.reauthToken, value: reauth) }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let raw {
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
            request.body = .bytes(ByteBuffer(bytes: raw))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, data: Data(buffer.readableBytesView))
    }

    public func post<B: Encodable>(
        _ path: String, _ body: B, token: String? = nil, reauth: String? = nil
    ) async throws -> Reply {
        try await send(.POST, path, raw: try APIJSON.makeContractEncoder().encode(body), token: token, reauth: reauth)
    }

    public func get(_ path: String, token: String? = nil) async throws -> Reply {
        try await send(.GET, path, token: token)
    }

    // MARK: Admin shortcuts

    public func signIn() async throws -> SessionTokens {
        try await send(.POST, "/_admin/session").decode()
    }

    public func advance(seconds: Double) async throws -> ClockAdvanced {
        try await post("/_admin/clock/advance", ClockAdvanceBody(seconds: seconds)).decode()
    }

    public func advanceToNextDeadline() async throws -> ClockAdvanced {
        try await post("/_admin/clock/advance", ClockAdvanceBody(to: "next_deadline")).decode()
    }

    public func outbox() async throws -> [OutboxMessage] {
        try await get("/_admin/outbox").decode([Components.Schemas.OutboxMessage].self).map(OutboxMessage.init)
    }

    /// The last code texted to `phone`: what a tester would read off the phone.
    public func lastCode(to phone: String) async throws -> String {
        let message = try await outbox().last { $0.to == phone && $0.kind == "otp" }
        guard let code = message?.code else { throw TestFailure("no code sent to \(phone)") }
        return code
    }

    public func requestOTP(
        _ phone: String, _ purpose: OTPPurpose, token: String, reauth: String? = nil
    ) async throws -> Reply {
        try await post(
            "/auth/phone/request-otp", RequestOTPBody(phone: phone, purpose: purpose), token: token, reauth: reauth)
    }

    public func verify(_ requestId: String, _ code: String, token: String, reauth: String? = nil) async throws -> Reply
    {
        try await post(
            "/auth/phone/verify-otp", VerifyOTPBody(requestId: requestId, code: code), token: token, reauth: reauth)
    }

    /// Re-auth through the simulated provider sheet: mint an id token for the linked account, present it.
    public func socialGrant(_ provider: SocialProvider, token: String) async throws -> ReauthGrant {
        let minted: ProviderToken = try await post(
            "/_admin/provider/\(provider.rawValue)/token", ProviderTokenBody()
        ).decode()
        return try await post(
            "/auth/reauth/social", SocialReauthBody(provider: provider, idToken: minted.idToken), token: token
        ).decode()
    }

    public func passwordGrant(token: String, password: String = "correct-horse-42") async throws -> ReauthGrant {
        try await post("/auth/reauth/password", PasswordReauthBody(password: password), token: token).decode()
    }
}

public struct Reply: Sendable {
    public let status: Int
    public let headers: HTTPHeaders
    public let data: Data

    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try APIJSON.makeContractDecoder().decode(T.self, from: data)
        } catch {
            throw TestFailure("status \(status), cannot decode \(T.self) from \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// The error body with its enums spelt as on the wire, which is how the tests compare them.
    public var error: ErrorView? { (try? decode(APIErrorBody.self)).map { ErrorView($0.error) } }
}

public struct ErrorView: Sendable {
    public let code: String
    public let message: String
    public let attemptsRemaining: Int?
    public let retryAfter: Int?
    public let limit: String?
    public let errors: [String]?
    public let min: Int?
    public let max: Int?
    public let heldUntil: Date?
    /// Why the session presented ended (issue 49 item 3).
    public let reason: String?

    public init(_ detail: APIErrorDetail) {
        code = detail.code.rawValue
        message = detail.message
        attemptsRemaining = detail.attemptsRemaining
        retryAfter = detail.retryAfter
        limit = detail.limit?.rawValue
        errors = detail.errors
        min = detail.min
        max = detail.max
        heldUntil = detail.heldUntil
        reason = detail.reason
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension String {
    /// Another valid Georgian mobile number, distinct per `n`.
    public static func georgian(_ n: Int) -> String {
        "+99559\(String(format: "%07d", n))"
    }
}

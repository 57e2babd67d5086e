import AccessAPI
import AccessBackend
import AccessBackendTesting
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import Testing

@testable import AccessProxy

/// Issue 52 item 4, end to end: the app's own client (`AccountClient`, as `accessdeck --backend` makes it) through a
/// real proxy. Each answer names its exchange (`X-Proxy-Exchange`), the client keeps the number with the call, and
/// its look at `GET /_proxy/findings` gives the count the status strip shows and the finding F3 marks.
@Suite struct AppThroughProxyTests {
    static func client(_ baseURL: String) -> AccountClient {
        var configuration = AccountClient.Configuration(baseURL: baseURL)
        configuration.connectTimeout = .seconds(30)
        return AccountClient(
            configuration: configuration, sessionStore: nil,
            logger: Logger(label: "test.client") { _ in SwiftLogNoOpLogHandler() }, sleep: { _ in })
    }

    /// The client's look at the findings, the client shut down whatever the look gives: one left running traps
    /// when it goes (AsyncHTTPClient's debug check), taking the whole test run with it.
    static func lookThenShutDown(_ client: AccountClient) async throws -> ProxyFindingsDigest? {
        let findings: ProxyFindingsDigest?
        do {
            findings = try await client.proxyFindings()
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
        return findings
    }

    /// A backend double that answers a password sign-in with a status the contract does not list.
    @Test func theAppsClientLearnsWhichExchangeBrokeTheContract() async throws {
        let router = Router()
        router.post(
            "/auth/login",
            use: ContractBreakTests.answer(418, "application/json", #"{"error":{"code":"teapot","message":"no"}}"#))
        try await BackendDouble.with(router) { upstream in
            try await withProxy(upstream: upstream) { proxy in
                let client = Self.client(proxy.baseURL)
                _ = try? await client.login(email: "someone@example.com", password: "not-the-password")
                await proxy.log.waitUntilSettled()
                let findings = try await Self.lookThenShutDown(client)
                let call = client.journal.records.last
                #expect(call?.path == "/auth/login")
                #expect(call?.status == 418)
                #expect(call?.proxyExchange == 1)
                #expect(findings?.count == 1)
                #expect(findings?.byExchange[1]?.count == 1)
                #expect(findings?.byExchange[1]?.first?.hasPrefix("contract: ") == true)
            }
        }
    }

    /// Any other backend does not answer the findings: the app then stops asking; its calls carry no exchange.
    @Test func aBackendThatIsNotTheProxyHasNoFindingsAndNoExchangeNumbers() async throws {
        try await TestBackend.with { backend in
            let client = Self.client(backend.running.baseURL)
            _ = try? await client.login(email: "someone@example.com", password: "not-the-password")
            let findings = try await Self.lookThenShutDown(client)
            #expect(findings == nil)
            #expect(client.journal.records.last?.status != nil)
            #expect(client.journal.records.last?.proxyExchange == nil)
        }
    }
}

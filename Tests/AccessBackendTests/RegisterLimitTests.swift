import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// Issue 45 item 7: `POST /auth/register` under the send limits like the other anonymous routes, refused or
/// not: 60 registrations of a known address from one client were 60 answers of 409 `email_taken`, with no
/// limit on asking which addresses have an account.
@Suite struct RegisterLimitTests {
    static let known = "jdoe@mail.com"

    private func register(_ backend: TestBackend, _ email: String) async throws -> Reply {
        try await backend.post(
            "/auth/register", RegisterBody(email: email, password: "violet-harbor-77", device: SignInCodeTests.device))
    }

    private func expectLimited(
        _ reply: Reply, limit: String, retryAfter: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 429, sourceLocation: sourceLocation)
        #expect(reply.error?.code == "rate_limited", sourceLocation: sourceLocation)
        #expect(reply.error?.limit == limit, sourceLocation: sourceLocation)
        #expect(reply.error?.retryAfter == retryAfter, sourceLocation: sourceLocation)
        #expect(reply.headers["Retry-After"].first == String(retryAfter), sourceLocation: sourceLocation)
    }

    @Test func aKnownAddressIsAskedAboutOnceEveryThirtySeconds() async throws {
        try await TestBackend.with { backend in
            #expect(try await register(backend, Self.known).error?.code == "email_taken")
            expectLimited(try await register(backend, Self.known), limit: "cooldown", retryAfter: 30)
            // Emails are counted without case: one mailbox, one count.
            expectLimited(try await register(backend, "JDoe@Mail.com"), limit: "cooldown", retryAfter: 30)
            _ = try await backend.advance(seconds: 29)
            expectLimited(try await register(backend, Self.known), limit: "cooldown", retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await register(backend, Self.known).error?.code == "email_taken")
        }
    }

    /// A new address the same: its registration sent a link, so a second one waits as a second send would.
    @Test func anUnknownAddressIsCountedTheSame() async throws {
        try await TestBackend.with { backend in
            #expect(try await register(backend, "fresh@mail.com").status == 201)
            expectLimited(try await register(backend, "fresh@mail.com"), limit: "cooldown", retryAfter: 30)
            _ = try await backend.advance(seconds: 30)
            #expect(try await register(backend, "fresh@mail.com").error?.code == "email_taken")
        }
    }

    @Test func fiveRegistrationsOfOneAddressPerDay() async throws {
        try await TestBackend.with { backend in
            for _ in 0..<5 {
                #expect(try await register(backend, Self.known).error?.code == "email_taken")
                _ = try await backend.advance(seconds: 30)
            }
            // The five went at 0, 30, … 120 s; the first leaves the day at 86,400 s; now is 150 s.
            expectLimited(try await register(backend, Self.known), limit: "daily_cap", retryAfter: 86_250)
            _ = try await backend.advance(seconds: 86_249)
            #expect(try await register(backend, Self.known).status == 429)
            _ = try await backend.advance(seconds: 1)
            #expect(try await register(backend, Self.known).error?.code == "email_taken")
        }
    }

    /// The cap of one client address across addresses counts refusals as it counts sent links.
    @Test func thirtyRegistrationsFromOneClientPerHourRefusedOrNot() async throws {
        try await TestBackend.with { backend in
            let addresses = (0..<15).map { "probe\($0)@mail.com" }
            for address in addresses { #expect(try await register(backend, address).status == 201) }
            _ = try await backend.advance(seconds: 30)
            for address in addresses { #expect(try await register(backend, address).error?.code == "email_taken") }
            // Thirty asked in the hour, the first fifteen at 0 s; now is 30 s.
            expectLimited(
                try await register(backend, "another@mail.com"), limit: "client_address_hourly", retryAfter: 3570)
            _ = try await backend.advance(seconds: 3569)
            expectLimited(
                try await register(backend, "another@mail.com"), limit: "client_address_hourly", retryAfter: 1)
            _ = try await backend.advance(seconds: 1)
            #expect(try await register(backend, "another@mail.com").status == 201)
        }
    }
}

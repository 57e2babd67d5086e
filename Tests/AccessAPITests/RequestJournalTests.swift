import AccessAPI
import Foundation
import Testing

/// The client's journal keeps each call whole enough to show and replay, and never a secret.
@Suite struct RequestJournalTests {
    @Test func aCallKeepsItsIdHeadersAndBodiesWithSecretsRedacted() async throws {
        try await withLiveBackend { live in
            let password = "correct-horse-42"
            let grant = try await live.client.reauthPassword(password: password)
            let record = try #require(live.client.journal.records.last { $0.path == "/auth/reauth/password" })
            #expect(record.method == "POST")
            #expect(record.status == 200)
            #expect(!record.requestID.isEmpty)
            #expect(
                record.requestHeaders.contains {
                    $0.name.lowercased() == "x-request-id" && $0.value == record.requestID
                })
            #expect(
                record.requestHeaders.contains { $0.name.lowercased() == "authorization" && $0.value == "[redacted]" })
            // The generated client pretty-prints JSON: compare without the spaces it adds.
            let sent = record.requestBody?.filter { !$0.isWhitespace }
            let answered = record.responseBody?.filter { !$0.isWhitespace }
            #expect(sent?.contains(#""password":"[redacted]""#) == true)
            #expect(answered?.contains(#""reauth_token":"[redacted]""#) == true)
            let everything = "\(live.client.journal.records)"
            #expect(!everything.contains(password))
            #expect(!everything.contains(grant.reauthToken))
        }
    }

    /// Issue 25, defect 6: what F3 shows and "copy as curl" copies came out with X-Reauth-Token in clear.
    @Test func theReauthTokenHeaderIsRedacted() async throws {
        try await withLiveBackend { live in
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            _ = try await live.client.requestOtp(
                phone: "+995511200300", purpose: .changePhone, reauthToken: grant.reauthToken)
            let record = try #require(live.client.journal.records.last { $0.path == "/auth/phone/request-otp" })
            #expect(
                record.requestHeaders.contains {
                    $0.name.lowercased() == "x-reauth-token" && $0.value == "[redacted]"
                })
            #expect(!"\(live.client.journal.records)".contains(grant.reauthToken))
        }
    }

    @Test func eachCallHasItsOwnRequestID() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.authMethods()
            _ = try await live.client.authMethods()
            let ids = live.client.journal.records.map(\.requestID)
            #expect(Set(ids).count == ids.count)
        }
    }

    @Test func aQueryKeepsItsParametersWithSecretsRedacted() async throws {
        try await withLiveBackend { live in
            _ = try? await live.client.emailAvailable(email: "someone@mail.com")
            let record = try #require(live.client.journal.records.last { $0.path == "/auth/email-available" })
            #expect(record.query?.contains("someone") == true)
        }
    }
}

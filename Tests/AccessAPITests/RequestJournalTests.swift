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

    /// Issue 48 item 19: a `503 x1` on a GET is asked again by the client and the person never sees it; both
    /// records say so, each naming the other, so QA sees why the fault did not show.
    @Test func aRetriedGetSaysByWhichRequestItWasAskedAgain() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(
                FaultSettings(endpoints: [.init(path: "/me/auth-methods", kind: .unavailable, times: 1)]))
            let before = live.client.journal.records.count
            _ = try await live.client.authMethods()
            let records = Array(live.client.journal.records.dropFirst(before))
            #expect(records.map(\.status) == [503, 200])
            guard records.count == 2 else { return }
            #expect(records[0].retriedBy == records[1].requestID)
            #expect(records[0].retryOf == nil)
            #expect(records[1].retryOf == records[0].requestID)
            #expect(records[1].retriedBy == nil)
            // A call that was not retried names neither.
            _ = try await live.client.authMethods()
            #expect(live.client.journal.records.last?.retryOf == nil)
            #expect(live.client.journal.records.last?.retriedBy == nil)
        }
    }

    /// Issue 48 item 8: the app's own polls (its clock's resync, the console's look at the admin state) are not
    /// kept: one a second, they pushed the calls QA looks for out of the 500 the journal keeps.
    @Test func theAppsOwnPollsAreNotKept() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.authMethods()
            let before = live.client.journal.records.count
            _ = try await live.client.adminClock()
            _ = try await live.client.adminState()
            #expect(live.client.journal.records.count == before)
            // A clock move is QA's own act, and kept.
            _ = try await live.client.adminAdvanceClock(seconds: 30)
            #expect(live.client.journal.records.last?.path == "/_admin/clock/advance")
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

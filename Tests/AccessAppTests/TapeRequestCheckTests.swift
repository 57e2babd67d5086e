import AccessAPI
import AccessAppTesting
import AccessBackend
import AccessBackendTesting
import Foundation
import Logging
import Testing

@testable import AccessApp

/// Issue 51 item 2: a tape's `expect-request` and `expect-no-request` read the reference backend's journal, over
/// real HTTP on 127.0.0.1, and a failed one says what the journal held instead.
@Suite struct TapeRequestCheckTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Replays `text` from Settings on a fresh backend, signed in as its QA user, as `accessdeck play` does.
    func replay(_ text: String) async throws {
        try await TestBackend.with { backend in
            var configuration = AccountClient.Configuration(baseURL: backend.running.baseURL)
            // As the other live suites: beside the in-process servers of a full run, a connect can wait for a core.
            configuration.requestTimeout = .seconds(30)
            configuration.connectTimeout = .seconds(30)
            let client = AccountClient(configuration: configuration, sessionStore: nil, logger: Self.quiet)
            do {
                try await client.adminSignIn()
                let now = try await backend.get("/_admin/clock").decode(ClockState.self).now
                let replayBackend = ReferenceReplayBackend(
                    performer: ClientPerformer(client: client, cache: nil), clock: ManualClock(now: now))
                let state = AppState(now: now, options: AppOptions(hasReferenceBackend: true))
                let tape = try Tape(parsing: text)
                var replay = TapeReplay(state: state, size: tape.size, backend: replayBackend)
                try await replay.play(tape) { _, _ in }
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }

    @Test func requestsTheAppSentPassAndOnesItDidNotSendFailNot() async throws {
        try await replay(
            """
            key Enter
            expect title "Account access"
            expect-request GET /me/auth-methods 200
            expect-request get /me/* 2xx
            expect-no-request /auth/phone/*
            expect-no-request /me/auth-methods/nothing
            """)
    }

    @Test func aCountThatDiffersFailsWithTheJournalRowsItSaw() async throws {
        do {
            try await replay("key Enter\nexpect-request GET /me/auth-methods 200 times 40")
            Issue.record("the check passed")
        } catch let failure as TapeFailure {
            #expect(failure.line == 2)
            #expect(failure.message.hasPrefix("expected GET /me/auth-methods 200 40 times; the journal has "))
            #expect(failure.message.contains("the journal's newest requests to /me/auth-methods:"))
            #expect(failure.message.contains("GET /me/auth-methods 200 ok usr_athlete"))
        }
    }

    @Test func aRequestThatWasSentFailsExpectNoRequest() async throws {
        do {
            try await replay("key Enter\nexpect-no-request /me/*")
            Issue.record("the check passed")
        } catch let failure as TapeFailure {
            #expect(failure.line == 2)
            #expect(failure.message.hasPrefix("expected no request to /me/*; the journal has "))
            #expect(failure.message.contains("GET /me/auth-methods 200"))
        }
    }

    @Test func aRequestNeverSentFailsAndShowsTheNewestRequests() async throws {
        do {
            try await replay("expect-request POST /auth/phone/verify-otp 200")
            Issue.record("the check passed")
        } catch let failure as TapeFailure {
            #expect(failure.line == 1)
            #expect(
                failure.message.hasPrefix(
                    "expected POST /auth/phone/verify-otp 200 at least once; the journal has 0\n"
                        + "  none to /auth/phone/verify-otp; the journal's newest requests:"))
            #expect(failure.message.contains("POST /_admin/session 200"))
        }
    }
}

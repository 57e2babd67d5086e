import AccessAPI
import AccessCore
import Foundation
import Testing

/// Every typed error the screens switch on, provoked for real on the reference backend.
@Suite struct ErrorKindTests {
    @Test func connectionRefusedIsOffline() async throws {
        let live = try await LiveBackend.start()
        let address = live.server.baseURL
        await live.server.shutdown()
        let client = AccountClient(configuration: .init(baseURL: address), sessionStore: nil, sleep: { _ in })
        let error = await apiError { try await client.health() }
        if case .offline = error {} else { Issue.record("expected offline, got \(String(describing: error))") }
        // Nobody listens: known at once, and not asked again (issue 27); the attempt is in the journal.
        #expect(client.journal.records.count == 1)
        #expect(client.journal.records.allSatisfy { $0.status == nil && $0.errorCode == "offline" })
        await client.shutdown()
        await live.client.shutdown()
    }

    /// Issue 48 item 2: a 503 is the server answering with an error, not offline (seed 004: show it, offer a
    /// retry), in one wording whatever the body says. A GET is still asked again, as a gateway's 503 may pass.
    @Test func aFiveHundredAndThreeIsAServerErrorNotOffline() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(FaultSettings(offline: "503"))
            let error = await apiError { try await live.client.authMethods() }
            #expect(error == .server(status: 503, code: "offline", message: OnScreenMessage.serverError.text))
            #expect(error?.isServerError == true)
            let reads = live.client.journal.records.filter { $0.path == "/me/auth-methods" }
            #expect(reads.count == 1 + AccountClient.Configuration(baseURL: live.server.baseURL).getRetryDelays.count)
        }
    }

    /// Issue 46 item 9: another backend answers the fifth wrong code with 410 and says in its body that the wrong
    /// tries ran out (`code_incorrect`, here through a `status` fault; or `attempts_remaining: 0`, below): the
    /// wrong-codes limit, not an expired code.
    @Test func aGoneAnswerSayingTheWrongTriesRanOutIsTheWrongCodesLimit() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(
                FaultSettings(
                    endpoints: [
                        .init(
                            path: "/auth/sign-in/code/verify", kind: .status, status: 410, code: "code_incorrect",
                            message: "Too many wrong codes.")
                    ]))
            let error = await apiError { try await live.client.verifySignInCode(challengeId: "chl_1", code: "123456") }
            #expect(error == .codeIncorrect(attemptsRemaining: 0, message: "Too many wrong codes."))
        }
    }

    @Test func aGoneAnswerIsAnExpiredCodeUnlessItSaysNoTriesAreLeft() {
        func gone(_ json: String) -> APIError { .from(status: 410, body: Data(json.utf8), retryAfterHeader: nil) }
        #expect(
            gone(#"{"error":{"code":"code_expired","message":"Code expired."}}"#)
                == .codeExpired(message: "Code expired."))
        #expect(
            gone(#"{"error":{"code":"code_expired","message":"No tries left.","attempts_remaining":0}}"#)
                == .codeIncorrect(attemptsRemaining: 0, message: "No tries left."))
    }

    @Test func aPostIsNeverRetried() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(FaultSettings(offline: "503"))
            _ = await apiError { try await live.client.requestOtp(phone: "+995511222333", purpose: .addPhone) }
            #expect(live.client.journal.records.filter { $0.path == "/auth/phone/request-otp" }.count == 1)
        }
    }

    @Test func numberTakenByAnotherAccount() async throws {
        try await withLiveBackend(scenario: "taken-number") { live in
            let grant = try await live.client.reauthPassword(password: "correct-horse-42")
            let error = await apiError {
                try await live.client.requestOtp(
                    phone: "+995511200300", purpose: .changePhone, reauthToken: grant.reauthToken)
            }
            guard case .taken(let message) = error else {
                Issue.record("expected taken, got \(String(describing: error))")
                return
            }
            #expect(message == "This number is already in use by another account.")
        }
    }

    @Test func invalidNumber() async throws {
        try await withLiveBackend(scenario: "no-phone") { live in
            let error = await apiError { try await live.client.requestOtp(phone: "+99551", purpose: .addPhone) }
            guard case .invalid = error else {
                Issue.record("expected invalid, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func changingPhoneWithoutReauthIsRefused() async throws {
        try await withLiveBackend { live in
            let error = await apiError {
                try await live.client.requestOtp(phone: "+995511222333", purpose: .changePhone)
            }
            guard case .reauthRequired = error else {
                Issue.record("expected reauthRequired, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func aSecondSendWithinTheCooldownIsRateLimited() async throws {
        try await withLiveBackend(scenario: "no-phone") { live in
            let first = try await live.client.requestOtp(phone: "+995511222333", purpose: .addPhone)
            let error = await apiError { try await live.client.resendOtp(requestId: first.requestId) }
            guard case .rateLimited(let retryAfter?, _, let limit) = error else {
                Issue.record("expected rateLimited, got \(String(describing: error))")
                return
            }
            #expect((1...30).contains(retryAfter))
            // The gap between sends, not a limit reached: the screen says when to resend (issue 28 item 1).
            #expect(limit == .cooldown)
        }
    }

    @Test func wrongCodeThenExpiredCode() async throws {
        try await withLiveBackend(scenario: "no-phone") { live in
            let request = try await live.client.requestOtp(phone: "+995511222333", purpose: .addPhone)
            let sent = try #require(try await live.client.adminOutbox().last?.code)
            let wrong = sent == "000000" ? "111111" : "000000"
            let incorrect = await apiError {
                try await live.client.verifyOtp(requestId: request.requestId, code: wrong)
            }
            guard case .codeIncorrect(let remaining, let message) = incorrect else {
                Issue.record("expected codeIncorrect, got \(String(describing: incorrect))")
                return
            }
            #expect(remaining == 4)
            #expect(message == "Code is incorrect. Try again.")
            _ = try await live.client.adminAdvanceClock(seconds: 301)
            let expired = await apiError {
                try await live.client.verifyOtp(requestId: request.requestId, code: sent)
            }
            guard case .codeExpired = expired else {
                Issue.record("expected codeExpired, got \(String(describing: expired))")
                return
            }
        }
    }

    @Test func aWrongPasswordIsNotASessionProblem() async throws {
        try await withLiveBackend { live in
            let error = await apiError { try await live.client.reauthPassword(password: "not-the-password") }
            guard case .passwordIncorrect(let remaining, let message, _) = error else {
                Issue.record("expected passwordIncorrect, got \(String(describing: error))")
                return
            }
            #expect(!message.isEmpty)
            #expect(remaining == 4)
            #expect(await live.client.isSignedIn)
            #expect(!live.client.journal.records.contains { $0.path == "/auth/refresh" })
        }
    }

    @Test func withoutASessionTheClientSaysSignedOut() async throws {
        try await withLiveBackend(signIn: false) { live in
            #expect(await apiError { try await live.client.authMethods() } == .signedOut)
        }
    }

    /// Issue 29 item 1: a code the contract does not list, injected on a status the call lists, keeps its
    /// status, code and message.
    @Test func anInjectedUnlistedCodeKeepsItsStatusCodeAndMessage() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(
                FaultSettings(endpoints: [
                    .init(
                        path: "/auth/phone/request-otp", kind: .status, status: 409, code: "account_suspended",
                        message: "Suspended for review.", times: 1)
                ]))
            let send = { try await live.client.requestOtp(phone: "+995511222333", purpose: .addPhone) }
            let error = await apiError { try await send() }
            #expect(error == .server(status: 409, code: "account_suspended", message: "Suspended for review."))
            // Once: the next call reaches the rules (which want a re-auth first).
            #expect(await apiError { try await send() } != error)
        }
    }

    @Test func anUnknownServerErrorKeepsStatusAndMessage() async throws {
        try await withLiveBackend { live in
            try await live.client.adminSetFaults(
                FaultSettings(statuses: [PathFault(path: "/me/auth-methods", status: 418)]))
            let error = await apiError { try await live.client.authMethods() }
            guard case .server(418, _, let message) = error else {
                Issue.record("expected server(418), got \(String(describing: error))")
                return
            }
            #expect(!message.isEmpty)
        }
    }
}

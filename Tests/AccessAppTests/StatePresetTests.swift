import AccessAPI
import AccessAppTesting
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessApp

/// Issue 51 item 4: the palette's presets send what they say to the reference backend over real HTTP (counted in
/// its journal with the filters), leave the backend in the state they name, and the screen shows it as the app
/// shows the same answers.
@Suite struct StatePresetTests {
    /// A call's outcome as a value: the checks compare it without catching an error in a closure.
    static func answer<T: Sendable>(_ body: () async throws -> T) async -> Result<T, APIError> {
        do {
            return .success(try await body())
        } catch let failure as APIError {
            return .failure(failure)
        } catch {
            return .failure(.offline(reason: "\(type(of: error))"))
        }
    }

    /// The backend refuses the code for good: its fifth wrong try or its time is past.
    static func isDead(_ result: Result<VerifyOTPResult, APIError>) -> Bool {
        switch result {
        case .failure(.codeIncorrect(0, _)), .failure(.codeExpired): true
        default: false
        }
    }

    /// The palette opened, the preset's title typed, Enter.
    static func run(_ preset: StatePreset) -> String {
        "key C-p\ntype \(preset.title)\nkey Enter"
    }

    @Test func exhaustSendsFiveWrongCodesAndTheBackendKillsTheCode() async throws {
        try await LiveReplay.with { replay, client, _ in
            try await replay.send(.startAt("enter-code:empty"))
            let screen = try #require(replay.runtime.state.top.as(EnterCodeScreen.self))
            let request = try #require(screen.step.phoneRequest)
            let grant = try #require(replay.runtime.state.reauth)
            let right = try #require(try await client.newestLiveCode(to: request.phone))
            try await LiveReplay.play(
                """
                \(Self.run(.exhaustCode))
                expect-request POST /auth/phone/verify-otp 4xx times \(CodeRules.maxWrongAttempts)
                expect-request POST /auth/phone/verify-otp 2xx times 0
                expect "\(OnScreenMessage.codeWrongTooOften.text)"
                expect "\(CodeRules.maxWrongAttempts) wrong codes sent"
                """, on: &replay)
            #expect(replay.runtime.state.top.as(EnterCodeScreen.self)?.isDead == true)
            let after = await Self.answer {
                try await client.verifyOtp(requestId: request.requestId, code: right, reauthToken: grant.reauthToken)
            }
            #expect(Self.isDead(after))
        }
    }

    /// The other side: one wrong code fewer leaves the code alive, and the right one still changes the number.
    @Test func oneWrongCodeFewerLeavesTheCodeAlive() async throws {
        try await LiveReplay.with { replay, client, _ in
            try await replay.send(.startAt("enter-code:empty"))
            let state = replay.runtime.state
            let screen = try #require(state.top.as(EnterCodeScreen.self))
            let request = try #require(screen.step.phoneRequest)
            let verify = try #require(screen.verifyRequest(code: "", state.context))
            let fewer = ExhaustCode(
                verify: verify, destination: request.phone, attempts: CodeRules.maxWrongAttempts - 1)
            let outcome = try await fewer.perform(APIContext(client: client, cache: nil, now: state.now))
            #expect(outcome.replies.count == CodeRules.maxWrongAttempts - 1)
            guard case .verify(.failure(.codeIncorrect(let remaining, _))) = outcome.replies.last else {
                Issue.record(
                    "the last wrong code was not refused as wrong: \(String(describing: outcome.replies.last))")
                return
            }
            #expect(remaining == 1)
            let right = try #require(try await client.newestLiveCode(to: request.phone))
            let after = await Self.answer {
                try await client.verifyOtp(
                    requestId: request.requestId, code: right, reauthToken: state.reauth?.reauthToken)
            }
            #expect(after.map { $0.authMethods?.phone } == .success(request.phone))
        }
    }

    @Test func hitTheResendLimitResendsPastEachCooldownUntilThe429() async throws {
        try await LiveReplay.with { replay, _, _ in
            try await replay.send(.startAt("enter-code:empty"))
            try await LiveReplay.play(
                """
                \(Self.run(.hitResendLimit))
                expect-request POST /_admin/clock/advance 2xx times \(SendLimits.maxResendsPerWindow + 1)
                expect-request POST /auth/phone/resend-otp 2xx times \(SendLimits.maxResendsPerWindow)
                expect-request POST /auth/phone/resend-otp 429 times 1
                expect "Resend limit reached. Try again in"
                expect "\(SendLimits.maxResendsPerWindow) resends, then:"
                """, on: &replay)
            let screen = try #require(replay.runtime.state.top.as(EnterCodeScreen.self))
            #expect(screen.limit?.kind == .resendWindow)
            // The code on screen is the last resend's: the backend's newest live code is for its request.
            #expect(!screen.isExpired(replay.runtime.state.context))
        }
    }

    @Test func expireThisCodeMovesTheClockPastItsLifetime() async throws {
        try await LiveReplay.with { replay, client, _ in
            try await replay.send(.startAt("enter-code:empty"))
            let state = replay.runtime.state
            let screen = try #require(state.top.as(EnterCodeScreen.self))
            let request = try #require(screen.step.phoneRequest)
            let right = try #require(try await client.newestLiveCode(to: request.phone))
            try await LiveReplay.play(
                """
                \(Self.run(.expireCode))
                expect-request POST /_admin/clock/advance 2xx times 1
                expect "\(OnScreenMessage.codeExpired.text)"
                """, on: &replay)
            let after = await Self.answer {
                try await client.verifyOtp(
                    requestId: request.requestId, code: right, reauthToken: state.reauth?.reauthToken)
            }
            #expect(Self.isDead(after))
        }
    }

    @Test func closeTheReauthWindowAsksAgainOnTheNextSensitiveChange() async throws {
        try await LiveReplay.with { replay, client, _ in
            try await replay.send(.startAt("enter-phone:change"))
            let grant = try #require(replay.runtime.state.reauth)
            // The window is open: the grant sends a new number its code.
            let before = await Self.answer {
                try await client.requestOtp(
                    phone: PhoneGallery.freeNumber, purpose: .changePhone, reauthToken: grant.reauthToken)
            }
            #expect((try? before.get()) != nil)
            try await LiveReplay.play(
                """
                \(Self.run(.closeReauthWindow))
                expect-request POST /_admin/clock/advance 2xx times 1
                key Escape
                expect title "Account access"
                key Enter
                expect title "Verify it's you"
                """, on: &replay)
            let after = await Self.answer {
                try await client.requestOtp(
                    phone: PhoneGallery.freeNumber, purpose: .changePhone, reauthToken: grant.reauthToken)
            }
            guard case .failure(.reauthRequired) = after else {
                Issue.record("the closed window's grant was taken: \(after)")
                return
            }
        }
    }

    @Test func presetsAreOfferedOnlyWhereTheyMakeSense() throws {
        func offered(_ id: String) throws -> [StatePreset] {
            var state = try #require(Gallery.entry(id)).makeState(Gallery.sampleTime)
            state.options.hasReferenceBackend = true
            let titles = CommandPalette.commands(for: state).map(\.title)
            return StatePreset.allCases.filter { titles.contains($0.title) }
        }
        #expect(try offered("enter-code:empty") == [.exhaustCode, .hitResendLimit, .expireCode, .closeReauthWindow])
        // A dead code can still be sent again, not killed or expired.
        #expect(try offered("enter-code:expired") == [.hitResendLimit, .closeReauthWindow])
        #expect(try offered("hub:default") == [.closeReauthWindow])
        #expect(try offered("welcome:default") == [])
    }

    @Test func theWrongCodeDiffersFromTheRightOneInEveryDigit() {
        #expect(ExhaustCode.wrong("482915") == "593026")
        #expect(ExhaustCode.wrong("999999") == "000000")
    }
}

import AccessBackend
import AccessBackendTesting
import AccessConform
import AccessCore
import Foundation
import Testing

/// Issue 32: an answer that says nothing about a rule (a 5xx, a missing endpoint, a limit already used, no
/// answer at all) is "cannot tell", never "kept".
@Suite struct CannotTellTests {
    func fault(_ backend: TestBackend, _ json: String) async throws {
        let reply = try await backend.send(.POST, "/_admin/faults", raw: Data(json.utf8))
        #expect(reply.status == 200, "\(String(decoding: reply.data, as: UTF8.self))")
    }

    @Test func aServerErrorIsCannotTell() async throws {
        let rules = [
            "signin.code_incorrect", "rate_limit.cooldown /auth/sign-in/code",
            "rate_limit.cooldown /auth/sign-in/code/resend",
            "signin.challenge_unknown",
        ]
        let run = try await conform(Selection(only: rules)) { backend in
            try await fault(backend, #"{"statuses":[{"path":"/auth/sign-in/code","status":500}]}"#)
            try await fault(
                backend,
                #"{"statuses":[{"path":"/auth/sign-in/code","status":500},{"path":"/auth/sign-in/code/verify","status":503},{"path":"/auth/sign-in/code/resend","status":503}]}"#
            )
        }
        #expect(run.checked.count > rules.count)
        for result in run.checked {
            guard case .cannotTell(let why) = result.verdict else {
                Issue.record("\(result.name): \(result.verdict)")
                continue
            }
            #expect(why.contains("server error"), "\(result.name): \(why)")
        }
    }

    @Test func aMissingEndpointIsCannotTell() async throws {
        // The backend answers the refresh path as a server without it would: 404 not_found.
        let run = try await conform(Selection(only: ["session.refreshed", "link.unknown"])) { backend in
            try await fault(
                backend,
                #"{"endpoints":[{"path":"/auth/refresh","kind":"status","status":404,"code":"not_found"},{"path":"/auth/reauth/email/confirm","kind":"status","status":404,"code":"not_found"}]}"#
            )
        }
        for rule in [Rule.sessionRefreshed, .linkUnknown] {
            guard case .cannotTell(let why) = run.verdict(rule) else {
                Issue.record("\(rule.rawValue): \(String(describing: run.verdict(rule)))")
                continue
            }
            #expect(why.contains("endpoint may be missing"), "\(why)")
        }
    }

    @Test func aLimitAlreadyUsedIsCannotTell() async throws {
        // Every send refused as if the client's hourly cap were used up.
        let run = try await conform(Selection(only: ["signin.code_incorrect"])) { backend in
            try await fault(
                backend, #"{"endpoints":[{"path":"/auth/sign-in/code","kind":"status","status":429}]}"#)
        }
        guard case .cannotTell(let why) = run.verdict(.signInCodeIncorrect) else {
            Issue.record("\(String(describing: run.verdict(.signInCodeIncorrect)))")
            return
        }
        #expect(why.contains("429"))
    }

    @Test func noAnswerAtAllIsCannotTell() async throws {
        let http = ConformHTTP(baseURL: "http://127.0.0.1:1")
        let runner = ConformRunner(
            http: http, messages: TypedSource(isTerminal: false), reference: nil, settings: ConformSettings())
        let run = await runner.run(Selection(only: ["session.invalid", "http.not_found"]))
        await http.shutdown()
        #expect(run.checked.count == 1 + Rule.sessionInvalid.operations.count)
        for result in run.checked {
            guard case .cannotTell = result.verdict else {
                Issue.record("\(result.rule.rawValue): \(result.verdict)")
                continue
            }
        }
    }

    /// Another backend, no way to read codes, no --wait-long: skipped, saying why.
    @Test func checksThatNeedCodesOrLongWaitsAreSkippedSayingWhy() async throws {
        try await TestBackend.with { backend in
            let http = ConformHTTP(baseURL: backend.running.baseURL)
            // `reference: nil`: the runner takes it for another backend.
            let runner = ConformRunner(
                http: http, messages: TypedSource(isTerminal: false), reference: nil, settings: ConformSettings())
            let run = await runner.run(
                Selection(only: ["otp.expired", "signin.code_incorrect", "disconnect.last_method", "session.invalid"]))
            await http.shutdown()
            #expect(run.verdict(.otpExpired) == .skipped("needs --wait-long: 6 min"))
            guard case .skipped(let why) = run.verdict(.signInCodeIncorrect) else {
                Issue.record("\(String(describing: run.verdict(.signInCodeIncorrect)))")
                return
            }
            #expect(why.contains("--inbox"))
            guard case .skipped = run.verdict(.disconnectLastMethod) else {
                Issue.record("\(String(describing: run.verdict(.disconnectLastMethod)))")
                return
            }
            #expect(run.verdict(.sessionInvalid) == .kept)
        }
    }
}

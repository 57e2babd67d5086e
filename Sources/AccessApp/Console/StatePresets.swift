import AccessAPI
import AccessCore
import Foundation

/// The palette's presets for the states QA ask for most (issue 51 item 4). Each is a real sequence of requests
/// and clock moves on the reference backend, which its journal (F3) lists; each is offered only where it makes
/// sense; and the screen answers as it answers the same calls made by hand, from the backend's own answers.
public enum StatePreset: String, CaseIterable, Equatable, Sendable {
    case exhaustCode, hitResendLimit, expireCode, closeReauthWindow

    public var title: String {
        switch self {
        case .exhaustCode: "Exhaust this code (\(CodeRules.maxWrongAttempts) wrong)"
        case .hitResendLimit: "Hit the resend limit"
        case .expireCode: "Expire this code"
        case .closeReauthWindow: "Close the re-auth window"
        }
    }

    var detail: String {
        switch self {
        case .exhaustCode:
            "wrong codes to the verify route until the backend kills the code"
        case .hitResendLimit:
            "the clock past each \(RuleText.duration(SendLimits.cooldown, .short)) cooldown, resends until the 429"
        case .expireCode:
            "the backend's clock +\(RuleText.duration(CodeRules.lifetime, .short)), past the code's lifetime"
        case .closeReauthWindow:
            "the backend's clock +\(RuleText.duration(ReauthRules.window, .short)): the next sensitive change asks again"
        }
    }

    /// What the clock presets move the backend's clock by: from any moment after the code was sent (or the window
    /// opened), past its end.
    var clockMove: ClockMove? {
        switch self {
        case .expireCode: .by(seconds: CodeRules.lifetime)
        case .closeReauthWindow: .by(seconds: ReauthRules.window)
        case .exhaustCode, .hitResendLimit: nil
        }
    }

    /// The presets that make sense on `state`: a code's while its screen is on top (killing it or resending needs
    /// a texted code's request; expiring it, a code still alive), the window's while signed in.
    static func offered(_ state: AppState) -> [StatePreset] {
        let context = state.context
        var offered: [StatePreset] = []
        if let screen = state.top.as(EnterCodeScreen.self) {
            let alive = !screen.isExpired(context)
            if alive, screen.step.phoneRequest != nil { offered.append(.exhaustCode) }
            if screen.step.phoneRequest != nil { offered.append(.hitResendLimit) }
            if alive { offered.append(.expireCode) }
        }
        if context.isSignedIn { offered.append(.closeReauthWindow) }
        return offered
    }
}

/// What a code preset did, as the code screen's own replies: fed to it in order, they leave it where the same
/// calls made from its keys would.
public struct PresetOutcome: Equatable, Sendable {
    /// Where the code went: the screen the replies are for.
    var destination: String
    var replies: [EnterCodeScreen.Reply]
    /// The toast: what was sent, and how the last answer went.
    var summary: String
}

/// "Exhaust this code": the code on screen read from the outbox, then a code that differs from it in every
/// digit sent to the verify route, as the screen sends one, until the backend stops saying how many tries are
/// left (the fifth kills the code: `CodeRules.maxWrongAttempts`).
struct ExhaustCode: APIRequest {
    /// The screen's own verify call; its code is replaced by the wrong one.
    let verify: Endpoint.VerifyOtp
    let destination: String
    /// At most this many wrong codes; fewer when the code dies sooner (some were typed by hand).
    var attempts = CodeRules.maxWrongAttempts

    func perform(_ api: APIContext) async throws -> PresetOutcome {
        guard let right = try await api.client.newestLiveCode(to: destination) else {
            throw APIError.server(status: 0, code: "no_code", message: "the outbox has no live code to \(destination).")
        }
        var call = verify
        call.code = Self.wrong(right)
        var replies: [EnterCodeScreen.Reply] = []
        var last: APIError?
        for _ in 0..<attempts {
            do {
                replies.append(.verify(.success(try await call.perform(api))))
                last = nil
                break
            } catch let failure as APIError {
                replies.append(.verify(.failure(failure)))
                last = failure
                guard case .codeIncorrect(let remaining, _) = failure, remaining > 0 else { break }
            }
        }
        let answer: String
        switch last {
        case .codeIncorrect(let remaining, _)? where remaining > 0: answer = "\(remaining) tries left"
        case .codeIncorrect?, .codeExpired?: answer = "the backend killed the code"
        case let other?: answer = other.message
        case nil: answer = "the code was taken"
        }
        return PresetOutcome(
            destination: destination, replies: replies,
            summary: "\(replies.count) wrong code\(replies.count == 1 ? "" : "s") sent: \(answer)")
    }

    /// A code that differs from `code` in every digit.
    static func wrong(_ code: String) -> String {
        String(code.map { digit in digit.wholeNumberValue.map { Character(String(($0 + 1) % 10)) } ?? "0" })
    }
}

/// "Hit the resend limit": the backend's clock moved past each cooldown (`SendLimits.cooldown`), then a resend,
/// as Resend sends it, until the backend answers 429; one more than the window allows
/// (`SendLimits.maxResendsPerWindow`) is the most it sends.
struct HitResendLimit: APIRequest {
    let requestId: String
    let destination: String

    func perform(_ api: APIContext) async throws -> PresetOutcome {
        var current = requestId
        var replies: [EnterCodeScreen.Reply] = []
        var refusal: APIError?
        for _ in 0...SendLimits.maxResendsPerWindow {
            _ = try await api.client.adminAdvanceClock(seconds: SendLimits.cooldown)
            do {
                let accepted = try await Endpoint.ResendOtp(requestId: current).perform(api)
                replies.append(.resend(.success(accepted)))
                current = accepted.requestId
            } catch let failure as APIError {
                replies.append(.resend(.failure(failure)))
                refusal = failure
                break
            }
        }
        let resent = replies.count - (refusal == nil ? 0 : 1)
        let summary =
            refusal.map { "\(resent) resend\(resent == 1 ? "" : "s"), then: \($0.message)" }
            ?? "\(resent) resends and no limit: this backend did not answer 429"
        return PresetOutcome(destination: destination, replies: replies, summary: summary)
    }
}

/// Runs a preset chosen in the palette.
func runPreset(_ preset: StatePreset, in state: inout AppState) -> [Effect] {
    if let move = preset.clockMove { return reduceConsole(&state, .moveClock(move)) }
    let context = state.context
    guard let screen = state.top.as(EnterCodeScreen.self), let request = screen.step.phoneRequest,
        let verify = screen.verifyRequest(code: "", context)
    else {
        return apply([.showToast("\(preset.title): no texted code is on screen")], to: &state, for: nil)
    }
    let reply = { @Sendable (result: Result<PresetOutcome, APIError>) in ConsoleReply.presetDone(preset, result) }
    switch preset {
    case .exhaustCode:
        return state.send(Call(ExhaustCode(verify: verify, destination: request.phone), reply), for: .console)
    default:
        return state.send(
            Call(HitResendLimit(requestId: request.requestId, destination: request.phone), reply), for: .console)
    }
}

/// A code preset's answers, fed to the code screen they were for when it is still on top; the toast says what
/// was sent either way.
func receivePreset(
    _ preset: StatePreset, _ result: Result<PresetOutcome, APIError>, in state: inout AppState
)
    -> [Effect]
{
    guard case .success(let outcome) = result else {
        guard case .failure(let failure) = result else { return [] }
        return apply([.showToast("\(preset.title): \(failure.message)")], to: &state, for: nil)
    }
    let effects = feedCodeReplies(outcome.replies, toDestination: outcome.destination, in: &state)
    return effects + apply([.showToast(outcome.summary)], to: &state, for: nil)
}

/// Answers to calls made for the code screen on top (by a preset, or a `--start-at` walk), fed to it in order as
/// its own calls' answers are, while it is the screen for `destination`.
func feedCodeReplies(
    _ replies: [EnterCodeScreen.Reply], toDestination destination: String, in state: inout AppState
)
    -> [Effect]
{
    var effects: [Effect] = []
    for reply in replies {
        guard state.top.as(EnterCodeScreen.self)?.step.destination == destination else { break }
        let context = state.context
        let commands = state.top.update { screen -> [Command] in
            guard var code = screen as? EnterCodeScreen else { return [] }
            defer { screen = code }
            return code.receive(reply, context)
        }
        effects += apply(commands, to: &state, for: .screen(depth: state.stack.count - 1))
    }
    return effects
}

import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

private let start = Date(timeIntervalSince1970: 1_800_000_000)

/// Issue 51 item 3: faults typed as WireMock scripts them, in the palette and in tapes — a sequence with `then`,
/// one added to the faults set (`PATH then …`), jitter, dribble, malformed, reset — and the words that are not
/// one, said on the row instead of nothing.
@Suite struct FaultScriptTests {
    private typealias Fault = Components.Schemas.EndpointFault

    private func script(_ text: String) -> FaultScript? {
        if case .script(let script) = FaultScript.parse(text) { return script }
        return nil
    }

    @Test func aSequenceWithThenKeepsEveryStepInOrder() {
        let sequence = script("/me/auth-methods 429 x1 then 500 x2")
        #expect(
            sequence?.settings
                == FaultSettings(endpoints: [
                    Fault(path: "/me/auth-methods", kind: .status, status: 429, times: 1),
                    Fault(path: "/me/auth-methods", kind: .status, status: 500, times: 2),
                ]))
        #expect(sequence?.title == "status 429, once, then status 500, 2 times on /me/auth-methods")
    }

    /// The second `fault` of issue 51: starting with `then`, it is added after the faults set, not in their place.
    @Test func aLeadingThenAppendsToTheFaultsSet() {
        let appended = script("/me/auth-methods then 500 x2")
        #expect(
            appended?.settings
                == FaultSettings(appendEndpoints: [
                    Fault(path: "/me/auth-methods", kind: .status, status: 500, times: 2)
                ]))
        #expect(appended?.title == "then status 500, 2 times on /me/auth-methods")
    }

    @Test func theWireMockKindsReadAsTheirFaults() {
        #expect(
            script("* jitter 100-400 ms seed 7")?.settings
                == FaultSettings(endpoints: [
                    Fault(path: "*", kind: .jitter, latencyMs: 100, latencyMaxMs: 400, seed: 7)
                ]))
        #expect(
            script("/me jitter 0-50ms")?.steps == [FaultChoice(kind: .jitter, latencyMs: 0, latencyMaxMs: 50)])
        #expect(script("/me dribble 2000 ms x3")?.steps == [FaultChoice(kind: .dribble, times: 3, dribbleMs: 2000)])
        #expect(script("/me malformed cut")?.steps == [FaultChoice(kind: .malformed, malformed: .cut)])
        #expect(script("/me malformed wrong-type")?.steps == [FaultChoice(kind: .malformed, malformed: .wrongType)])
        #expect(script("/me malformed html")?.steps == [FaultChoice(kind: .malformed, malformed: .html)])
        #expect(script("/me reset x1")?.steps == [FaultChoice(kind: .reset, times: 1)])
        #expect(
            script("/me reset then latency 300 then 409 account_suspended")?.steps
                == [
                    FaultChoice(kind: .reset), FaultChoice(kind: .latency, latencyMs: 300),
                    FaultChoice(kind: .status, status: 409, code: "account_suspended"),
                ])
        #expect(script("/me malformed html")?.title == "malformed: HTML error page on /me")
        #expect(script("* jitter 100-400 ms seed 7")?.title == "100-400 ms jitter (seed 7) on every call")
    }

    @Test(arguments: [
        ("/me jitter 400-100 ms", "jitter takes MIN-MAX ms (MIN no larger, at most 30000) [seed N]"),
        ("/me jitter 100", "jitter takes MIN-MAX ms (MIN no larger, at most 30000) [seed N]"),
        ("/me jitter 1-2 seed x", "jitter takes MIN-MAX ms (MIN no larger, at most 30000) [seed N]"),
        ("/me dribble", "dribble takes MS ms, 1 to 30000"),
        ("/me dribble 0 ms", "dribble takes MS ms, 1 to 30000"),
        ("/me malformed", "malformed takes cut, wrong-type or html"),
        ("/me malformed xml", "malformed takes cut, wrong-type or html"),
        ("/me reset now", "reset takes nothing more"),
        ("/me 42", "a status is 400 to 599"),
        ("/me 500 x0", "xN takes 1 to 1000"),
        ("/me 500 then", "then needs a fault on each side"),
        ("/me 500 then then 429", "then needs a fault on each side"),
        ("/me jitte 1-2", "'jitte' is not a fault: " + FaultScript.kinds),
        ("/me 409 Not-A-Code", "an error code is lower-case letters, digits and _"),
    ])
    func badWordsSayWhatIsWrong(text: String, problem: String) {
        #expect(FaultScript.parse(text) == .problem(problem))
    }

    @Test func wordsWithoutAPathOrAFaultAreNotOneYet() {
        #expect(FaultScript.parse("") == .incomplete)
        #expect(FaultScript.parse("/me") == .incomplete)
        #expect(FaultScript.parse("503") == .incomplete)
    }

    // MARK: the palette

    private func typed(_ text: String) -> PaletteCommand? {
        let harness = ReducerHarness(AppState(now: start), exhaustivity: .off)
        harness.send(.input(.key(.control("p"))))
        for character in text { harness.send(.input(.key(.character(character)))) }
        return harness.state.overlay?.as(CommandPalette.self)?.selected
    }

    @Test func thePaletteSendsTheSequenceAndSaysIt() {
        let command = typed("fault /me/auth-methods 429 x1 then 500 x2")
        #expect(command?.title == "Fault: status 429, once, then status 500, 2 times on /me/auth-methods")
        #expect(
            command?.action
                == .setFaults(
                    FaultSettings(endpoints: [
                        Fault(path: "/me/auth-methods", kind: .status, status: 429, times: 1),
                        Fault(path: "/me/auth-methods", kind: .status, status: 500, times: 2),
                    ]), label: "Fault on: status 429, once, then status 500, 2 times on /me/auth-methods"))
        let appended = typed("fault /me/auth-methods then 500 x2")
        #expect(appended?.detail == "after the faults set, as typed")
        #expect(
            appended?.action
                == .setFaults(
                    FaultSettings(appendEndpoints: [
                        Fault(path: "/me/auth-methods", kind: .status, status: 500, times: 2)
                    ]),
                    label: "Fault on: then status 500, 2 times on /me/auth-methods"))
    }

    @Test func thePaletteSaysWhatIsWrongOnTheRow() {
        let command = typed("fault /me jitter 400-100 ms")
        #expect(command?.title == "Fault: jitter takes MIN-MAX ms (MIN no larger, at most 30000) [seed N]")
        #expect(command?.detail == "change what you typed")
        #expect(command?.action == PaletteAction.none)
    }

    // MARK: tapes

    @Test func aTapesFaultStepReadsAsThePalettesWords() throws {
        let tape = try Tape(parsing: "fault /me/auth-methods 429 x1 then 500 x2\nfault * malformed html")
        #expect(
            tape.steps.map(\.step) == [.fault("/me/auth-methods 429 x1 then 500 x2"), .fault("* malformed html")])
        #expect(tape.steps[0].step.caption(intoSecret: false) == "fault /me/auth-methods 429 x1 then 500 x2")
    }

    @Test(arguments: [
        ("fault /me dribble", "line 1: fault: dribble takes MS ms, 1 to 30000"),
        (
            "fault", "line 1: fault takes a path (or *) and a fault, such as fault /me/auth-methods 429 x1 then 500 x2"
        ),
        (
            "key Enter\nfault /me",
            "line 2: fault takes a path (or *) and a fault, such as fault /me/auth-methods 429 x1 then 500 x2"
        ),
    ])
    func aTapesBadFaultNamesTheLine(text: String, message: String) {
        do {
            _ = try Tape(parsing: text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect("\(error)" == message)
        }
    }
}

import AccessAPI
import AccessAppTesting
import Foundation
import Testing

@testable import AccessApp

/// Issue 48 item 7: a cold `accessdeck open-link` of an email-change link was sometimes never applied. The
/// start lands on its screen by replacing the stack (a stored session's check, the QA sign-in that comes after
/// the first frame); a link opened before that lost its screens, and the answer to `POST /auth/links/inspect`
/// or the verify it led to went to nobody. Here the link is opened at every point of each start, and the
/// inspection answered at every point after it: it always ends verifying.
@Suite struct LinkDuringStartTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let token = "lk_AbCdEfGhIjKlMnOpQrStUv"
    var link: String { "http://127.0.0.1:8080/verify-email?token=\(token)" }

    /// One thing that happens during a start.
    enum Step: CustomStringConvertible, Sendable {
        /// An action the runtime sends.
        case send(Action)
        /// The backend answers the oldest request of this kind still open (nothing when none is).
        case answer(Answered)

        var description: String {
            switch self {
            case .send(let action): "\(action)"
            case .answer(let answered): "answer \(answered)"
            }
        }
    }

    /// The requests the backend answers in these starts.
    enum Answered: Sendable {
        case sessionCheck, inspection

        var type: any APIRequest.Type { self == .sessionCheck ? CheckSession.self : Endpoint.InspectLink.self }
    }

    /// A start as the runtime does it: its first state and its steps, in order.
    struct Start: CustomStringConvertible, Sendable {
        var name: String
        var state: AppState
        var steps: [Step]
        var description: String { name }
    }

    static let user = CurrentUser(userId: "usr_athlete", deviceId: "dvc_1", authMethods: SampleData.everyMethod)

    static var starts: [Start] {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let opening: [Step] = [.send(.input(.resize(.standard))), .send(.started), .send(.watchAdmin)]
        // `--backend URL --qa-sign-in`, nothing stored: Welcome, then the QA sign-in after the first frame.
        var welcome = AppState(root: WelcomeScreen(), now: now)
        welcome.identifying = true
        // A stored session on a declared reference backend: its check, and the look that finds it signed in.
        var stored = AppState(root: SessionCheckScreen(), now: now)
        stored.identifying = true
        // A stored session on another backend: its check alone.
        var foreign = AppState(root: SessionCheckScreen(), now: now)
        foreign.options.hasReferenceBackend = false
        return [
            Start(
                name: "QA sign-in", state: welcome,
                steps: opening + [.send(.qaSignedIn(SampleData.everyMethod)), .send(.identified)]),
            Start(
                name: "stored session", state: stored, steps: opening + [.answer(.sessionCheck), .send(.identified)]),
            Start(name: "another backend", state: foreign, steps: opening + [.answer(.sessionCheck)]),
        ]
    }

    /// Runs `steps` on a harness, answering requests as the backend would; every request sent, in order.
    final class Run {
        let harness: ReducerHarness
        var open: [(id: RequestID, request: AnyRequest)] = []
        var sent: [AnyRequest] = []
        let token: String
        let now: Date

        init(_ state: AppState, token: String) {
            harness = ReducerHarness(state, exhaustivity: .off)
            self.token = token
            now = state.now
        }

        func note(_ effects: [Effect]) {
            for case .request(let request, let id) in effects {
                open.append((id, request))
                sent.append(request)
            }
        }

        func run(_ step: Step) {
            switch step {
            case .send(let action):
                note(harness.send(action))
            case .answer(let answered):
                guard let index = open.firstIndex(where: { Swift.type(of: $0.request.base) == answered.type }) else {
                    return
                }
                let (id, _) = open.remove(at: index)
                note(harness.send(answer(answered, id)))
            }
        }

        func answer(_ answered: Answered, _ id: RequestID) -> Action {
            if answered == .sessionCheck { return .reply(LinkDuringStartTests.user, to: id) }
            let live = LinkInfo(kind: .init(.emailChange), state: .init(.live), expiresAt: now + 1800)
            return .reply(live, to: id)
        }
    }

    @Test(arguments: starts) func aLinkOpenedAtAnyPointOfTheStartIsVerified(start: Start) {
        let count = start.steps.count
        for opened in 0...count {
            for inspected in opened...count {
                var steps = start.steps
                steps.insert(.answer(.inspection), at: inspected)
                steps.insert(.send(.openLink(link)), at: opened)
                let run = Run(start.state, token: token)
                for step in steps { run.run(step) }
                // Whatever was still open: the inspection (the start had to settle first).
                run.run(.answer(.inspection))
                let walk = "\(start.name): \(steps)"
                #expect(run.sent.contains(AnyRequest(VerifyEmailLink(token: token))), "\(walk)")
                #expect(run.harness.state.top.as(VerifyingLinkScreen.self)?.token == token, "\(walk)")
                #expect(
                    run.harness.state.awaits(
                        VerifyEmailLink.self, for: .screen(depth: run.harness.state.stack.count - 1)), "\(walk)")
                #expect(run.harness.state.stack.first.map { AppRoutes.isSignedOut($0) } == false, "\(walk)")
                #expect(run.harness.state.heldLinks.isEmpty, "\(walk)")
                #expect(run.harness.state.defects.isEmpty, "\(walk)")
            }
        }
    }

    /// While the start has not settled, a link waits: nothing is asked about it yet, nothing on screen moves.
    @Test func aLinkWaitsWhileTheStartSettles() {
        var state = AppState(root: WelcomeScreen(), now: start)
        state.identifying = true
        let harness = ReducerHarness(state, exhaustivity: .off)
        #expect(harness.send(.openLink(link)).isEmpty)
        #expect(harness.state.heldLinks == [link])
        #expect(harness.state.stack.map(\.id) == ["welcome"])
        // The look at the backend found nobody to sign in: the link opens on Welcome.
        let effects = harness.send(.identified)
        #expect(effects.contains(.request(Endpoint.InspectLink(token: token), id: 1)))
        #expect(harness.state.top.as(CheckingLinkScreen.self) == CheckingLinkScreen(token: Secret(token)))
        #expect(harness.state.heldLinks.isEmpty)
    }
}

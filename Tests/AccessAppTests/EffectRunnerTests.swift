import AccessAPI
import AccessAppTesting
import Foundation
import TerminalKit
import Testing

@testable import AccessApp

/// A value shared with the runner's tasks.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}

/// What the runner sent back, in order, and a way to wait for the next one without sleeping.
private final class Inbox: Sendable {
    private let stream: AsyncStream<Action>
    private let continuation: AsyncStream<Action>.Continuation
    private let all = Locked<[Action]>([])

    init() { (stream, continuation) = AsyncStream.makeStream() }

    var send: @Sendable (Action) -> Void {
        { [all, continuation] action in
            all.withLock { $0.append(action) }
            continuation.yield(action)
        }
    }

    var received: [Action] { all.withLock { $0 } }

    func next() async -> Action? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A backend stand-in that holds every request until the test lets it answer.
private final class GatedPerformer: RequestPerforming {
    private let gates = Locked<[CheckedContinuation<Void, Never>]>([])
    let signedOut = Locked(false)

    var waiting: Int { gates.withLock { $0.count } }

    func perform(_ request: AnyRequest, now: Date) async -> Result<Answer, APIError> {
        await withCheckedContinuation { continuation in gates.withLock { $0.append(continuation) } }
        return .success(Answer(Acknowledged()))
    }

    func release() {
        let first = gates.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        first?.resume()
    }

    func signOutLocally() async { signedOut.withLock { $0 = true } }
}

private final class NoServices: SystemServices {
    let copied = Locked<[String]>([])
    let saved = Locked<[String]>([])
    func copyToClipboard(_ text: String) { copied.withLock { $0.append(text) } }
    func open(_ url: URL, failed: @escaping @Sendable () -> Void) {}
    func saveExport(_ text: String, named name: String) -> Result<String, ExportFailure> {
        saved.withLock { $0.append(name) }
        return .success(name)
    }
}

/// An opener with nothing to open anything with (no xdg-open, no browser, no mail client).
private final class FailingOpener: SystemServices {
    func copyToClipboard(_ text: String) {}
    func open(_ url: URL, failed: @escaping @Sendable () -> Void) { failed() }
    func saveExport(_ text: String, named name: String) -> Result<String, ExportFailure> { .success(name) }
}

/// Waits (yielding, never sleeping) until `condition` holds.
private func eventually(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
}

/// The effect runner on a manual clock: timers fire when the clock passes them, a timer with the same id
/// replaces the one before, a cancelled one never fires, requests are counted until their reply is handled.
@Suite struct EffectRunnerTests {
    @Test func aTimerFiresOnceTheClockPassesIt() async {
        let clock = ManualClock()
        let inbox = Inbox()
        let runner = EffectRunner(clock: clock, services: NoServices(), performer: nil, send: inbox.send)
        runner.run(.after(seconds: 5, action: .toastExpired, id: .toast))
        await eventually { clock.pendingSleepers == 1 }
        clock.advance(by: 4)
        #expect(clock.pendingSleepers == 1)
        #expect(inbox.received.isEmpty)
        clock.advance(by: 1)
        #expect(await inbox.next() == .toastExpired)
    }

    /// Issue 29 §3: QA froze the backend's clock (so the app's), then a refusal ended; the probe waited on the
    /// frozen clock and "You're offline" stayed until `r`. Waits for the backend run on their own clock.
    @Test func aWaitForTheBackendRunsWhileTheAppClockIsFrozen() async {
        let frozen = ManualClock()
        let real = ManualClock()
        let inbox = Inbox()
        let runner = EffectRunner(
            clock: frozen, backendWaitClock: real, services: NoServices(), performer: nil, send: inbox.send)
        runner.run(.after(seconds: 1, action: .probe, id: .probe))
        runner.run(.after(seconds: 1, action: .toastExpired, id: .toast))
        await eventually { real.pendingSleepers == 1 && frozen.pendingSleepers == 1 }
        real.advance(by: 1)
        #expect(await inbox.next() == .probe)
        // A countdown on screen stays on the app clock: frozen, it does not move.
        #expect(frozen.pendingSleepers == 1)
        #expect(inbox.received == [.probe])
        runner.cancelAll()
    }

    @Test func aTimerWithTheSameIdReplacesTheOneBefore() async {
        let clock = ManualClock()
        let inbox = Inbox()
        let runner = EffectRunner(clock: clock, services: NoServices(), performer: nil, send: inbox.send)
        runner.run(.after(seconds: 5, action: .toastExpired, id: .debounce))
        await eventually { clock.pendingSleepers == 1 }
        runner.run(.after(seconds: 5, action: .tick, id: .debounce))
        // The first one's sleep was cancelled; only the second waits.
        await eventually { clock.pendingSleepers == 1 }
        runner.run(.after(seconds: 10, action: .started, id: .clock))
        await eventually { clock.pendingSleepers == 2 }
        // One step per timer: two timers woken by one advance race each other to the inbox.
        clock.advance(by: 5)
        #expect(await inbox.next() == .tick)
        clock.advance(by: 5)
        #expect(await inbox.next() == .started)
        #expect(inbox.received == [.tick, .started])
    }

    /// Issue 28 items 9 and 13: an opener that finds nothing to open the URL with comes back as an action.
    @Test func anOpenerThatFailsIsReported() async throws {
        let inbox = Inbox()
        let runner = EffectRunner(clock: ManualClock(), services: FailingOpener(), performer: nil, send: inbox.send)
        let url = try #require(URL(string: "https://321.fit/terms"))
        runner.run(.open(url))
        #expect(await inbox.next() == .openFailed(url))
    }

    @Test func aCancelledTimerNeverFires() async {
        let clock = ManualClock()
        let inbox = Inbox()
        let runner = EffectRunner(clock: clock, services: NoServices(), performer: nil, send: inbox.send)
        runner.run(.after(seconds: 5, action: .toastExpired, id: .toast))
        await eventually { clock.pendingSleepers == 1 }
        runner.run(.cancel(.toast))
        #expect(clock.pendingSleepers == 0)
        runner.run(.after(seconds: 10, action: .tick, id: .clock))
        await eventually { clock.pendingSleepers == 1 }
        clock.advance(by: 10)
        #expect(await inbox.next() == .tick)
        #expect(inbox.received == [.tick])
    }

    @Test func cancelAllStopsEveryTimer() async {
        let clock = ManualClock()
        let inbox = Inbox()
        let runner = EffectRunner(clock: clock, services: NoServices(), performer: nil, send: inbox.send)
        runner.run(.after(seconds: 1, action: .tick, id: .clock))
        runner.run(.after(seconds: 1, action: .toastExpired, id: .toast))
        await eventually { clock.pendingSleepers == 2 }
        runner.cancelAll()
        #expect(clock.pendingSleepers == 0)
    }

    @Test func aRequestCountsAsInFlightUntilItsReplyIsHandled() async {
        let performer = GatedPerformer()
        let inbox = Inbox()
        let runner = EffectRunner(clock: ManualClock(), services: NoServices(), performer: performer, send: inbox.send)
        runner.run(.request(AnyRequest(LoadAuthMethods()), id: RequestID(7)))
        #expect(runner.requestsInFlight == 1)
        await eventually { performer.waiting == 1 }
        #expect(runner.requestsInFlight == 1)
        performer.release()
        #expect(await inbox.next() == .response(RequestID(7), .success(Answer(Acknowledged()))))
        await eventually { runner.requestsInFlight == 0 }
    }

    @Test func withoutABackendARequestIsAnsweredOffline() async {
        let inbox = Inbox()
        let runner = EffectRunner(clock: ManualClock(), services: NoServices(), performer: nil, send: inbox.send)
        runner.run(.request(AnyRequest(LoadAuthMethods()), id: RequestID(1)))
        #expect(await inbox.next() == .response(RequestID(1), .failure(.offline(reason: "no backend"))))
    }

    @Test func copyAndSignOutGoWhereTheyBelong() async {
        let services = NoServices()
        let performer = GatedPerformer()
        let runner = EffectRunner(clock: ManualClock(), services: services, performer: performer, send: { _ in })
        runner.run(.copy("curl …"))
        #expect(services.copied.withLock { $0 } == ["curl …"])
        runner.run(.signOutLocally)
        await eventually { performer.signedOut.withLock { $0 } }
    }
}

/// The store: every action through `reduce` at the clock's time, the effects to the runner, quit noted.
@Suite struct StoreTests {
    @Test func anActionIsReducedAtTheClocksTimeAndItsEffectsRun() async {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_800_000_000))
        let changes = Locked(0)
        let store = Store(
            state: AppState(now: .distantPast), clock: clock, services: NoServices(), performer: nil,
            onChange: { changes.withLock { $0 += 1 } })
        store.send(.input(.key(.enter)))
        #expect(store.state.now == clock.now())
        #expect(store.state.stack.count == 2)
        #expect(changes.withLock { $0 } == 1)
        // The hub asked for the methods; without a backend the answer is offline, and it comes back.
        await eventually { store.requestsInFlight == 0 && store.state.pending.isEmpty }
        #expect(store.state.isOffline)
        #expect(!store.isQuitting)
        store.send(.input(.key(.control("c"))))
        #expect(store.isQuitting)
        store.stop()
    }

    /// The palette's export: the store renders the screen, the services write it, a toast names the file.
    @Test func anExportIsWrittenAndAnswered() throws {
        let services = NoServices()
        var state = AppState(now: Date(timeIntervalSince1970: 1_800_000_000))
        state.options.hasReferenceBackend = false
        let store = Store(state: state, clock: ManualClock(), services: services, performer: nil)
        store.send(.input(.key(.control("p"))))
        for character in "export this screen as text" { store.send(.input(.key(.character(character)))) }
        store.send(.input(.key(.enter)))
        let saved = try #require(services.saved.withLock { $0 }.first)
        #expect(saved.hasPrefix("accessdeck-settings-") && saved.hasSuffix(".txt"))
        #expect(store.state.toast?.message == "Saved \(saved)")
        store.stop()
    }
}

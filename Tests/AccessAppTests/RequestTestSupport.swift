import AccessAPI
import Foundation

@testable import AccessApp

/// Request ids in reducer tests: the reducer mints 1, 2, … from `AppState.nextRequestID`; a
/// request already in flight when a test begins has id 0.
extension RequestID {
    static let inFlight = RequestID(0)
}

extension AnyScreen {
    /// This screen, waiting for the request that was in flight when the test began.
    func waiting(_ tag: String = "") -> AnyScreen {
        var screen = self
        screen.awaiting[.inFlight] = tag
        return screen
    }
}

extension AppState {
    /// The top screen sent request `id` (minted by the reducer) and now waits for it.
    mutating func topAwaits(_ id: Int, _ tag: String = "") {
        top.awaiting[RequestID(id)] = tag
        nextRequestID = id + 1
    }

    /// The reply to `id` arrived, so no screen waits for it any more.
    mutating func answered(_ id: RequestID = .inFlight) {
        for index in stack.indices { stack[index].awaiting[id] = nil }
    }
}

extension Effect {
    static func request(_ request: some APIRequest, id: Int) -> Effect {
        .request(AnyRequest(request), id: RequestID(id))
    }
}

extension Action {
    /// A successful reply to request `id`.
    static func reply(_ value: some Equatable & Sendable, to id: RequestID = .inFlight) -> Action {
        .response(id, .success(AnyValue(value)))
    }

    static func failure(_ error: APIError, to id: RequestID = .inFlight) -> Action { .response(id, .failure(error)) }
}

extension AppState {
    /// This state, its top screen waiting for the request in flight when the test begins.
    func topWaiting(_ tag: String = "") -> AppState {
        var state = self
        state.top = state.top.waiting(tag)
        return state
    }
}

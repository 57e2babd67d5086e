import AccessAPI
import AccessApp
import Foundation

// The ledger (`AppState.pending`) and replies in reducer tests.

extension RequestID {
    /// The reducer mints ids 1, 2, … from `AppState.nextRequestID`; a request already in flight when a
    /// test begins has id 0.
    public static let inFlight = RequestID(0)
}

/// A request that stands for any request of reply type `Reply` in an expected ledger entry: the ledger
/// compares who waits and for which reply case, not the request (the effect shows that).
public struct AnyRequestOf<Reply: Equatable & Sendable>: APIRequest {
    public init() {}
    public func perform(_ api: APIContext) async throws -> Reply {
        throw APIError.offline(reason: "never performed")
    }
}

extension PendingCall {
    /// Someone waits for the reply case `reply`.
    public static func waiting<Value: Equatable & Sendable, Reply: Equatable & Sendable>(
        _ owner: CallOwner, _ reply: @escaping @Sendable (Result<Value, APIError>) -> Reply
    ) -> PendingCall {
        PendingCall(owner, Call(AnyRequestOf<Value>(), reply))
    }
}

extension AppState {
    /// The top screen sent request `id` and waits for its reply as the case `reply`.
    public mutating func topAwaits<Value: Equatable & Sendable, Reply: Equatable & Sendable>(
        _ id: Int, _ reply: @escaping @Sendable (Result<Value, APIError>) -> Reply
    ) {
        pending[RequestID(id)] = .waiting(.screen(depth: stack.count - 1), reply)
        nextRequestID = id + 1
    }

    /// The reply to `id` arrived, so nobody waits for it any more.
    public mutating func answered(_ id: RequestID = .inFlight) {
        pending[id] = nil
    }

    /// This state, its top screen waiting for the request in flight as the reply case `reply`.
    public func topWaiting<Value: Equatable & Sendable, Reply: Equatable & Sendable>(
        _ reply: @escaping @Sendable (Result<Value, APIError>) -> Reply
    ) -> AppState {
        var state = self
        state.pending[.inFlight] = .waiting(.screen(depth: stack.count - 1), reply)
        return state
    }
}

extension Effect {
    /// The effect of a call the reducer gave id `id`.
    public static func request(_ request: some APIRequest, id: Int) -> Effect {
        .request(AnyRequest(request), id: RequestID(id))
    }
}

extension Action {
    /// A successful reply to request `id`.
    public static func reply(_ value: some Equatable & Sendable, to id: RequestID = .inFlight) -> Action {
        .response(id, .success(AnyValue(value)))
    }

    /// A failed reply to request `id`.
    public static func failure(_ error: APIError, to id: RequestID = .inFlight) -> Action {
        .response(id, .failure(error))
    }
}

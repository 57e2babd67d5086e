import AccessAPI
import AccessApp
import Foundation

// The ledger (`AppState.pending`) and replies in reducer tests.

extension RequestID {
    /// The reducer mints ids 1, 2, … from `AppState.nextRequestID`; a request already in flight when a
    /// test begins has id 0.
    public static let inFlight = RequestID(0)
}

extension AppState {
    /// The entry of `owner` waiting for the answer of a request of this type, as this state has it: the
    /// ledger compares who waits and for which call (`CallKey`), not the request's values (the effect
    /// shows those).
    public func waiting(_ owner: CallOwner, _ request: any APIRequest.Type) -> PendingCall {
        PendingCall(owner, awaiting: request, in: self)
    }

    /// The entry of `owner` waiting for the answer of a `Request` as the reply case `reply`, for a state a test
    /// starts from: a reply to it is delivered there.
    public func waiting<Request: APIRequest, Reply: Equatable & Sendable>(
        _ owner: CallOwner, _ request: Request.Type,
        _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) -> PendingCall {
        PendingCall(owner, awaiting: request, reply)
    }

    /// The top screen sent request `id`, of this type, and waits for its answer.
    public mutating func topAwaits(_ id: Int, _ request: any APIRequest.Type) {
        pending[RequestID(id)] = waiting(.screen(depth: stack.count - 1), request)
        nextRequestID = id + 1
    }

    /// The reply to `id` arrived, so nobody waits for it any more.
    public mutating func answered(_ id: RequestID = .inFlight) {
        pending[id] = nil
    }

    /// This state, its top screen waiting for the request in flight, a `Request`, as the reply case `reply`.
    public func topWaiting<Request: APIRequest, Reply: Equatable & Sendable>(
        _ request: Request.Type, _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) -> AppState {
        var state = self
        state.pending[.inFlight] = waiting(.screen(depth: stack.count - 1), request, reply)
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
        .response(id, .success(Answer(value)))
    }

    /// A failed reply to request `id`.
    public static func failure(_ error: APIError, to id: RequestID = .inFlight) -> Action {
        .response(id, .failure(error))
    }
}

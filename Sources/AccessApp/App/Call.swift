import AccessAPI
import Foundation

/// One backend call and where its reply goes: the request, and the case of the asking model's `Reply`
/// its typed result is wrapped in. `Call(Endpoint.VerifyOtp(…), Reply.verify)` only compiles when the
/// case holds `Result<VerifyOTPResult, APIError>`, the request's `Reply`, so a screen never casts a reply.
public struct Call: Equatable, Sendable, CustomReflectable {
    public let request: AnyRequest
    /// What the call is, for comparisons, the ledger and dumps: the request's type and the reply type
    /// that reads its answer.
    public let key: CallKey
    /// How long its owner waits, on the app clock: then the reply is "no answer" (offline), whatever
    /// the client's own time-outs, and the real one, if it comes, finds nobody waiting. nil: as long as
    /// the client waits.
    public private(set) var deadline: TimeInterval?
    /// The answer as the asking model's reply; nil when it is not the request's reply type (a test's typo).
    private let wrap: @Sendable (Result<Answer, APIError>) -> (any Equatable & Sendable)?

    public init<Request: APIRequest, Reply: Equatable & Sendable>(
        _ request: Request, _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) {
        self.init(AnyRequest(request), key: CallKey(Request.self, Reply.self), reply)
    }

    /// A call as a test's ledger expects it (`PendingCall.init(_:awaiting:in:)`): only its key, carried by a
    /// request that is never performed, and answered to nobody.
    fileprivate init(standingFor key: CallKey) {
        request = AnyRequest(NeverPerformed())
        self.key = key
        wrap = { _ in nil }
    }

    /// The same, answered as `reply`: for a test's starting state, where the answer is delivered.
    fileprivate init<Request: APIRequest, Reply: Equatable & Sendable>(
        standingFor request: Request.Type, _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) {
        self.init(AnyRequest(NeverPerformed()), key: CallKey(request, Reply.self), reply)
    }

    private init<Value: Equatable & Sendable, Reply: Equatable & Sendable>(
        _ request: AnyRequest, key: CallKey, _ reply: @escaping @Sendable (Result<Value, APIError>) -> Reply
    ) {
        self.request = request
        self.key = key
        wrap = { result in
            switch result {
            case .failure(let error): return reply(.failure(error))
            case .success(let answer):
                // The runner performed the request, so its answer is the request's reply; anything else (a
                // test's typo) is refused here and recorded as a defect by the reducer.
                guard let typed = answer.value as? Value else { return nil }
                return reply(.success(typed))
            }
        }
    }

    /// The same call, given up after `seconds` on the app clock (seed 002: the session check takes
    /// under 2 s).
    public func within(seconds: TimeInterval) -> Call {
        var call = self
        call.deadline = seconds
        return call
    }

    /// The reason of the "no answer" a call's deadline delivers.
    public static let deadlineReason = "no answer in time"

    /// A request whose reply nobody waits for.
    init(ignoringReply request: AnyRequest) {
        self.request = request
        key = CallKey(request.requestType, NoReply.self)
        wrap = { _ in nil }
    }

    /// The answer as the asking model's reply, `Owner` being that model's `Reply` type: the one place an
    /// answer is read back. nil when the answer is not the request's reply type, or `Owner` is not the type
    /// the call was made with (defects, which the reducer records).
    func reply<Owner>(to result: Result<Answer, APIError>, as owner: Owner.Type) -> Owner? {
        wrap(result) as? Owner
    }

    /// Whether `result` is an answer to this call's request (a failure, or its reply type).
    func accepts(_ result: Result<Answer, APIError>) -> Bool { wrap(result) != nil }

    /// Whether the call says anything about the backend being there (reading the app's own journal
    /// does not).
    var reachesBackend: Bool { request.reachesBackend }

    public static func == (lhs: Call, rhs: Call) -> Bool {
        lhs.request == rhs.request && lhs.key == rhs.key && lhs.deadline == rhs.deadline
    }

    public var customMirror: Mirror { Mirror(self, children: ["key": key, "request": request]) }
}

/// What a call is: the request's type and the type of the reply that reads its answer, both named where
/// the call is made (`.call(Endpoint.AdminListWorlds(), ConsoleReply.worlds)` is `AdminListWorlds → ConsoleReply`). The console
/// asks whether it waits for a request by its type (`AppState.awaits`), never by a name. Two cases of one
/// reply type fed by requests of one type would share a key; no model has such a pair.
public struct CallKey: Hashable, Sendable, CustomStringConvertible {
    private let request: ObjectIdentifier
    private let reply: ObjectIdentifier
    public let description: String

    public init(_ request: any APIRequest.Type, _ reply: Any.Type) {
        self.request = ObjectIdentifier(request)
        self.reply = ObjectIdentifier(reply)
        description = "\(request) → \(reply)"
    }

    /// Whether the call asks a request of this type.
    public func asks(_ type: any APIRequest.Type) -> Bool { request == ObjectIdentifier(type) }

    public static func == (lhs: CallKey, rhs: CallKey) -> Bool { lhs.request == rhs.request && lhs.reply == rhs.reply }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(request)
        hasher.combine(reply)
    }
}

/// The request of a ledger entry a test expects: only the key matters, it is never performed.
private struct NeverPerformed: APIRequest {
    func perform(_ api: APIContext) async throws -> Acknowledged { throw APIError.offline(reason: "never performed") }
}

/// The reply type of a model that makes no calls.
public enum NoReply: Equatable, Sendable {}

/// Who waits for a reply: a screen on the stack (by its depth, the root being 0), the overlay shown,
/// the QA console, or the app itself (the probe that finds the backend back, Reduce+Probe).
public enum CallOwner: Hashable, Sendable {
    case screen(depth: Int)
    case overlay
    case console
    case app
}

/// A request in flight and who waits for it. The reducer mints every id in one place
/// (`AppState.send`); leaving a screen or closing an overlay forgets what it waited for, and a reply
/// nobody waits for changes nothing.
public struct PendingCall: Equatable, Sendable, CustomReflectable {
    public var owner: CallOwner
    public var call: Call

    public init(_ owner: CallOwner, _ call: Call) {
        self.owner = owner
        self.call = call
    }

    /// A ledger entry as a test expects it in `state`: `owner` waits for the answer of a request of this type,
    /// read by the owner's reply type there (a screen's or the overlay's `Reply`, the console's, the probe's).
    public init(_ owner: CallOwner, awaiting request: any APIRequest.Type, in state: AppState) {
        let reply: Any.Type =
            switch owner {
            case .screen(let depth):
                state.stack.indices.contains(depth) ? state.stack[depth].base.replyType : NoReply.self
            case .overlay: state.overlay?.base.replyType ?? NoReply.self
            case .console: ConsoleReply.self
            case .app: ProbeReply.self
            }
        self.init(owner, Call(standingFor: CallKey(request, reply)))
    }

    /// A ledger entry a test starts from: `owner` waits for the answer of a `Request` as the reply case
    /// `reply`, where a reply to it is delivered.
    public init<Request: APIRequest, Reply: Equatable & Sendable>(
        _ owner: CallOwner, awaiting request: Request.Type,
        _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) {
        self.init(owner, Call(standingFor: request, reply))
    }

    public var customMirror: Mirror { Mirror(self, children: ["owner": owner, "call": call.key]) }

    /// Who waits, and for which call (its key); the request itself is the effect's business.
    public static func == (lhs: PendingCall, rhs: PendingCall) -> Bool {
        lhs.owner == rhs.owner && lhs.call.key == rhs.call.key
    }
}

extension AppState {
    /// Mints the request's id, notes who waits for it (nobody: its reply is dropped) and returns the
    /// effect that runs it. The only place ids are minted.
    mutating func send(_ call: Call, for owner: CallOwner?) -> [Effect] {
        let id = RequestID(nextRequestID)
        nextRequestID += 1
        guard let owner else { return [.request(call.request, id: id)] }
        pending[id] = PendingCall(owner, call)
        guard let deadline = call.deadline else { return [.request(call.request, id: id)] }
        let noAnswer = Action.response(id, .failure(.offline(reason: Call.deadlineReason)))
        return [.request(call.request, id: id), .after(seconds: deadline, action: noAnswer, id: .deadline(id))]
    }

    /// Forgets the calls of the screens at `depth` and above (they left the stack, or were replaced).
    mutating func forgetCalls(ofScreensFrom depth: Int) {
        pending = pending.filter { _, pending in
            guard case .screen(let owner) = pending.owner else { return true }
            return owner < depth
        }
    }

    /// A scenario or world switch has landed: an answer to what the old world's screens, panels or the offline
    /// probe asked changes nothing any more (issue 48 item 1: the switch wins over every call in flight; an old
    /// probe's session check brought the old user's data back). Not before the switch lands: a refused switch
    /// leaves the app in the old world, still waiting for them. The console's own calls ask the server, not
    /// the world shown, and stay.
    mutating func forgetTheOldWorld() {
        pending = pending.filter { $0.value.owner == .console }
    }

    /// Forgets what the overlay waited for (it was closed or replaced).
    mutating func forgetOverlayCalls() {
        pending = pending.filter { $0.value.owner != .overlay }
    }

    /// Whether `owner` waits for the answer of a request of this type.
    func awaits(_ request: any APIRequest.Type, for owner: CallOwner) -> Bool {
        pending.values.contains { $0.owner == owner && $0.call.key.asks(request) }
    }

    /// Forgets what `owner` waits for from requests of this type: their answers will change nothing.
    mutating func forget(_ request: any APIRequest.Type, for owner: CallOwner) {
        pending = pending.filter { !($0.value.owner == owner && $0.value.call.key.asks(request)) }
    }
}

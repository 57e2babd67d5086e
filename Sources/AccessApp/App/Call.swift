import AccessAPI
import Foundation

/// One backend call and where its reply goes: the request, and the case of the asking model's `Reply`
/// its typed result is wrapped in. `Call(VerifyPhoneOTP(…), Reply.verify)` only compiles when the
/// case holds `Result<VerifyPhoneOTP.Reply, APIError>`, so a screen never casts a reply.
public struct Call: Equatable, Sendable, CustomReflectable {
    public let request: AnyRequest
    /// The case's name ("verify"): what dumps show and comparisons use, as the wrapping cannot be compared.
    public let name: String
    /// The reply type's name, so calls of two models with like-named cases differ.
    let replyType: String
    /// How long its owner waits, on the app clock: then the reply is "no answer" (offline), whatever
    /// the client's own time-outs, and the real one, if it comes, finds nobody waiting. nil: as long as
    /// the client waits.
    public private(set) var deadline: TimeInterval?
    private let wrap: @Sendable (Result<AnyValue, APIError>) -> AnyValue?

    public init<Request: APIRequest, Reply: Equatable & Sendable>(
        _ request: Request, _ reply: @escaping @Sendable (Result<Request.Reply, APIError>) -> Reply
    ) {
        self.request = AnyRequest(request)
        replyType = "\(Reply.self)"
        name = Self.caseName(of: reply(.failure(.offline(reason: "probe"))))
        wrap = { result in
            switch result {
            case .failure(let error): return AnyValue(reply(.failure(error)))
            case .success(let value):
                // The runner performed `Request`, so its reply is `Request.Reply`; anything else (a test's
                // typo) is refused here and recorded as a defect by the reducer.
                guard let typed = value.as(Request.Reply.self) else { return nil }
                return AnyValue(reply(.success(typed)))
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
        replyType = "none"
        name = "ignored"
        wrap = { _ in nil }
    }

    /// The reply in the asking model's own type; nil when the value is not of the request's reply type.
    func wrapped(_ result: Result<AnyValue, APIError>) -> AnyValue? { wrap(result) }

    /// Whether the call says anything about the backend being there (reading the app's own journal
    /// does not).
    var reachesBackend: Bool { request.reachesBackend }

    public static func == (lhs: Call, rhs: Call) -> Bool {
        lhs.request == rhs.request && lhs.name == rhs.name && lhs.replyType == rhs.replyType
            && lhs.deadline == rhs.deadline
    }

    public var customMirror: Mirror { Mirror(self, children: ["name": name, "request": request]) }

    /// "verify" for `Reply.verify(…)`: an enum case's label, as reflection reports it.
    private static func caseName(of value: some Any) -> String {
        Mirror(reflecting: value).children.first?.label ?? "\(value)"
    }
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

    public var customMirror: Mirror { Mirror(self, children: ["owner": owner, "call": call.name]) }

    /// Who waits, and for which case of which reply type; the request itself is the effect's business.
    public static func == (lhs: PendingCall, rhs: PendingCall) -> Bool {
        lhs.owner == rhs.owner && lhs.call.name == rhs.call.name && lhs.call.replyType == rhs.call.replyType
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

    /// Forgets what the overlay waited for (it was closed or replaced).
    mutating func forgetOverlayCalls() {
        pending = pending.filter { $0.value.owner != .overlay }
    }
}

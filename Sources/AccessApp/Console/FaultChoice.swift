import AccessAPI

/// The faults the palette offers: every kind the reference backend knows, for every call or one path.
public struct FaultChoice: Equatable, Sendable {
    public var kind: Components.Schemas.EndpointFault.KindPayload
    /// A latency fault's wait; a jitter fault's shortest wait.
    public var latencyMs: Int?
    public var status: Int?
    /// A status fault's error code (the backend's `fault_injected` when nil).
    public var code: String?
    /// Only the next `times` calls, then the call succeeds again; nil: until cleared.
    public var times: Int?
    /// A body fault's JSON answer and its 2xx status (the backend's 200 when nil).
    public var body: String?
    public var bodyStatus: Int?
    /// A jitter fault's longest wait, and the seed its waits are drawn from (nil: unseeded).
    public var latencyMaxMs: Int?
    public var seed: Int?
    /// A dribble fault's span: the answer's pieces are spread over it.
    public var dribbleMs: Int?
    /// A malformed fault's body: cut JSON, the wrong types, or a proxy's HTML page.
    public var malformed: Components.Schemas.EndpointFault.MalformedPayload?

    public static let all: [FaultChoice] = [
        FaultChoice(kind: .unavailable), FaultChoice(kind: .offline), FaultChoice(kind: .latency, latencyMs: 2000),
        FaultChoice(kind: .timeout), FaultChoice(kind: .commitThenFail), FaultChoice(kind: .status, status: 429),
        FaultChoice(kind: .status, status: 500),
    ]

    public var label: String {
        var label: String
        switch kind {
        case .jitter: label = "\(latencyMs ?? 0)-\(latencyMaxMs ?? 0) ms jitter" + (seed.map { " (seed \($0))" } ?? "")
        case .dribble: label = "answer dribbled over \(dribbleMs ?? 0) ms"
        case .malformed: label = Self.malformedLabel(malformed ?? .cut)
        default: label = Self.label(kind, latency: latencyMs, status: kind == .body ? bodyStatus : status)
        }
        if let code { label += " \(code)" }
        if let times { label += times == 1 ? ", once" : ", \(times) times" }
        return label
    }

    static func malformedLabel(_ malformed: Components.Schemas.EndpointFault.MalformedPayload) -> String {
        switch malformed {
        case .cut: return "malformed: cut JSON"
        case .wrongType: return "malformed: wrong types"
        case .html: return "malformed: HTML error page"
        }
    }

    static func label(_ kind: Components.Schemas.EndpointFault.KindPayload, latency: Int?, status: Int?) -> String {
        switch kind {
        case .unavailable: return "503 unavailable"
        case .offline: return "connection dropped"
        case .latency:
            let ms = latency ?? 0
            return ms % 1000 == 0 ? "\(ClockMove.duration(Double(ms) / 1000)) latency" : "\(ms) ms latency"
        case .timeout: return "no answer (timeout)"
        case .commitThenFail: return "commit then fail"
        case .status: return "status \(status ?? 0)"
        case .body: return "\(status ?? 200) with a chosen body"
        case .jitter: return "jitter"
        case .dribble: return "answer dribbled"
        case .malformed: return "malformed answer"
        case .reset: return "connection reset mid-answer"
        }
    }

    func fault(on path: String) -> Components.Schemas.EndpointFault {
        .init(
            path: path, kind: kind, latencyMs: latencyMs, latencyMaxMs: latencyMaxMs, seed: seed,
            dribbleMs: dribbleMs, malformed: malformed, status: status, body: body, bodyStatus: bodyStatus,
            code: code, times: times)
    }
}

extension FaultChoice {
    /// A fault as the backend reports it: what is left of its count, not the count it was set with.
    init(answer fault: Components.Schemas.EndpointFault) {
        self.init(
            kind: fault.kind, latencyMs: fault.latencyMs, status: fault.status, code: fault.code,
            times: fault.remaining ?? fault.times, body: fault.body, bodyStatus: fault.bodyStatus,
            latencyMaxMs: fault.latencyMaxMs, seed: fault.seed, dribbleMs: fault.dribbleMs, malformed: fault.malformed)
    }
}

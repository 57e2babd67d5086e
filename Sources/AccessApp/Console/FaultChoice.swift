import AccessAPI

/// The faults the palette offers: every kind the reference backend knows, for every call or one path.
public struct FaultChoice: Equatable, Sendable {
    public var kind: Components.Schemas.EndpointFault.KindPayload
    public var latencyMs: Int?
    public var status: Int?
    /// A status fault's error code (the backend's `fault_injected` when nil).
    public var code: String?
    /// Only the next `times` calls, then the call succeeds again; nil: until cleared.
    public var times: Int?
    /// A body fault's JSON answer and its 2xx status (the backend's 200 when nil).
    public var body: String?
    public var bodyStatus: Int?

    public static let all: [FaultChoice] = [
        FaultChoice(kind: .unavailable), FaultChoice(kind: .offline), FaultChoice(kind: .latency, latencyMs: 2000),
        FaultChoice(kind: .timeout), FaultChoice(kind: .commitThenFail), FaultChoice(kind: .status, status: 429),
        FaultChoice(kind: .status, status: 500),
    ]

    public var label: String {
        var label = Self.label(kind, latency: latencyMs, status: kind == .body ? bodyStatus : status)
        if let code { label += " \(code)" }
        if let times { label += times == 1 ? ", once" : ", \(times) times" }
        return label
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
        }
    }

    func fault(on path: String) -> Components.Schemas.EndpointFault {
        .init(
            path: path, kind: kind, latencyMs: latencyMs, status: status, body: body, bodyStatus: bodyStatus,
            code: code, times: times)
    }
}

extension FaultChoice {
    /// A fault as the backend reports it: what is left of its count, not the count it was set with.
    init(answer fault: Components.Schemas.EndpointFault) {
        self.init(
            kind: fault.kind, latencyMs: fault.latencyMs, status: fault.status, code: fault.code,
            times: fault.remaining ?? fault.times, body: fault.body, bodyStatus: fault.bodyStatus)
    }
}

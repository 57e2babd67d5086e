import AccessAPI

/// The faults the palette offers: every kind the reference backend knows, for every call or one path.
public struct FaultChoice: Equatable, Sendable {
    public var kind: Components.Schemas.EndpointFault.KindPayload
    public var latencyMs: Int?
    public var status: Int?

    public static let all: [FaultChoice] = [
        FaultChoice(kind: .unavailable), FaultChoice(kind: .offline), FaultChoice(kind: .latency, latencyMs: 2000),
        FaultChoice(kind: .timeout), FaultChoice(kind: .commitThenFail), FaultChoice(kind: .status, status: 429),
        FaultChoice(kind: .status, status: 500),
    ]

    public var label: String { Self.label(kind, latency: latencyMs, status: status) }

    static func label(_ kind: Components.Schemas.EndpointFault.KindPayload, latency: Int?, status: Int?) -> String {
        switch kind {
        case .unavailable: return "503 unavailable"
        case .offline: return "connection dropped"
        case .latency: return "\(ClockMove.duration(Double(latency ?? 0) / 1000)) latency"
        case .timeout: return "no answer (timeout)"
        case .commitThenFail: return "commit then fail"
        case .status: return "status \(status ?? 0)"
        case .body: return "200 with a chosen body"
        }
    }

    func fault(on path: String) -> Components.Schemas.EndpointFault {
        .init(path: path, kind: kind, latencyMs: latencyMs, status: status)
    }
}

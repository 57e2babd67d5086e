import AccessAPI
import Foundation

/// Pointed at `accessdeck proxy` (issue 52 item 4), the app shows what the proxy found: a count in the status strip
/// and a marker beside each F3 row whose exchange has a finding. It asks `GET /_proxy/findings` once at the start
/// and then every few seconds on the app clock; a backend that does not answer it is not a proxy and is not asked
/// again.
public enum ProxyWatch {
    /// Between two looks at the proxy's findings, on the app clock: a finding is news, not a countdown.
    public static let interval: TimeInterval = 5
}

/// The proxy's findings as last seen.
public enum ProxyLook: Equatable, Sendable {
    /// Not asked yet, or no answer came yet.
    case unknown
    /// The backend answered, and it is not the proxy.
    case notAProxy
    case found(ProxyFindingsDigest)

    public var findings: ProxyFindingsDigest? {
        if case .found(let findings) = self { return findings }
        return nil
    }
}

struct LoadProxyFindings: APIRequest {
    func perform(_ api: APIContext) async throws -> ProxyFindingsDigest? { try await api.client.proxyFindings() }
}

/// Asks for the proxy's findings now (unless a look is under way) and schedules the next look; nothing once the
/// backend has said it is not a proxy. The executable sends the first `.watchProxy`.
func watchProxy(_ state: inout AppState) -> [Effect] {
    guard state.console.proxy != .notAProxy else { return [] }
    let next = Effect.after(seconds: ProxyWatch.interval, action: .watchProxy, id: .proxyWatch)
    guard !state.awaits(LoadProxyFindings.self, for: .console) else { return [next] }
    return state.send(Call(LoadProxyFindings(), ConsoleReply.proxyFindings), for: .console) + [next]
}

func receiveProxyFindings(_ result: Result<ProxyFindingsDigest?, APIError>, in state: inout AppState) -> [Effect] {
    switch result {
    case .success(let findings?):
        state.console.proxy = .found(findings)
        return []
    case .success(nil):
        state.console.proxy = .notAProxy
        return [.cancel(.proxyWatch)]
    case .failure:
        // No answer: the offline banner says so; the next look tries again.
        return []
    }
}

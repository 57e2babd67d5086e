import AsyncHTTPClient
import Foundation
import NIOCore

/// What `accessdeck proxy` found, as the app shows it (issue 52 item 4): read from the proxy's
/// `GET /_proxy/findings`, and only what the status strip and the journal's markers need.
public struct ProxyFindingsDigest: Equatable, Sendable {
    /// Contract breaks and rule breaks together: the strip's count.
    public var count: Int
    /// The findings that name each exchange, by the proxy's exchange number (`X-Proxy-Exchange`).
    public var byExchange: [Int: [String]]

    public init(count: Int, byExchange: [Int: [String]]) {
        self.count = count
        self.byExchange = byExchange
    }

    /// The proxy numbers each exchange it forwards in this response header; the app keeps it with the call.
    public static let exchangeHeader = "X-Proxy-Exchange"
    public static let path = "/_proxy/findings"

    /// The proxy's JSON (`ProxyFindings`), read leniently: members the app does not show are not decoded.
    public static func decode(_ data: Data) throws -> ProxyFindingsDigest {
        struct Wire: Decodable {
            struct Break: Decodable {
                struct Exchange: Decodable { let number: Int }
                let message: String
                let exchange: Exchange
            }
            struct Verdict: Decodable {
                let rule: String
                let breaks: [[Int]]
            }
            let contractBreaks: [Break]
            let rules: [Verdict]
            enum CodingKeys: String, CodingKey {
                case contractBreaks = "contract_breaks"
                case rules
            }
        }
        let wire = try JSONDecoder().decode(Wire.self, from: data)
        var byExchange: [Int: [String]] = [:]
        for each in wire.contractBreaks {
            byExchange[each.exchange.number, default: []].append("contract: \(each.message)")
        }
        var ruleBreaks = 0
        for verdict in wire.rules {
            for proof in verdict.breaks {
                ruleBreaks += 1
                let cited = proof.map { "#\($0)" }.joined(separator: ", ")
                for number in proof { byExchange[number, default: []].append("\(verdict.rule) broken (\(cited))") }
            }
        }
        return ProxyFindingsDigest(count: wire.contractBreaks.count + ruleBreaks, byExchange: byExchange)
    }
}

extension AccountClient {
    /// The proxy's findings when the backend is `accessdeck proxy`; nil when it does not answer
    /// `GET /_proxy/findings` (any other backend: a 404, or whatever it answers that is not the proxy's JSON).
    /// Throws only when no answer came.
    public func proxyFindings() async throws -> ProxyFindingsDigest? {
        let request = HTTPClientRequest(url: configuration.baseURL + ProxyFindingsDigest.path)
        let response = try await http.execute(request, timeout: TimeAmount(configuration.requestTimeout))
        let body = try await response.body.collect(upTo: Self.proxyFindingsLimit)
        guard response.status == .ok else { return nil }
        return try? ProxyFindingsDigest.decode(Data(body.readableBytesView))
    }

    /// A long run's findings, every exchange cited, fit well inside this.
    static let proxyFindingsLimit = 8 << 20
}

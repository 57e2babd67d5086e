import Foundation
import TerminalKit

/// Everything the proxy found (issue 52 item 4): what `GET /_proxy/findings` answers, `--junit` writes and the
/// summary line counts.
public struct ProxyFindings: Codable, Sendable, Equatable {
    /// Exchanges whose answers have passed through whole.
    public var exchanges: Int
    public var contractBreaks: [ContractBreak]
    /// One per watched rule, in the catalogue's order.
    public var rules: [RuleVerdict]

    enum CodingKeys: String, CodingKey {
        case exchanges
        case contractBreaks = "contract_breaks"
        case rules
    }

    public init(exchanges: Int, contractBreaks: [ContractBreak], rules: [RuleVerdict]) {
        self.exchanges = exchanges
        self.contractBreaks = contractBreaks
        self.rules = rules
    }

    /// The numbers of the exchanges a finding names: a contract break's, and each exchange a broken rule cites.
    public var exchangesWithFindings: Set<Int> {
        Set(contractBreaks.map(\.exchange.number) + rules.flatMap { $0.breaks.joined() })
    }

    /// Contract breaks and rule breaks together: the count the app shows.
    public var count: Int { contractBreaks.count + rules.reduce(0) { $0 + $1.breaks.count } }

    /// `812 exchanges · 3 contract breaks · rules: 14 kept, 1 broken, 42 not seen`.
    public var summary: String {
        func count(_ state: RuleVerdict.State) -> Int { rules.filter { $0.state == state }.count }
        let exchangesWord = exchanges == 1 ? "exchange" : "exchanges"
        let breaksWord = contractBreaks.count == 1 ? "contract break" : "contract breaks"
        return "\(exchanges) \(exchangesWord) · \(contractBreaks.count) \(breaksWord) · rules: \(count(.kept)) kept, "
            + "\(count(.broken)) broken, \(count(.notSeen)) not seen"
    }

    /// One testcase per watched rule (its family as the class name, as conform's report) and one per contract
    /// check (class `contract`): a break is a failure listing its exchanges; a rule not seen is skipped.
    public var junit: String {
        struct Case {
            var classname: String
            var name: String
            /// nil: passed.
            var failure: (message: String, body: String)?
            var skipped: String?
        }
        var cases: [Case] = rules.map { verdict in
            let family = verdict.rule.split(separator: ".").first.map(String.init) ?? verdict.rule
            switch verdict.state {
            case .kept:
                return Case(classname: family, name: verdict.rule, failure: nil, skipped: nil)
            case .notSeen:
                return Case(classname: family, name: verdict.rule, failure: nil, skipped: "not seen in the traffic")
            case .broken:
                return Case(
                    classname: family, name: verdict.rule,
                    failure: (message: verdict.line, body: verdict.summary), skipped: nil)
            }
        }
        for kind in ContractBreak.Kind.allCases {
            let found = contractBreaks.filter { $0.kind == kind }
            var check = Case(classname: "contract", name: kind.rawValue, failure: nil, skipped: nil)
            if !found.isEmpty {
                let message = "\(found.count) exchange\(found.count == 1 ? "" : "s")"
                check.failure = (message: message, body: found.map(\.line).joined(separator: "\n"))
            }
            cases.append(check)
        }
        let failures = cases.filter { $0.failure != nil }.count
        let skipped = cases.filter { $0.skipped != nil }.count
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="accessdeck proxy" tests="\(cases.count)" failures="\(failures)" skipped="\(skipped)">
            <testsuite name="accessdeck proxy" tests="\(cases.count)" failures="\(failures)" errors="0" \
            skipped="\(skipped)">

            """
        for each in cases {
            xml +=
                "  <testcase classname=\"\(XMLText.escaped(each.classname))\" name=\"\(XMLText.escaped(each.name))\">"
            if let failure = each.failure {
                xml +=
                    "<failure message=\"\(XMLText.escaped(failure.message))\">\(XMLText.escaped(failure.body))</failure>"
            }
            if let skipped = each.skipped { xml += "<skipped message=\"\(XMLText.escaped(skipped))\"/>" }
            xml += "</testcase>\n"
        }
        xml += "</testsuite>\n</testsuites>\n"
        return xml
    }
}

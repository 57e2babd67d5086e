import AccessCore
import Foundation

/// What the traffic says of one rule (issue 52 item 3): put to the test and kept N times, broken (each break
/// with the exchanges that prove it), or not seen.
public struct RuleVerdict: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case kept, broken
        case notSeen = "not_seen"
    }

    /// The catalogue's id (docs/RULES.md), as conform names it.
    public var rule: String
    /// The catalogue's words.
    public var summary: String
    public var state: State
    /// The exchanges that put the rule to the test and found it kept.
    public var kept: Int
    /// One entry per break: the numbers of the exchanges that prove it, the breaking one last.
    public var breaks: [[Int]]

    /// `otp.expired: broken (#3, #7)`, `rate_limit.cooldown: kept 2 times`, `link.expired: not seen`.
    public var line: String {
        switch state {
        case .notSeen: return "\(rule): not seen"
        case .kept: return "\(rule): kept \(kept) time\(kept == 1 ? "" : "s")"
        case .broken:
            let proofs = breaks.map { "(" + $0.map { "#\($0)" }.joined(separator: ", ") + ")" }
            return "\(rule): broken \(proofs.joined(separator: " "))"
        }
    }
}

/// What the watchers found so far, by rule.
struct Judgements: Sendable {
    private(set) var kept: [Rule: Int] = [:]
    private(set) var broken: [Rule: [[Int]]] = [:]

    /// The traffic put `rule` to the test in exchange `number`: accepted when the rule says it must be refused
    /// is a break, proven by `proof` and that exchange; refused, the rule was kept.
    mutating func judge(_ rule: Rule, _ observed: Observation, proof: [Int]) {
        if observed.isAccepted {
            broken[rule, default: []].append(proof + [observed.number])
        } else {
            kept[rule, default: 0] += 1
        }
    }

    func verdict(_ rule: Rule) -> RuleVerdict {
        let breaks = broken[rule] ?? []
        let keptCount = kept[rule] ?? 0
        let state: RuleVerdict.State = !breaks.isEmpty ? .broken : keptCount > 0 ? .kept : .notSeen
        return RuleVerdict(rule: rule.rawValue, summary: rule.summary, state: state, kept: keptCount, breaks: breaks)
    }
}

/// A rule judged from the traffic: sees every finished exchange in order and keeps only what its rule needs.
protocol RuleWatcher: Sendable {
    /// The rules it judges.
    var rules: [Rule] { get }
    mutating func see(_ observed: Observation, accounts: Accounts, judgements: inout Judgements)
}

/// Which account a bearer token is, and what it can verify it's them with, as the answers showed them: the
/// watchers of the rules about an account (re-auth, the last method, deleting) read it.
struct Accounts: Sendable {
    /// Access token digest → user digest.
    private var users: [String: String] = [:]
    /// User digest → the answer that last listed its methods.
    private var methods: [String: Observation] = [:]

    mutating func see(_ observed: Observation) {
        guard observed.isAccepted, let user = observed[.user] else { return }
        if let issued = observed[.issuedAccess] { users[issued] = user }
        if observed[.factors] != nil {
            if let bearer = observed[.bearer] { users[bearer] = user }
            methods[user] = observed
        }
    }

    /// The user of the request's bearer token, when an answer named it.
    func user(of observed: Observation) -> String? {
        observed[.bearer].flatMap { users[$0] }
    }

    /// The last answer that listed the methods of the request's account.
    func methods(of observed: Observation) -> Observation? {
        user(of: observed).flatMap { methods[$0] }
    }
}

/// Times read off Date headers count whole seconds, each up to a second behind the upstream's clock, so a gap
/// between two of them is known only to a second either way: a rule is judged only where that doubt cannot
/// matter.
enum Elapsed {
    /// At least `seconds` passed between `start` and `end`, whatever the fractions of their seconds.
    static func surely(atLeast seconds: TimeInterval, from start: Date, to end: Date) -> Bool {
        end.timeIntervalSince(start) >= seconds + 1
    }

    /// Less than `seconds` passed.
    static func surely(under seconds: TimeInterval, from start: Date, to end: Date) -> Bool {
        end.timeIntervalSince(start) <= seconds - 1
    }
}

/// Every watcher, fed each finished exchange in the order they finish.
struct RuleWatch: Sendable {
    private var watchers: [any RuleWatcher] = [
        CodeLifetimeWatch(), WrongTriesWatch(), CooldownWatch(), ResendWindowWatch(), SpentLinkWatch(),
        RefreshReuseWatch(), ReauthRequiredWatch(), GrantAgeWatch(), LastMethodWatch(), DeleteBlockersWatch(),
    ]
    private var accounts = Accounts()
    private var judgements = Judgements()

    /// The rules watched, in the catalogue's order.
    static let rules: [Rule] = {
        let watched = Set(RuleWatch().watchers.flatMap { $0.rules })
        return Rule.allCases.filter(watched.contains)
    }()

    mutating func see(_ observed: Observation) {
        for index in watchers.indices { watchers[index].see(observed, accounts: accounts, judgements: &judgements) }
        accounts.see(observed)
    }

    var verdicts: [RuleVerdict] { Self.rules.map(judgements.verdict) }
}

/// The rules' state kept per world (`--world-style`; without it every exchange is in the one world, nil), and the
/// verdicts of all of them together: a rule is broken when it is broken in any world, each break with its proof.
struct WorldRuleWatch: Sendable {
    private var worlds: [String?: RuleWatch] = [:]

    mutating func see(_ observed: Observation) {
        worlds[observed.world, default: RuleWatch()].see(observed)
    }

    var verdicts: [RuleVerdict] {
        let each = worlds.values.map(\.verdicts)
        return RuleWatch().verdicts.enumerated().map { index, none in
            var merged = none
            for verdicts in each {
                merged.kept += verdicts[index].kept
                merged.breaks += verdicts[index].breaks
            }
            merged.breaks.sort { ($0.last ?? 0) < ($1.last ?? 0) }
            merged.state = !merged.breaks.isEmpty ? .broken : merged.kept > 0 ? .kept : .notSeen
            return merged
        }
    }
}

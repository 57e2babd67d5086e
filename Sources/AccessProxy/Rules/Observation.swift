import AccessAPI
import AccessCore
import Crypto
import Foundation

/// What the rule watchers read of one finished exchange (issue 52 item 3): its number, time, operation and
/// status, and the few values the rules key on. A token, id, link, number or address is kept only as a keyed
/// SHA-256 digest (`Digester`), so an observation holds no secret, and the watchers hold nothing but these.
public struct Observation: Codable, Sendable, Equatable {
    /// One value a rule needs, by name.
    public enum Fact: String, Codable, Sendable, CaseIterable {
        /// The request's bearer token (digest).
        case bearer
        /// The request's X-Reauth-Token (digest).
        case reauth
        /// A code request's id, `challenge_id` or `request_id`, from the request or else the answer (digest).
        case challenge
        /// Where a code went: the answer's `destination` or `phone` beside a code request's id (digest).
        case destination
        /// The refresh token the request presents (digest).
        case refresh
        /// The link token the request presents (digest).
        case link
        /// The code the request presents (digest).
        case code
        /// The access token the answer issues (digest).
        case issuedAccess = "issued_access"
        /// The user the answer's session or sign-in methods belong to (digest).
        case user
        /// The re-auth token the answer grants (digest).
        case grant
        /// The provider a request names, as sent (`apple`, `google`).
        case provider
        /// The ways the answer's account can verify it's them, comma-separated `ReauthFactor` ids.
        case factors
        /// How many blockers a delete preflight answered.
        case blockers
        /// The answer's error code.
        case error
    }

    /// 1 for the first exchange the proxy forwarded.
    public var number: Int
    /// The upstream's clock: the answer's Date header, or the moment the answer arrived when it has none.
    public var time: Date
    /// The operationId; nil for a request no operation of the contract has.
    public var operation: String?
    public var status: Int
    /// By `Fact`'s raw value.
    public var facts: [String: String]
    /// With `--world-style`, the world the exchange was in (nil: the default world, and every exchange without it).
    public var world: String?

    public subscript(_ fact: Fact) -> String? { facts[fact.rawValue] }

    public var isAccepted: Bool { (200..<300).contains(status) }
}

/// A keyed SHA-256 (HMAC) of each value a watcher keeps: the same value gives the same digest for one proxy run,
/// and a short value (a phone number, a 6-digit code) cannot be found again from it by trying them all.
struct Digester: Sendable {
    private let key: SymmetricKey

    init(key: SymmetricKey = SymmetricKey(size: .bits256)) {
        self.key = key
    }

    func callAsFunction(_ value: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: key).map { String(format: "%02x", $0) }
            .joined()
    }
}

extension Observation {
    /// The observation of one exchange from its bytes as they passed. `arrival`: when the answer's head came,
    /// the time when the upstream sent no readable Date header.
    static func read(
        number: Int, method: String, path: String, requestHeaders: [(name: String, value: String)],
        requestBody: [UInt8], status: Int, responseHeaders: [(name: String, value: String)],
        responseBody: [UInt8]?, arrival: Date, digest: Digester, world: String? = nil
    ) -> Observation {
        func header(_ fields: [(name: String, value: String)], _ name: String) -> String? {
            fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        func object(_ bytes: [UInt8]?) -> [String: Any]? {
            guard let bytes, !bytes.isEmpty else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        }
        var facts: [String: String] = [:]
        func keep(_ fact: Fact, _ value: Any?, plain: Bool = false) {
            guard let text = value as? String, !text.isEmpty else { return }
            facts[fact.rawValue] = plain ? text : digest(text)
        }
        if let authorization = header(requestHeaders, "Authorization"), authorization.hasPrefix("Bearer ") {
            keep(.bearer, String(authorization.dropFirst("Bearer ".count)))
        }
        keep(.reauth, header(requestHeaders, APIHeader.reauthToken))
        let sent = object(requestBody)
        let answer = object(responseBody)
        keep(
            .challenge, sent?["challenge_id"] ?? sent?["request_id"] ?? answer?["challenge_id"] ?? answer?["request_id"]
        )
        if answer?["challenge_id"] != nil || answer?["request_id"] != nil {
            keep(.destination, answer?["destination"] ?? answer?["phone"])
        }
        keep(.refresh, sent?["refresh_token"])
        keep(.link, sent?["token"])
        keep(.code, sent?["code"])
        keep(.provider, sent?["provider"], plain: true)
        let session = (answer?["session"] as? [String: Any]) ?? (answer?["access_token"] != nil ? answer : nil)
        keep(.issuedAccess, session?["access_token"])
        keep(.user, session?["user_id"])
        let methods = (answer?["auth_methods"] as? [String: Any]) ?? (answer?["has_password"] != nil ? answer : nil)
        if let methods {
            keep(.user, methods["user_id"])
            facts[Fact.factors.rawValue] = Self.factors(methods).map(\.rawValue).joined(separator: ",")
        }
        let grant = (answer?["reauth"] as? [String: Any]) ?? answer
        keep(.grant, grant?["reauth_token"])
        if let blockers = answer?["blockers"] as? [Any] { facts[Fact.blockers.rawValue] = String(blockers.count) }
        keep(.error, (answer?["error"] as? [String: Any])?["code"], plain: true)
        let date = header(responseHeaders, "Date").flatMap(HTTPDate.parse)
        return Observation(
            number: number, time: date ?? arrival,
            operation: ContractCheck.operation(method: method, path: path)?.rawValue, status: status, facts: facts,
            world: world)
    }

    /// The factors of an `AuthMethods` answer, as `ReauthRule` counts them.
    static func factors(_ methods: [String: Any]) -> [ReauthFactor] {
        ReauthFactor.allCases.filter { factor in
            switch factor {
            case .password: return methods["has_password"] as? Bool == true
            case .email: return methods["email"] is String
            case .phone: return methods["phone"] is String
            case .apple: return methods["apple_linked"] as? Bool == true
            case .google: return methods["google_linked"] as? Bool == true
            case .authenticator: return methods["two_factor_enabled"] as? Bool == true
            case .passkey: return (methods["passkeys"] as? Int ?? 0) > 0
            }
        }
    }

    /// The account's sign-in methods and re-auth factors, from `factors`.
    var reauthRule: ReauthRule? {
        guard let listed = self[.factors] else { return nil }
        let factors = Set(listed.split(separator: ",").compactMap { ReauthFactor(rawValue: String($0)) })
        return ReauthRule(
            methods: SignInMethods(
                phone: factors.contains(.phone), email: factors.contains(.email), apple: factors.contains(.apple),
                google: factors.contains(.google), passkey: factors.contains(.passkey)),
            hasPassword: factors.contains(.password), hasAuthenticator: factors.contains(.authenticator))
    }
}

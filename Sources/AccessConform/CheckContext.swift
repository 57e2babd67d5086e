import AccessCore
import Foundation
import Synchronization

/// How a run is set up: the backend, where codes come from, how time passes, whose account.
public struct ConformSettings: Sendable {
    /// Real waits up to this long are waited for; longer ones need `waitLong`.
    public static let longestShortWait: Double = 30

    public var waitLong = false
    /// `--account`: an existing account's phone or email, signed into by code instead of signing up.
    public var account: String?
    /// `--fixture-accounts`: accounts only the backend's owner can set up, by role.
    public var fixtures = FixtureAccounts()
    /// Fresh phone numbers are this prefix and random digits up to `phoneDigits` digits after the `+`.
    public var phonePrefix = "+99559"
    public var phoneDigits = 12
    /// Fresh email addresses are `conform-<random>@emailDomain`.
    public var emailDomain = "conform.example"
    /// Who reads the skip reasons: they say what that person can do.
    public var frontEnd = ConformFrontEnd.commandLine
    /// How real time passes against another backend: slept. Conform's own tests pass a wait that moves a reference
    /// backend's clock instead, to run it as another backend without waiting.
    public var wait: @Sendable (_ seconds: Double) async throws -> Void = { seconds in
        try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    }
    /// Another backend's now, as an authenticator app tells it: this machine's clock (conform's own tests read a
    /// reference backend's moved clock instead).
    public var now: @Sendable () async throws -> Date = { Date() }

    public init() {}
}

/// Where a run is started from. A check skipped for want of codes or time says what the person can do about
/// it, and that differs: flags on the command line, the command line itself from the app.
public enum ConformFrontEnd: Sendable {
    /// `accessdeck conform`.
    case commandLine
    /// The app's palette, "Run conformance".
    case app

    /// The skip of a check that needs the codes or links a backend sends, when the run cannot read them.
    public var needsMessages: String {
        switch self {
        case .commandLine: "needs the codes or links it sends: give --inbox CMD, or run it in a terminal to type them"
        case .app:
            "needs the codes or links it sends, which the app reads only from the reference backend: "
                + "run accessdeck conform --inbox CMD in a shell"
        }
    }

    /// The skip of a check that waits `seconds` of real time, more than a run waits unasked.
    public func needsWaitLong(_ seconds: Double) -> String {
        let time = seconds >= 120 ? "\(Int((seconds / 60).rounded(.up))) min" : "\(Int(seconds)) s"
        switch self {
        case .commandLine: return "needs --wait-long: \(time)"
        case .app: return "waits \(time) of real time: run accessdeck conform --wait-long in a shell"
        }
    }
}

/// The reference backend's admin API, when the backend answers it: scenarios, the clock, provider tokens.
public struct ReferenceAdmin: Sendable {
    let http: ConformHTTP
    /// Set when the run has a world of its own: the server's bare paths (the worlds admin API) and its name.
    var world: ConformWorld?

    /// A backend `detect` found to be the reference backend earlier in the same run: the app's panel detects
    /// once, then runs one rule a call.
    public init(detected http: ConformHTTP) { self.http = http }

    private init(http: ConformHTTP, world: ConformWorld?) {
        self.http = http
        self.world = world
    }

    /// The same admin API inside the run's own world.
    public func inWorld(_ world: ConformWorld) -> ReferenceAdmin { ReferenceAdmin(http: world.http, world: world) }

    /// A backend is the reference backend when `GET /_admin/state` answers with its scenario and epoch.
    public static func detect(_ http: ConformHTTP) async -> ReferenceAdmin? {
        guard let state = try? await http.get("/_admin/state"), state.status == 200,
            let object = state.object, object["scenario"] is String, object["epoch"] != nil
        else { return nil }
        return ReferenceAdmin(http: http, world: nil)
    }

    /// Loads `scenario` and stops its clock. A scenario's clock runs with wall time (`accessdeck serve`'s do), and
    /// a check that moves it to 1 s before a deadline would find the deadline passed when more than a second of
    /// real time went by on the way (a loaded machine). Stopped, it moves only by the check's own advances.
    func load(_ scenario: String) async throws {
        let answer = try await http.post("/_admin/scenario", ["name": scenario])
        guard answer.status == 200 else {
            throw CheckStop.cannotTell("loading the scenario \(scenario) answered \(answer.summary)")
        }
        let frozen = try await http.post("/_admin/clock", ["frozen": true])
        guard frozen.status == 200 else {
            throw CheckStop.cannotTell("stopping the clock answered \(frozen.summary)")
        }
    }

    func advance(_ seconds: Double) async throws {
        let answer = try await http.post("/_admin/clock/advance", ["seconds": seconds])
        guard answer.status == 200 else { throw CheckStop.cannotTell("moving the clock answered \(answer.summary)") }
    }

    /// The backend's clock (`GET /_admin/clock`), which scenarios and checks move away from this machine's.
    func now() async throws -> Date {
        let answer = try await http.get("/_admin/clock")
        guard answer.status == 200, let text = answer.object?["now"] as? String, let date = Self.parse(text) else {
            throw CheckStop.cannotTell("reading the clock answered \(answer.summary)")
        }
        return date
    }

    private static func parse(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return plain.date(from: text) ?? fractional.date(from: text)
    }

    /// A signed-in session for the loaded scenario's user.
    func session() async throws -> Account {
        let answer = try await http.post("/_admin/session", ["device": Device.body])
        guard answer.status == 200, let tokens = answer.object, let access = tokens["access_token"] as? String,
            let refresh = tokens["refresh_token"] as? String
        else { throw CheckStop.cannotTell("POST /_admin/session answered \(answer.summary)") }
        return Account(destination: "", channel: .phone, access: access, refresh: refresh, created: false)
    }
}

/// A world of its own for one run against a reference backend that serves worlds (`/w/NAME/`): the run loads
/// its scenarios and moves its clock there, so the default world, which someone may be using, stays as it was.
public struct ConformWorld: Sendable {
    public let name: String
    /// The world's base URL, `/w/NAME` of the server's.
    public let http: ConformHTTP
    /// The server's bare paths.
    let root: ConformHTTP

    /// nil when the backend makes no world (`POST /_admin/worlds` answers anything but 201), and when the base
    /// URL names a world already (`…/w/NAME`): the person chose that world to run in (a world of its own would
    /// nest in it as `/w/NAME/w/…`, which no server serves).
    public static func open(_ root: ConformHTTP) async -> ConformWorld? {
        guard WorldNames.world(in: root.baseURL) == nil else { return nil }
        let name = "conform-\(UUID().uuidString.prefix(12).lowercased())"
        guard let made = try? await root.post("/_admin/worlds", ["name": name, "scenario": "default"]),
            made.status == 201
        else { return nil }
        let http = ConformHTTP(baseURL: root.baseURL + "/w/" + name, adminToken: root.adminToken)
        return ConformWorld(name: name, http: http, root: root)
    }

    /// Deletes the world; what went wrong when it could not.
    public func close() async -> String? {
        await http.shutdown()
        let deleted = try? await root.send("DELETE", "/_admin/worlds/\(name)")
        if deleted?.status == 204 { return nil }
        return "could not delete the world \(name): \(deleted?.summary ?? "no answer")"
    }
}

/// The device every sign-in of a run names (the contract requires one).
enum Device {
    static var body: [String: Any] {
        [
            "device_name": "accessdeck conform", "system_name": "Linux", "system_version": "1",
            "identifier": "conform-\(UUID().uuidString.prefix(8).lowercased())",
            "public_key": Data(repeating: 7, count: 32).base64EncodedString(),
        ]
    }
}

public enum Channel: String, Sendable {
    case phone
    case email
}

/// An account a check signed into. `created`: it signed up, so it is deleted afterwards where it can be.
struct Account: Sendable {
    var destination: String
    var channel: Channel
    var access: String
    var refresh: String
    var created: Bool
}

/// What the roads of one check share: the accounts it signed up, deleted once it ran on every road, and, against
/// another backend, what one road set up for the next (the reference backend starts every road from its scenario).
final class CheckShared: Sendable {
    private let state = Mutex<(created: [Account], kept: [String: any Sendable])>(([], [:]))

    var created: [Account] { state.withLock { $0.created } }

    func adopt(_ account: Account) { state.withLock { $0.created.append(account) } }

    func deleted(_ destination: String) { state.withLock { $0.created.removeAll { $0.destination == destination } } }

    func kept<T: Sendable>(_ key: String) -> T? { state.withLock { $0.kept[key] as? T } }

    func keep(_ value: any Sendable, as key: String) { state.withLock { $0.kept[key] = value } }
}

/// What one check works with on one road. Its helpers turn a wrong answer into the right stop: a setup step that
/// does not go as the contract says is "cannot tell" (the rule under check was never reached), an assertion that
/// does not hold is "broken", and a 5xx, a missing endpoint or an unexpected 429 is "cannot tell" wherever it
/// comes. A 429 whose wait is a short one is waited out and the request sent again first.
final class CheckContext: Sendable {
    let http: ConformHTTP
    let messages: MessageSource
    let reference: ReferenceAdmin?
    let settings: ConformSettings
    let shared: CheckShared
    /// The road this verdict is about; nil for a rule with none.
    let road: ContractOperation?

    init(
        http: ConformHTTP, messages: MessageSource, reference: ReferenceAdmin?, settings: ConformSettings,
        shared: CheckShared = CheckShared(), road: ContractOperation? = nil
    ) {
        self.http = http
        self.messages = messages
        self.reference = reference
        self.settings = settings
        self.shared = shared
        self.road = road
    }

    /// Accounts this check signed up, deleted after it where the contract allows.
    var created: [Account] { shared.created }

    /// What an earlier road of this check made under `key`, against another backend, where making it costs real
    /// time (sends and their cooldowns); made here on the reference backend, whose every road starts afresh.
    func once<T: Sendable>(_ key: String, _ make: () async throws -> T) async throws -> T {
        if reference == nil, let kept: T = shared.kept(key) { return kept }
        let made = try await make()
        if reference == nil { shared.keep(made, as: key) }
        return made
    }

    // MARK: Time

    /// The reference backend's clock moves; another backend's time is waited for, a long wait only with
    /// `--wait-long` (the runner skips those checks before they start).
    func pass(_ seconds: Double) async throws {
        if let reference { return try await reference.advance(seconds) }
        guard seconds <= ConformSettings.longestShortWait || settings.waitLong else {
            throw CheckStop.skipped(settings.frontEnd.needsWaitLong(seconds))
        }
        try await settings.wait(seconds)
    }

    // MARK: Expectations

    /// The step a check sets itself up with: anything but `statuses` means the rule was never reached.
    @discardableResult
    func setup(
        _ send: @autoclosure () async throws -> Exchange, _ statuses: Int..., doing what: String
    ) async throws -> Exchange {
        let exchange = try await waitingOutAShortLimit(send, unless: statuses.contains(429))
        try refuseUnknowable(exchange, expecting: statuses.first ?? 200)
        guard statuses.contains(exchange.status) else {
            throw CheckStop.cannotTell("\(what): \(exchange.method) \(exchange.path) answered \(exchange.summary)")
        }
        return exchange
    }

    /// The rule's own answer: `status` (and `code`, when given) or the rule is broken. `present`: an earlier
    /// answer proved the endpoint is there, so a 404 `not_found` from it is an answer, not a missing endpoint.
    @discardableResult
    func expect(
        _ send: @autoclosure () async throws -> Exchange, _ status: Int, _ code: String? = nil, _ expected: String,
        evidence: [Exchange] = [], present: Bool = false
    ) async throws -> Exchange {
        let exchange = try await waitingOutAShortLimit(send, unless: status == 429)
        try refuseUnknowable(exchange, expecting: status, code: code, present: present)
        guard exchange.status == status, code == nil || exchange.errorCode == code else {
            throw CheckStop.broken(
                expected: "\(expected): \(status)\(code.map { " " + $0 } ?? "")", got: exchange.summary,
                evidence: evidence + [exchange])
        }
        return exchange
    }

    /// A 429 asking for a wait no longer than a run waits unasked (a cooldown an earlier check or road left, on
    /// a backend whose clock conform does not move), or with `--wait-long` up to an hour (a cap on this client's
    /// sends): waited out, and the request sent once more. A 429 the check expects is its answer.
    private func waitingOutAShortLimit(
        _ send: () async throws -> Exchange, unless expected: Bool
    ) async throws -> Exchange {
        let first = try await send()
        let longest = settings.waitLong ? SendLimits.capWindow : ConformSettings.longestShortWait
        guard !expected, first.status == 429, let wait = first.retryAfter, wait <= longest else { return first }
        try await pass(wait)
        return try await send()
    }

    /// How many sign-ins Active sessions (`GET /me/sessions`) lists to the session of `access`, read back as a
    /// rule's state after: anything but 200 is the rule broken.
    /// Answers the count and the list's exchange, for evidence.
    func listedSessions(_ access: String, _ what: String, evidence: [Exchange] = []) async throws -> (Int, Exchange) {
        let list = try await expect(await http.get("/me/sessions", token: access), 200, nil, what, evidence: evidence)
        guard let sessions = list.object?["sessions"] as? [[String: Any]] else {
            throw CheckStop.cannotTell("the session list has no sessions member")
        }
        return (sessions.count, list)
    }

    /// A condition of the answer itself (a member's value), the rule broken when it does not hold.
    func require(_ condition: Bool, expected: String, got: String, _ evidence: Exchange...) throws {
        guard condition else { throw CheckStop.broken(expected: expected, got: got, evidence: evidence) }
    }

    /// Answers that say nothing about the rule: a server error, an endpoint the backend does not have, a limit
    /// hit that the check did not ask for.
    private func refuseUnknowable(
        _ exchange: Exchange, expecting status: Int, code: String? = nil, present: Bool = false
    ) throws {
        let route = "\(exchange.method) \(exchange.path.split(separator: "?").first ?? "")"
        if exchange.status >= 500 {
            throw CheckStop.cannotTell("\(route) answered \(exchange.summary) (a server error)")
        }
        let missing = exchange.status == 404 && (exchange.errorCode == nil || exchange.errorCode == "not_found")
        if missing, !present, status != 404 || (code != nil && code != "not_found") {
            throw CheckStop.cannotTell("\(route) answered \(exchange.summary): the endpoint may be missing")
        }
        if exchange.status == 405 && status != 405 {
            throw CheckStop.cannotTell("\(route) answered 405: the endpoint is not there for this method")
        }
        if exchange.status == 429 && status != 429 {
            let limit = exchange.errorMember?["limit"] as? String
            throw CheckStop.cannotTell("\(route) answered 429 (\(limit ?? "a limit") already used)")
        }
    }

    // MARK: Accounts

    func freshPhone() -> String {
        let count = max(1, settings.phoneDigits - (settings.phonePrefix.count - 1))
        return settings.phonePrefix + String((0..<count).map { _ in "0123456789".randomElement()! })
    }

    func freshEmail() -> String {
        "conform-\(UUID().uuidString.prefix(12).lowercased())@\(settings.emailDomain)"
    }

    func fresh(_ channel: Channel) -> String { channel == .phone ? freshPhone() : freshEmail() }

    func startSignIn(_ channel: Channel, _ destination: String) async throws -> Exchange {
        try await http.post(
            "/auth/sign-in/code", ["channel": channel.rawValue, channel.rawValue: destination, "device": Device.body])
    }

    func verifySignIn(_ challenge: String, code: String) async throws -> Exchange {
        try await http.post(
            "/auth/sign-in/code/verify", ["challenge_id": challenge, "code": code, "device": Device.body])
    }

    func resendSignIn(_ challenge: String) async throws -> Exchange {
        try await http.post("/auth/sign-in/code/resend", ["challenge_id": challenge])
    }

    /// Starts a sign-in and returns its challenge id.
    func challenge(_ channel: Channel, _ destination: String) async throws -> String {
        let started = try await setup(await startSignIn(channel, destination), 202, doing: "asking for a sign-in code")
        guard let id = started.object?["challenge_id"] as? String else {
            throw CheckStop.cannotTell("the sign-in code answer has no challenge_id")
        }
        return id
    }

    /// Signs into `destination` with the code it is sent (signing up when nobody has it).
    func signIn(_ channel: Channel, _ destination: String) async throws -> Account {
        let id = try await challenge(channel, destination)
        let code = try await messages.latest(.code, to: destination)
        let signedIn = try await setup(await verifySignIn(id, code: code), 200, doing: "signing in with the code")
        guard let session = signedIn.object?["session"] as? [String: Any],
            let access = session["access_token"] as? String, let refresh = session["refresh_token"] as? String
        else { throw CheckStop.cannotTell("the sign-in answer has no session") }
        let isNew = signedIn.object?["is_new_user"] as? Bool ?? false
        let account = Account(
            destination: destination, channel: channel, access: access, refresh: refresh, created: isNew)
        if isNew { adopt(account) }
        return account
    }

    /// `--account` when given (by phone when it starts with "+"), else a new account on `channel`. `--account` is
    /// the person's to keep: never deleted afterwards, even where the sign-in made it.
    func account(_ channel: Channel = .phone) async throws -> Account {
        if let existing = settings.account {
            let channel: Channel = existing.hasPrefix("+") ? .phone : .email
            let account = try await signIn(channel, existing)
            deleted(existing)
            return account
        }
        return try await signIn(channel, fresh(channel))
    }

    /// A fresh account, never `--account`: for checks that end or delete what they sign into.
    func newAccount(_ channel: Channel = .phone) async throws -> Account {
        try await signIn(channel, fresh(channel))
    }

    /// "Verify it's you" with a code texted to the account's phone, or a link to its email.
    /// The sign-in that made `account` sent to the same address moments ago, so it first lets the cooldown pass.
    func grant(_ account: Account) async throws -> String {
        try await pass(SendLimits.cooldown)
        switch account.channel {
        case .phone:
            let asked = try await setup(
                await http.post(
                    "/auth/phone/request-otp", ["phone": account.destination, "purpose": "reauth"],
                    token: account.access), 202, 200, doing: "asking for a re-auth code")
            guard let request = asked.object?["request_id"] as? String else {
                throw CheckStop.cannotTell("the re-auth code answer has no request_id")
            }
            let code = try await messages.latest(.code, to: account.destination)
            let verified = try await setup(
                await http.post(
                    "/auth/phone/verify-otp", ["request_id": request, "code": code], token: account.access), 200,
                doing: "verifying it's you with the code")
            guard let grant = (verified.object?["reauth"] as? [String: Any])?["reauth_token"] as? String else {
                throw CheckStop.cannotTell("the verified code gave no reauth_token")
            }
            return grant
        case .email:
            try await setup(
                await http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                doing: "asking for a re-auth link")
            let link = try await messages.latest(.link, to: account.destination)
            let confirmed = try await setup(
                await http.post("/auth/reauth/email/confirm", ["token": link], token: account.access), 200,
                doing: "opening the re-auth link")
            guard let grant = confirmed.object?["reauth_token"] as? String else {
                throw CheckStop.cannotTell("the re-auth link gave no reauth_token")
            }
            return grant
        }
    }

    func adopt(_ account: Account) { shared.adopt(account) }

    /// The check deleted `destination`'s account itself: nothing to clean up.
    func deleted(_ destination: String) { shared.deleted(destination) }

    /// Deletes what this check signed up, best effort: a failure here says nothing about the rule checked.
    /// Not on the reference backend, whose next scenario load resets the world anyway.
    func cleanUp() async -> [String] {
        guard reference == nil else { return [] }
        var notes: [String] = []
        for var account in created {
            do {
                let me = try await http.get("/auth/me", token: account.access)
                if me.status != 200 {
                    // The check signed this session out or ended it: sign in again to delete the account.
                    try await pass(SendLimits.cooldown)
                    account = try await signIn(account.channel, account.destination)
                }
                let grant = try await grant(account)
                let deleted = try await http.send("DELETE", "/me", token: account.access, reauth: grant)
                if deleted.status != 200 { notes.append("could not delete \(account.destination): \(deleted.summary)") }
            } catch {
                notes.append("could not delete \(account.destination)")
            }
        }
        return notes
    }
}

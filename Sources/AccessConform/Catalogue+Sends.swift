import AccessCore
import Foundation
import Synchronization

/// One operation that texts or emails a code or a link, as the send limits are checked on it: what it sends to,
/// how to make it send once more, and what setting it up already sent there. Every limit per address counts
/// whatever sent to the address (docs/RULES.md, rate_limit), so a check may fill a limit through the sign-in
/// code and then ask this road.
struct SendRoad: Sendable {
    let operation: ContractOperation
    /// The phone number or email address it sends to.
    let destination: String
    /// The signed-in account that asks, for the roads that need one (the account cap counts it).
    let session: Session?
    /// Codes and links setting the road up sent to `destination` (an account's own sign-in code, the request a
    /// resend resends): they count towards its limits.
    let setupSends: Int
    /// Every send through it counts as a resend, not only a second one while the first is live.
    let alwaysResends: Bool
    /// It sends again to the same address: a register or a recovery email goes once (the account has it then).
    let repeats: Bool
    /// The status of a send that goes.
    let sent: Int
    /// Makes what the send needs fresh just before it: a Verify it's you grant, which lives 15 minutes.
    let ready: @Sendable () async throws -> Void
    let send: @Sendable () async throws -> Exchange

    /// Sets the road up: a fresh destination, and the account, grant or first request it needs.
    static func open(_ operation: ContractOperation, _ context: CheckContext) async throws -> SendRoad {
        let grant = Grant()
        func road(
            _ destination: String, session: Session? = nil, setupSends: Int = 0, alwaysResends: Bool = false,
            repeats: Bool = true, sent: Int = 202, needsGrant: Bool = false,
            _ send: @escaping @Sendable () async throws -> Exchange
        ) -> SendRoad {
            let ready: @Sendable () async throws -> Void = {
                guard needsGrant, let session else { return }
                try await grant.renew(context, session.account)
            }
            return SendRoad(
                operation: operation, destination: destination, session: session, setupSends: setupSends,
                alwaysResends: alwaysResends, repeats: repeats, sent: sent, ready: ready, send: send)
        }
        switch operation {
        case .startSignInCode:
            let phone = context.freshPhone()
            return road(phone) { try await context.startSignIn(.phone, phone) }
        case .resendSignInCode:
            let phone = context.freshPhone()
            let id = try await context.challenge(.phone, phone)
            return road(phone, setupSends: 1, alwaysResends: true) { try await context.resendSignIn(id) }
        case .register:
            let email = context.freshEmail()
            return road(email, repeats: false, sent: 201) {
                try await Catalogue.register(context, email, Catalogue.freshPassword())
            }
        case .resendRegistrationLink:
            let email = context.freshEmail()
            try await context.setup(
                await Catalogue.register(context, email, Catalogue.freshPassword()), 201, doing: "registering")
            return road(email, setupSends: 1, alwaysResends: true) {
                try await context.http.post("/auth/register/resend", ["email": email])
            }
        case .setRecoveryEmail:
            let session = Session(try await context.newAccount())
            try await Catalogue.saveProfile(context, session.account)
            let email = context.freshEmail()
            return road(email, session: session, repeats: false) {
                try await context.http.post(
                    "/me/recovery-email", ["email": email, "password": Catalogue.freshPassword()],
                    token: session.account.access)
            }
        case .requestOtp:
            let session = Session(try await context.newAccount(.email))
            let phone = context.freshPhone()
            return road(phone, session: session) {
                try await Catalogue.requestOTP(context, session.account, phone, "add_phone")
            }
        case .resendOtp:
            let session = Session(try await context.newAccount(.email))
            let phone = context.freshPhone()
            let asked = try await context.setup(
                await Catalogue.requestOTP(context, session.account, phone, "add_phone"), 202,
                doing: "asking for a code")
            guard let id = asked.object?["request_id"] as? String else {
                throw CheckStop.cannotTell("the code answer has no request_id")
            }
            return road(phone, session: session, setupSends: 1, alwaysResends: true) {
                try await context.http.post(
                    "/auth/phone/resend-otp", ["request_id": id], token: session.account.access)
            }
        case .reauthEmailSend:
            let session = Session(try await context.newAccount(.email))
            return road(session.account.destination, session: session, setupSends: 1) {
                try await context.http.send("POST", "/auth/reauth/email", token: session.account.access)
            }
        case .requestEmailChange:
            let session = Session(try await context.newAccount(.email))
            let email = context.freshEmail()
            return road(email, session: session, needsGrant: true) {
                try await context.http.post(
                    "/auth/email/request-change", ["email": email], token: session.account.access,
                    reauth: grant.token)
            }
        case .addEmailWithPassword:
            let session = Session(try await context.newAccount())
            let email = context.freshEmail()
            return road(email, session: session, needsGrant: true) {
                try await context.http.post(
                    "/auth/email/add-with-password", ["email": email, "password": Catalogue.freshPassword()],
                    token: session.account.access, reauth: grant.token)
            }
        case .resendEmailLink:
            let session = Session(try await context.newAccount())
            let email = context.freshEmail()
            try await grant.renew(context, session.account)
            try await context.setup(
                await context.http.post(
                    "/auth/email/add-with-password", ["email": email, "password": Catalogue.freshPassword()],
                    token: session.account.access, reauth: grant.token), 202, doing: "adding an email")
            return road(email, session: session, setupSends: 1, alwaysResends: true) {
                try await context.http.send("POST", "/auth/email/resend", token: session.account.access)
            }
        case .requestPasswordReset:
            let email = context.freshEmail()
            return road(email) { try await context.http.post("/auth/password/reset", ["email": email]) }
        case .startRecovery:
            // Its own limits per address are recovery.*; only the caps across destinations count it here, so each
            // request goes to an address of its own.
            return road(context.freshEmail()) { try await Catalogue.startRecovery(context, context.freshEmail()) }
        default:
            throw CheckStop.cannotTell("\(operation.name) sends no code or link conform knows how to ask for")
        }
    }

    /// An account whose tokens a road renews: after an hour its access token has expired.
    final class Session: Sendable {
        private let held: Mutex<Account>
        var account: Account { held.withLock { $0 } }

        init(_ account: Account) { held = Mutex(account) }

        /// A new pair from the refresh token, which lives days.
        func refresh(_ context: CheckContext) async throws {
            let answer = try await context.setup(
                await context.refresh(account.refresh), 200, doing: "refreshing the session")
            guard let access = answer.object?["access_token"] as? String,
                let refresh = answer.object?["refresh_token"] as? String
            else { throw CheckStop.cannotTell("the refresh answer has no tokens") }
            held.withLock {
                $0.access = access
                $0.refresh = refresh
            }
        }
    }

    /// A grant a road keeps, renewed before the sends that need it (a grant lives 15 minutes).
    final class Grant: Sendable {
        private let held = Mutex<String?>(nil)
        var token: String? { held.withLock { $0 } }

        func renew(_ context: CheckContext, _ account: Account) async throws {
            let made = try await context.grant(account)
            held.withLock { $0 = made }
        }
    }

    /// After an hour: the account's tokens refreshed, and the grant renewed where the road needs one.
    func renew(_ context: CheckContext) async throws {
        try await session?.refresh(context)
        try await ready()
    }
}

/// The send limits, each on every operation that sends (`Rule.operations`).
extension Catalogue {
    /// A sign-in code to `destination`, phone or email: how the checks fill a limit per address.
    static func signInCode(_ context: CheckContext, to destination: String) async throws {
        try await context.setup(
            await context.startSignIn(destination.hasPrefix("+") ? .phone : .email, destination), 202,
            doing: "a sign-in code to the same address")
    }

    static let sendLimits: [Check] = [
        Check(
            .rateLimitCooldown,
            "A send within \(time(SendLimits.cooldown)) of the last to the address is refused; after that it goes",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context, operation in
            let road = try await SendRoad.open(operation, context)
            try await road.ready()
            // Whatever setting the road up sent is past its cooldown; then a send through the road itself starts a
            // new one, or a sign-in code to the address where the road sends only once.
            try await context.pass(SendLimits.cooldown)
            if road.repeats {
                try await context.setup(await road.send(), road.sent, doing: "a first \(operation.name)")
            } else {
                try await signInCode(context, to: road.destination)
            }
            try await context.pass(SendLimits.cooldown - 1)
            let refused = try await context.expectLimited(
                await road.send(), "cooldown", "\(operation.name) 1 s before the address's cooldown ends")
            try await context.pass(1)
            try await context.expect(
                await road.send(), road.sent, nil, "\(operation.name) once the cooldown ended", evidence: [refused])
        },
        Check(
            .rateLimitResendWindow,
            "\(SendLimits.maxResendsPerWindow) resends to the address in \(time(SendLimits.resendWindow)) go; "
                + "the \(RuleText.nth(SendLimits.maxResendsPerWindow + 1)) is refused",
            needs: .init(messages: true, time: Double(SendLimits.maxResendsPerWindow + 2) * SendLimits.cooldown)
        ) { context, operation in
            let road = try await SendRoad.open(operation, context)
            let first = road.alwaysResends ? 0 : 1
            if road.setupSends + first + SendLimits.maxResendsPerWindow >= SendLimits.maxCodesPerDay {
                // The account's own address had its sign-in code: the 4th resend would be the day's 6th send, whose
                // daily cap would be the longer wait and the limit named. A day later only the window counts.
                try await context.pass(SendLimits.dailyWindow)
                try await road.renew(context)
            } else {
                try await road.ready()
            }
            try await context.pass(SendLimits.cooldown)
            if first == 1 {
                try await context.setup(await road.send(), road.sent, doing: "the first \(operation.name)")
            }
            for _ in 1...SendLimits.maxResendsPerWindow {
                try await context.pass(SendLimits.cooldown)
                try await context.expect(
                    await road.send(), road.sent, nil, "a resend within the \(SendLimits.maxResendsPerWindow) allowed")
            }
            try await context.pass(SendLimits.cooldown)
            try await context.expectLimited(
                await road.send(), "resend_window",
                "\(operation.name) as the \(RuleText.nth(SendLimits.maxResendsPerWindow + 1)) resend within "
                    + time(SendLimits.resendWindow))
        },
        Check(
            .rateLimitDailyCap,
            "\(SendLimits.maxCodesPerDay) sends to the address within \(time(SendLimits.dailyWindow)) go; "
                + "the \(RuleText.nth(SendLimits.maxCodesPerDay + 1)) is refused",
            needs: .init(
                messages: true, time: Double(SendLimits.maxCodesPerDay) * (CodeRules.lifetime + 1),
                longestWait: CodeRules.lifetime + 1)
        ) { context, operation in
            let road = try await SendRoad.open(operation, context)
            // Sign-in codes make up the day's sends, each once the last one's code is dead, so none is a resend.
            for _ in road.setupSends..<SendLimits.maxCodesPerDay {
                try await context.pass(CodeRules.lifetime + 1)
                try await signInCode(context, to: road.destination)
            }
            try await road.ready()
            try await context.pass(SendLimits.cooldown)
            try await context.expectLimited(
                await road.send(), "daily_cap",
                "\(operation.name) as the \(RuleText.nth(SendLimits.maxCodesPerDay + 1)) send to the address within "
                    + time(SendLimits.dailyWindow))
        },
        Check(
            .rateLimitClientAddressHourly,
            "\(SendLimits.maxSendsPerClientAddress) sends asked from one client address in \(time(SendLimits.capWindow)) go; "
                + "the next is refused until that time passes",
            needs: .init(
                messages: true, time: SendLimits.capWindow + SendLimits.cooldown, longestWait: SendLimits.capWindow)
        ) { context, operation in
            let road = try await SendRoad.open(operation, context)
            try await road.ready()
            // What this client asked before counts too: the fill stops at the cap, wherever it is.
            for _ in 1...SendLimits.maxSendsPerClientAddress {
                let sent = try await context.startSignIn(.phone, context.freshPhone())
                if sent.status == 429 { break }
                try await context.setup(sent, 202, doing: "a sign-in code within the cap")
            }
            let refused = try await context.expectLimited(
                await road.send(), "client_address_hourly",
                "\(operation.name) once \(SendLimits.maxSendsPerClientAddress) sends were asked from this address")
            try await context.pass(SendLimits.capWindow)
            try await road.renew(context)
            try await context.expect(
                await road.send(), road.sent, nil, "\(operation.name) once \(time(SendLimits.capWindow)) passed",
                evidence: [refused])
        },
        Check(
            .rateLimitAccountHourly,
            "\(SendLimits.maxSendsPerAccount) sends asked by one account in \(time(SendLimits.capWindow)) go; the next is refused",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context, operation in
            let road = try await SendRoad.open(operation, context)
            guard let session = road.session else { throw CheckStop.cannotTell("the road has no account") }
            try await road.ready()
            for _ in 1...SendLimits.maxSendsPerAccount {
                let sent = try await requestOTP(context, session.account, context.freshPhone(), "add_phone")
                if sent.status == 429 { break }
                try await context.setup(sent, 202, doing: "a code to a new number within the cap")
            }
            try await context.expectLimited(
                await road.send(), "account_hourly",
                "\(operation.name) once this account asked for \(SendLimits.maxSendsPerAccount) sends in the hour")
        },
        Check(
            .rateLimitGlobalHourly,
            "\(SendLimits.maxSendsPerHour) sends in \(time(SendLimits.capWindow)) for the whole server"
        ) { _, _ in
            throw CheckStop.skipped(
                "one client address meets its own cap of \(SendLimits.maxSendsPerClientAddress) long before "
                    + "\(SendLimits.maxSendsPerHour); reaching it needs many client addresses")
        },
    ]
}

extension CheckContext {
    /// A limit's refusal: 429 `rate_limited` naming `limit`, with the seconds to wait in `retry_after` and a
    /// `Retry-After` header (docs/RULES.md, rate_limit).
    @discardableResult
    func expectLimited(
        _ send: @autoclosure () async throws -> Exchange, _ limit: String, _ what: String
    ) async throws -> Exchange {
        let refused = try await expect(await send(), 429, "rate_limited", what)
        let named = refused.errorMember?["limit"] as? String
        try require(named == limit, expected: "limit: \(limit)", got: "limit: \(named ?? "absent")", refused)
        let wait = refused.errorMember?["retry_after"] as? Int
        try require(
            (wait ?? 0) > 0 && refused.headers["retry-after"] == wait.map(String.init),
            expected: "retry_after in seconds and the same Retry-After header",
            got:
                "retry_after \(wait.map(String.init) ?? "absent"), Retry-After \(refused.headers["retry-after"] ?? "absent")",
            refused)
        return refused
    }
}

import AccessCore
import Foundation

/// One operation that opens or checks an emailed link, with a way to get a live link of the kind it takes, a
/// newer one of the same kind, and to spend one.
struct LinkRoad: Sendable {
    let operation: ContractOperation
    /// How long a link of its kind works (`LinkLifetimes`).
    let lifetime: TimeInterval
    /// The status of a live link opened or checked.
    let live: Int
    /// A live link of the kind the road takes, sent just now; `waiting` first lets the cooldown of an earlier send
    /// to the same address pass.
    let send: @Sendable (_ waiting: Bool) async throws -> String
    /// A newer link of the same kind for the same account, which replaces the last one; nil where none can be sent.
    let newer: (@Sendable () async throws -> String)?
    /// Opens or checks `token` on the road.
    let open: @Sendable (_ token: String) async throws -> Exchange
    /// Spends `token` (opens it through the operation that does, which for a check is not the road itself).
    let spend: @Sendable (_ token: String) async throws -> Exchange

    /// A live link, sent once an earlier send's cooldown passed.
    func fresh() async throws -> String { try await send(true) }

    static func open(_ operation: ContractOperation, _ context: CheckContext) async throws -> LinkRoad {
        switch operation {
        case .reauthEmailConfirm:
            let account = try await context.newAccount(.email)
            let send: @Sendable (Bool) async throws -> String = { waiting in
                if waiting { try await context.pass(SendLimits.cooldown) }
                try await context.setup(
                    await context.http.send("POST", "/auth/reauth/email", token: account.access), 202, 200,
                    doing: "asking for a re-auth link")
                return try await context.messages.latest(.link, to: account.destination)
            }
            let open: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post("/auth/reauth/email/confirm", ["token": token], token: account.access)
            }
            return LinkRoad(
                operation: operation, lifetime: LinkLifetimes.reauth, live: 200, send: send,
                newer: { try await send(true) },
                open: open, spend: open)
        case .confirmRegistration:
            let email = context.freshEmail()
            let password = Catalogue.freshPassword()
            let fresh: @Sendable (Bool) async throws -> String = { _ in
                try await context.setup(await Catalogue.register(context, email, password), 201, doing: "registering")
                return try await context.messages.latest(.link, to: email)
            }
            let open: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post("/auth/register/confirm", ["token": token])
            }
            return LinkRoad(
                operation: operation, lifetime: LinkLifetimes.registration, live: 200, send: fresh,
                newer: {
                    try await context.pass(SendLimits.cooldown)
                    try await context.setup(
                        await context.http.post("/auth/register/resend", ["email": email]), 202,
                        doing: "resending the registration link")
                    return try await context.messages.latest(.link, to: email)
                }, open: open, spend: open)
        case .verifyEmailLink:
            let account = try await context.newAccount()
            let email = context.freshEmail()
            let grant = try await context.grant(account)
            let open: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post("/auth/email/verify", ["token": token])
            }
            return LinkRoad(
                operation: operation, lifetime: LinkLifetimes.emailChange, live: 200,
                send: { _ in
                    try await context.setup(
                        await context.http.post(
                            "/auth/email/add-with-password", ["email": email, "password": Catalogue.freshPassword()],
                            token: account.access, reauth: grant), 202, doing: "adding an email")
                    return try await context.messages.latest(.link, to: email)
                },
                newer: {
                    try await context.pass(SendLimits.cooldown)
                    try await context.setup(
                        await context.http.send("POST", "/auth/email/resend", token: account.access), 202,
                        doing: "resending the email link")
                    return try await context.messages.latest(.link, to: email)
                }, open: open, spend: open)
        case .revertEmailChange:
            let account = try await context.newAccount(.email)
            let open: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post("/auth/email/revert", ["token": token])
            }
            return LinkRoad(
                operation: operation, lifetime: LinkLifetimes.emailRevert, live: 200,
                send: { _ in
                    try await Catalogue.changeEmail(context, account, to: context.freshEmail())
                    return try await context.messages.latest(.link, to: account.destination)
                }, newer: nil, open: open, spend: open)
        case .checkPasswordResetLink, .completePasswordReset:
            let (email, _) = try await Catalogue.registered(context)
            let send: @Sendable (Bool) async throws -> String = { waiting in
                if waiting { try await context.pass(SendLimits.cooldown) }
                try await context.setup(
                    await context.http.post("/auth/password/reset", ["email": email]), 202,
                    doing: "asking for a reset link")
                return try await context.messages.latest(.link, to: email)
            }
            let complete: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post(
                    "/auth/password/reset/complete", ["token": token, "new_password": Catalogue.freshPassword()])
            }
            let check: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post("/auth/password/reset/check", ["token": token])
            }
            return LinkRoad(
                operation: operation, lifetime: LinkLifetimes.passwordReset, live: 200, send: send,
                newer: { try await send(true) },
                open: operation == .checkPasswordResetLink ? check : complete, spend: complete)
        case .checkRecoveryLink, .completeRecovery:
            let (email, password) = try await Catalogue.registered(context)
            let send: @Sendable (Bool) async throws -> String = { waiting in
                if waiting { try await context.pass(SendLimits.cooldown) }
                try await context.setup(
                    await Catalogue.startRecovery(context, email), 202, doing: "asking for a recovery link")
                return try await context.messages.latest(.link, to: email)
            }
            let complete: @Sendable (String) async throws -> Exchange = { token in
                let answer = try await Catalogue.completeRecovery(context, token, password)
                Catalogue.adoptSession(context, answer, email)
                return answer
            }
            let check: @Sendable (String) async throws -> Exchange = { token in
                try await context.http.post("/auth/recovery/check", ["token": token])
            }
            return LinkRoad(
                operation: operation, lifetime: LinkLifetimes.recovery, live: 200, send: send,
                newer: { try await send(true) },
                open: operation == .checkRecoveryLink ? check : complete, spend: complete)
        case .inspectLink:
            let road = try await open(.reauthEmailConfirm, context)
            return LinkRoad(
                operation: operation, lifetime: road.lifetime, live: 200, send: road.send, newer: road.newer,
                open: { token in try await context.http.post("/auth/links/inspect", ["token": token]) },
                spend: road.spend)
        default:
            throw CheckStop.cannotTell("\(operation.name) opens no link conform knows")
        }
    }
}

/// The rules of emailed links on every operation that opens or checks them.
extension Catalogue {
    /// A live link of another purpose than `operation` takes: a registration link, or for the registration's own
    /// road a password reset link.
    static func linkOfAnotherPurpose(_ operation: ContractOperation, _ context: CheckContext) async throws -> String {
        if operation == .confirmRegistration {
            return try await LinkRoad.open(.checkPasswordResetLink, context).fresh()
        }
        return try await LinkRoad.open(.confirmRegistration, context).fresh()
    }

    static let linkRoads: [Check] = [
        Check(
            .linkExpired, "A link works once and for its lifetime; a revert or a deletion withdraws pending ones",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown + LinkLifetimes.emailRevert)
        ) { context, operation in
            let road = try await LinkRoad.open(operation, context)
            let used = try await road.fresh()
            let first = try await context.setup(await road.spend(used), 200, doing: "opening the link")
            try await context.expect(
                await road.open(used), 410, "link_expired", "\(operation.name) with a link already used",
                evidence: [first])
            if operation == .verifyEmailLink { try await withdrawnLinks(context) }
            try await expectLifetime(context, operation, road.lifetime, gone: 410, "link_expired")
        },
        Check(
            .linkUnknown, "A link nobody issued, or one of another purpose or account, answers 404 link_not_found",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let road = try await LinkRoad.open(operation, context)
            let never = try await context.expect(
                await road.open("conform-no-such-link"), 404, "link_not_found",
                "\(operation.name) with a token never issued")
            guard operation != .inspectLink else { return }
            let other = try await linkOfAnotherPurpose(operation, context)
            try await context.expect(
                await road.open(other), 404, "link_not_found", "\(operation.name) with a live link of another purpose",
                evidence: [never])
            if operation == .reauthEmailConfirm {
                let theirs = try await LinkRoad.open(.reauthEmailConfirm, context).fresh()
                try await context.expect(
                    await road.open(theirs), 404, "link_not_found", "a re-auth link of another account",
                    evidence: [never])
            }
        },
        Check(
            .linkSuperseded, "A link a newer one of its kind replaced answers 410 link_superseded",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown + LinkLifetimes.registration)
        ) { context, operation in
            let road = try await LinkRoad.open(operation, context)
            guard let newer = road.newer else { throw CheckStop.cannotTell("\(operation.name): no newer link") }
            let first = try await road.fresh()
            let second = try await newer()
            let replaced = try await context.expect(
                await road.open(first), 410, "link_superseded", "\(operation.name) with the link a newer one replaced")
            try await context.expect(
                await road.open(second), road.live, nil, "\(operation.name) with the newer link", evidence: [replaced])
            // A link replaced once its time had run out answers as expired, not replaced.
            let late = try await LinkRoad.open(operation, context)
            let stale = try await late.fresh()
            try await context.pass(late.lifetime + 1)
            _ = try await late.newer?()
            try await context.expect(
                await late.open(stale), 410, "link_expired",
                "\(operation.name) with a link replaced after its lifetime",
                evidence: [replaced])
        },
        Check(
            .recoveryLinkUnknown, "A recovery link nobody issued answers 404 link_not_found",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context, operation in
            let road = try await LinkRoad.open(operation, context)
            try await context.expect(
                await road.open("conform-no-such-link"), 404, "link_not_found",
                "\(operation.name) with a recovery link never issued")
        },
        Check(
            .recoveryLinkExpired, "A recovery link works once and for its \(time(LinkLifetimes.recovery))",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown + LinkLifetimes.recovery)
        ) { context, operation in
            let road = try await LinkRoad.open(operation, context)
            let used = try await road.fresh()
            let first = try await context.setup(await road.spend(used), 200, doing: "recovering with the link")
            try await context.expect(
                await road.open(used), 410, "link_expired", "\(operation.name) with a recovery link already used",
                evidence: [first])
            try await expectLifetime(context, operation, road.lifetime, gone: 410, "link_expired")
        },
    ]

    /// Two links of the kind `operation` takes, sent at the same moment to two accounts: one works 1 s before its
    /// lifetime ends, the other not 1 s after.
    static func expectLifetime(
        _ context: CheckContext, _ operation: ContractOperation, _ lifetime: TimeInterval, gone status: Int,
        _ code: String
    ) async throws {
        let early = try await LinkRoad.open(operation, context)
        let late = try await LinkRoad.open(operation, context)
        // One wait for both roads' setup sends, so the two links go out at the same moment.
        try await context.pass(SendLimits.cooldown)
        let earlyLink = try await early.send(false)
        let lateLink = try await late.send(false)
        try await context.pass(lifetime - 1)
        let live = try await context.expect(
            await early.open(earlyLink), early.live, nil, "\(operation.name) 1 s before the link's lifetime ends")
        try await context.pass(2)
        try await context.expect(
            await late.open(lateLink), status, code, "\(operation.name) 1 s after the link's lifetime ended",
            evidence: [live])
    }

    /// A revert ends the changes still pending, and a deletion the account's pending links (link.expired,
    /// "withdrawn"): their links answer 410.
    static func withdrawnLinks(_ context: CheckContext) async throws {
        let account = try await context.newAccount(.email)
        let old = account.destination
        try await changeEmail(context, account, to: context.freshEmail())
        let revert = try await context.messages.latest(.link, to: old)
        try await context.pass(SendLimits.cooldown)
        let pendingAddress = context.freshEmail()
        try await context.setup(
            await context.http.post("/auth/email/request-change", ["email": pendingAddress], token: account.access),
            202, doing: "asking for another change")
        let pending = try await context.messages.latest(.link, to: pendingAddress)
        let reverted = try await context.setup(
            await context.http.post("/auth/email/revert", ["token": revert]), 200, doing: "reverting the change")
        try await context.expect(
            await context.http.post("/auth/email/verify", ["token": pending]), 410, "link_expired",
            "the link of a change pending when the revert came", evidence: [reverted])
        let leaving = try await context.newAccount()
        let grant = try await context.grant(leaving)
        let added = context.freshEmail()
        try await context.setup(
            await context.http.post(
                "/auth/email/add-with-password", ["email": added, "password": freshPassword()],
                token: leaving.access, reauth: grant), 202, doing: "adding an email")
        let link = try await context.messages.latest(.link, to: added)
        let deleted = try await context.setup(
            await context.http.send("DELETE", "/me", token: leaving.access, reauth: grant), 200,
            doing: "deleting the account")
        context.deleted(leaving.destination)
        try await context.expect(
            await context.http.post("/auth/email/verify", ["token": link]), 410, "link_expired",
            "the link an account deleted left pending", evidence: [deleted])
    }
}

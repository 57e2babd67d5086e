import AccessCore
import Foundation

/// One change behind "Verify it's you", set up so that only its grant can stand in its way: an account with
/// another method to verify with than the one the change touches, and a request the contract takes. `send(nil)`
/// sends it without `X-Reauth-Token`.
struct ReauthRoad: Sendable {
    let operation: ContractOperation
    /// The status of the change once verified.
    let done: Int
    /// A grant by another method than the one the change touches.
    let grant: @Sendable () async throws -> String
    /// A grant by the very method the change touches; nil where the change touches none.
    let byTarget: (@Sendable () async throws -> String)?
    let send: @Sendable (_ grant: String?) async throws -> Exchange

    static func open(_ operation: ContractOperation, _ context: CheckContext) async throws -> ReauthRoad {
        switch operation {
        case .requestOtp, .verifyOtp:
            let (account, phone) = try await Catalogue.phoneAndEmail(context)
            let byPhone: @Sendable () async throws -> String = {
                try await context.grant(
                    Account(
                        destination: phone, channel: .phone, access: account.access, refresh: account.refresh,
                        created: false))
            }
            if operation == .requestOtp {
                return ReauthRoad(
                    operation: operation, done: 202, grant: { try await context.grant(account) }, byTarget: byPhone,
                    send: { grant in
                        try await Catalogue.requestOTP(
                            context, account, context.freshPhone(), "change_phone", reauth: grant)
                    })
            }
            // A change_phone code asked with a grant; it is the verification that must show one again.
            let newPhone = context.freshPhone()
            let asked = try await context.setup(
                await Catalogue.requestOTP(context, account, newPhone, "change_phone", reauth: context.grant(account)),
                202,
                doing: "asking for a code to a new number")
            guard let id = asked.object?["request_id"] as? String else {
                throw CheckStop.cannotTell("the code answer has no request_id")
            }
            let code = try await context.messages.latest(.code, to: newPhone)
            return ReauthRoad(
                operation: operation, done: 200, grant: { try await context.grant(account) }, byTarget: byPhone,
                send: { grant in
                    try await context.http.post(
                        "/auth/phone/verify-otp", ["request_id": id, "code": code], token: account.access, reauth: grant
                    )
                })
        case .disconnectProvider:
            try context.needsProviderTokens()
            let account = try await context.newAccount()
            let subject = Catalogue.freshSubject()
            try await context.setup(
                await Catalogue.connectGoogle(context, account, subject: subject, reauth: context.grant(account)), 200,
                doing: "connecting Google")
            let byGoogle: @Sendable () async throws -> String = {
                let granted = try await context.setup(
                    await context.http.post(
                        "/auth/reauth/social",
                        ["provider": "google", "id_token": try await Catalogue.googleToken(context, subject: subject)],
                        token: account.access), 200, doing: "verifying it's you with Google")
                guard let grant = granted.object?["reauth_token"] as? String else {
                    throw CheckStop.cannotTell("the Google re-auth gave no reauth_token")
                }
                return grant
            }
            return ReauthRoad(
                operation: operation, done: 200, grant: { try await context.grant(account) }, byTarget: byGoogle,
                send: { grant in
                    try await context.http.post(
                        "/me/auth-methods/disconnect", ["provider": "google"], token: account.access, reauth: grant)
                })
        case .requestEmailChange, .changePassword:
            let (email, password) = try await Catalogue.registered(context)
            let account = try await Catalogue.signedIn(context, email, password)
            let byPassword: @Sendable () async throws -> String = {
                let granted = try await context.setup(
                    await Catalogue.passwordReauth(context, account, password), 200,
                    doing: "verifying it's you by password")
                guard let grant = granted.object?["reauth_token"] as? String else {
                    throw CheckStop.cannotTell("the password re-auth gave no reauth_token")
                }
                return grant
            }
            if operation == .requestEmailChange {
                return ReauthRoad(
                    operation: operation, done: 202, grant: byPassword, byTarget: { try await context.grant(account) },
                    send: { grant in
                        try await context.http.post(
                            "/auth/email/request-change", ["email": context.freshEmail()], token: account.access,
                            reauth: grant)
                    })
            }
            return ReauthRoad(
                operation: operation, done: 200, grant: { try await context.grant(account) }, byTarget: byPassword,
                send: { grant in
                    try await Catalogue.changePassword(context, account, Catalogue.freshPassword(), reauth: grant)
                })
        case .regenerateRecoveryCodes, .disableTwoFactor:
            let account = try await context.twoFactorAccount()
            let probe = Probe.of(operation, context)
            return ReauthRoad(
                operation: operation, done: operation == .disableTwoFactor ? 204 : 200,
                grant: { try await context.authenticatorGrant(account) }, byTarget: nil,
                send: { grant in try await probe.send(context, token: account.main.access, reauth: grant) })
        case .removePasskey:
            // An account by phone with a passkey: the phone verifies removing it, the passkey itself does not.
            let (account, passkey) = try await Catalogue.passkeyAccount(context)
            let byPasskey: @Sendable () async throws -> String = {
                var used = passkey
                let granted = try await context.setup(
                    await Catalogue.passkeyReauth(context, account, &used), 200,
                    doing: "verifying it's you with the passkey")
                guard let grant = granted.object?["reauth_token"] as? String else {
                    throw CheckStop.cannotTell("the passkey re-auth gave no reauth_token")
                }
                return grant
            }
            return ReauthRoad(
                operation: operation, done: 204, grant: { try await context.grant(account) }, byTarget: byPasskey,
                send: { grant in
                    try await context.http.send(
                        "DELETE", "/me/passkeys/\(Base64URL.encode(passkey.credentialID))", token: account.access,
                        reauth: grant)
                })
        case .deleteAccount, .signOutSession, .signOutOtherSessions, .startTwoFactorSetup:
            let account = try await context.newAccount(.email)
            let probe = Probe.of(operation, context)
            let done =
                switch operation {
                case .signOutSession: 404
                case .startTwoFactorSetup: 201
                default: 200
                }
            return ReauthRoad(
                operation: operation, done: done, grant: { try await context.grant(account) }, byTarget: nil,
                send: { grant in
                    let answer = try await probe.send(context, token: account.access, reauth: grant)
                    if operation == .deleteAccount, answer.status == 200 { context.deleted(account.destination) }
                    return answer
                })
        default:
            throw CheckStop.cannotTell("\(operation.name) is no change conform verifies")
        }
    }
}

extension Catalogue {
    /// An account signed in by email that added a phone: it has a method to verify a phone change with besides the
    /// phone itself. Returns it and its phone.
    static func phoneAndEmail(_ context: CheckContext) async throws -> (Account, String) {
        let account = try await context.newAccount(.email)
        let phone = context.freshPhone()
        let asked = try await context.setup(
            await requestOTP(context, account, phone, "add_phone", reauth: context.grant(account)), 202,
            doing: "adding a phone")
        guard let id = asked.object?["request_id"] as? String else {
            throw CheckStop.cannotTell("the code answer has no request_id")
        }
        let code = try await context.messages.latest(.code, to: phone)
        try await context.setup(await verifyOTP(context, account, id, code), 200, doing: "verifying the added phone")
        return (account, phone)
    }

    static let grantsByTarget = Check(
        .reauthGrantByTarget, "A grant by the method a change touches does not verify it; another method's does",
        needs: .init(messages: true, time: 4 * SendLimits.cooldown)
    ) { context, operation in
        let road = try await ReauthRoad.open(operation, context)
        guard let byTarget = road.byTarget else {
            throw CheckStop.cannotTell("\(operation.name) touches no method")
        }
        let refused = try await context.expect(
            await road.send(try await byTarget()), 403, "reauth_required",
            "\(operation.name) verified by the method it touches")
        try await context.expect(
            await road.send(try await road.grant()), road.done, nil, "\(operation.name) verified by another method",
            evidence: [refused])
    }
}

import AccessCore
import Foundation

/// Sign-in and phone codes on every road that sends or checks them, the device a sign-in names, and the holds a
/// deleted account keeps on its phone, email and providers.
extension Catalogue {
    static let codeRoads: [Check] = signUps + codeAnswers + devices + holds

    /// Deletes `account` after Verify it's you; the check cleans up nothing of it afterwards.
    @discardableResult
    static func deleteAccount(_ context: CheckContext, _ account: Account) async throws -> Exchange {
        let grant = try await context.grant(account)
        let deleted = try await context.setup(
            await context.http.send("DELETE", "/me", token: account.access, reauth: grant), 200,
            doing: "deleting the account")
        context.deleted(account.destination)
        return deleted
    }

    /// A sign-in with a Google id token for `subject` (only the reference backend mints them).
    static func googleSignIn(
        _ context: CheckContext, subject: String, device: [String: Any] = Device.body
    )
        async throws -> Exchange
    {
        let token = try await googleToken(context, subject: subject)
        return try await context.http.post(
            "/auth/sign-in/provider", ["provider": "google", "id_token": token, "device": device])
    }

    /// The session a sign-in answer holds, kept for clean-up when it made an account.
    static func session(of answer: Exchange, _ destination: String, _ channel: Channel) throws -> Account {
        guard let session = answer.object?["session"] as? [String: Any],
            let access = session["access_token"] as? String, let refresh = session["refresh_token"] as? String
        else { throw CheckStop.broken(expected: "a session", got: "no session", evidence: [answer]) }
        return Account(destination: destination, channel: channel, access: access, refresh: refresh, created: false)
    }

    static let signUps: [Check] = [
        Check(
            .signInSignedUp, "A sign-in for a new phone number or provider account makes a new athlete account",
            needs: .init(messages: true)
        ) { context, operation in
            let answer: Exchange
            if operation == .signInWithProvider {
                answer = try await googleSignIn(context, subject: freshSubject())
            } else {
                let phone = context.freshPhone()
                let id = try await context.challenge(.phone, phone)
                answer = try await context.verifySignIn(id, code: context.messages.latest(.code, to: phone))
                context.noteCreated(answer, destination: phone, channel: .phone)
            }
            try await context.expect(answer, 200, nil, "\(operation.name) for nobody's identity")
            let methods = answer.object?["auth_methods"] as? [String: Any]
            let step = (answer.object?["profile"] as? [String: Any])?["onboarding_step"] as? String
            try context.require(
                answer.object?["is_new_user"] as? Bool == true && methods?["role"] as? String == "athlete"
                    && step == "profile",
                expected: "is_new_user: true, role athlete, onboarding_step profile",
                got: "is_new_user \(answer.object?["is_new_user"] ?? "absent"), role \(methods?["role"] ?? "absent"), "
                    + "onboarding_step \(step ?? "absent")", answer)
            let account = try session(of: answer, "", .phone)
            let me = try await context.expect(
                await context.http.get("/auth/me", token: account.access), 200, nil, "the new session",
                evidence: [answer])
            // The state after, not the answer: the new account is stored at onboarding's first step.
            let stored = (me.object?["profile"] as? [String: Any])?["onboarding_step"] as? String
            try context.require(
                stored == "profile", expected: "onboarding_step read back: profile",
                got: "onboarding_step: \(stored ?? "absent")", answer, me)
        },
        Check(
            .signInSignedIn, "A sign-in for an existing account signs into it with a working session",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            if operation == .signInWithProvider {
                let subject = freshSubject()
                let first = try await context.setup(
                    await googleSignIn(context, subject: subject), 200, doing: "signing up with Google")
                let again = try await context.expect(
                    await googleSignIn(context, subject: subject), 200, nil, "a Google sign-in for the same account")
                try context.require(
                    again.object?["is_new_user"] as? Bool == false
                        && (again.object?["auth_methods"] as? [String: Any])?["user_id"] as? String
                            == (first.object?["auth_methods"] as? [String: Any])?["user_id"] as? String,
                    expected: "is_new_user: false, the same user", got: "another user or a new one", again)
                return
            }
            // An account registered by password whose link was never opened: the emailed code proves the address.
            let email = context.freshEmail()
            let password = freshPassword()
            try await context.setup(await register(context, email, password), 201, doing: "registering")
            try await context.pass(SendLimits.cooldown)
            let id = try await context.challenge(.email, email)
            let answer = try await context.expect(
                await context.verifySignIn(id, code: context.messages.latest(.code, to: email)), 200, nil,
                "the right code for an existing account")
            try context.require(
                answer.object?["is_new_user"] as? Bool == false, expected: "is_new_user: false",
                got: "is_new_user: \(answer.object?["is_new_user"].map { "\($0)" } ?? "absent")", answer)
            let account = try session(of: answer, email, .email)
            context.adopt(
                Account(
                    destination: email, channel: .email, access: account.access, refresh: account.refresh, created: true
                ))
            let me = try await context.expect(
                await context.http.get("/auth/me", token: account.access), 200, nil, "the session it issued",
                evidence: [answer])
            try context.require(
                me.object?["device_id"] as? String == answer.object?["device_id"] as? String,
                expected: "GET /auth/me names the device the sign-in registered", got: "another device", me)
            try await context.expect(
                await login(context, email, password), 200, nil, "the password once a code reached the address",
                evidence: [answer])
        },
    ]

    static let codeAnswers: [Check] = [
        Check(.signInChallengeUnknown, "A sign-in code request nobody started answers 404 challenge_not_found") {
            context, operation in
            let answer =
                operation == .resendSignInCode
                ? try await context.resendSignIn("conform_no_such_challenge")
                : try await context.verifySignIn("conform_no_such_challenge", code: "123456")
            try await context.expect(
                answer, 404, "challenge_not_found", "\(operation.name) for a challenge never issued")
        },
        Check(
            .otpExpired, "A code works until its \(time(CodeRules.lifetime)) and not after, and never twice",
            needs: .init(messages: true, time: CodeRules.lifetime + 1, longestWait: CodeRules.lifetime - 1)
        ) { context, operation in
            // Two codes sent at the same moment: one verified just before the end, one just after.
            var verify: (_ which: Int, _ code: String) async throws -> Exchange
            var codes: [String] = []
            if operation == .verifySignInCode {
                let phones = [context.freshPhone(), context.freshPhone()]
                var ids: [String] = []
                for phone in phones { ids.append(try await context.challenge(.phone, phone)) }
                for phone in phones { codes.append(try await context.messages.latest(.code, to: phone)) }
                verify = { which, code in
                    let answer = try await context.verifySignIn(ids[which], code: code)
                    context.noteCreated(answer, destination: phones[which], channel: .phone)
                    return answer
                }
            } else {
                let account = try await context.newAccount(.email)
                let phones = [context.freshPhone(), context.freshPhone()]
                var ids: [String] = []
                for phone in phones {
                    let asked = try await context.setup(
                        await requestOTP(context, account, phone, "add_phone"), 202, doing: "asking for a code")
                    ids.append(asked.object?["request_id"] as? String ?? "")
                }
                for phone in phones { codes.append(try await context.messages.latest(.code, to: phone)) }
                verify = { which, code in try await verifyOTP(context, account, ids[which], code) }
            }
            try await context.pass(CodeRules.lifetime - 1)
            let kept = try await context.expect(
                await verify(0, codes[0]), 200, nil, "the right code 1 s before its \(time(CodeRules.lifetime))")
            try await context.expect(
                await verify(0, codes[0]), 410, "code_expired", "the same code again once it was used", evidence: [kept]
            )
            try await context.pass(2)
            try await context.expect(
                await verify(1, codes[1]), 410, "code_expired",
                "the right code 1 s after its \(time(CodeRules.lifetime))", evidence: [kept])
        },
        Check(
            .otpRequestUnknown, "A phone code request nobody made, or another account's, answers 404",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context, operation in
            let owner = try await context.newAccount(.email)
            let asked = try await context.setup(
                await requestOTP(context, owner, context.freshPhone(), "add_phone"), 202, doing: "asking for a code")
            let theirs = asked.object?["request_id"] as? String ?? ""
            let account = try await context.newAccount(.email)
            func send(_ id: String) async throws -> Exchange {
                switch operation {
                case .verifyOtp: return try await verifyOTP(context, account, id, "123456")
                case .cancelOtp:
                    return try await context.http.post(
                        "/auth/phone/cancel-otp", ["request_id": id], token: account.access)
                default:
                    return try await context.http.post(
                        "/auth/phone/resend-otp", ["request_id": id], token: account.access)
                }
            }
            let never = try await context.expect(
                await send("otp_conform_unknown"), 404, "otp_request_not_found",
                "\(operation.name) for a request never made")
            try await context.expect(
                await send(theirs), 404, "otp_request_not_found", "\(operation.name) for another account's request",
                evidence: [never])
        },
        Check(.phoneInvalid, "A number no country has answers 422 phone_invalid", needs: .init(messages: true)) {
            context, operation in
            if operation == .startSignInCode {
                try await context.expect(
                    await context.startSignIn(.phone, "+99912"), 422, "phone_invalid", "a sign-in code for +99912")
                return
            }
            let account = try await context.newAccount(.email)
            try await context.expect(
                await requestOTP(context, account, "+99912", "add_phone"), 422, "phone_invalid", "a code to +99912")
        },
        Check(
            .otpRequestClosed, "A used or cancelled phone code cannot be resent, nor a used one cancelled",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let account = try await context.newAccount()
            let id = try await reauthCode(context, account)
            let code = try await context.messages.latest(.code, to: account.destination)
            let used = try await context.setup(
                await verifyOTP(context, account, id, code), 200, doing: "using the code")
            try await context.pass(SendLimits.cooldown)
            if operation == .cancelOtp {
                try await context.expect(
                    await context.http.post("/auth/phone/cancel-otp", ["request_id": id], token: account.access), 410,
                    "request_closed", "cancelling a used code", evidence: [used])
                return
            }
            let usedResend = try await context.expect(
                await context.http.post("/auth/phone/resend-otp", ["request_id": id], token: account.access), 410,
                "request_closed", "a resend for a used code", evidence: [used])
            let cancelledID = try await reauthCode(context, account)
            try await context.setup(
                await context.http.post("/auth/phone/cancel-otp", ["request_id": cancelledID], token: account.access),
                200, doing: "cancelling a code")
            try await context.pass(SendLimits.cooldown)
            try await context.expect(
                await context.http.post("/auth/phone/resend-otp", ["request_id": cancelledID], token: account.access),
                410,
                "request_closed", "a resend for a cancelled code", evidence: [usedResend])
        },
        Check(
            .phoneTaken, "A number another account has answers 409 phone_taken, asked or verified",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context, operation in
            let account = try await context.newAccount(.email)
            if operation == .requestOtp {
                let owner = try await context.newAccount()
                try await context.expect(
                    await requestOTP(context, account, owner.destination, "add_phone"), 409, "phone_taken",
                    "adding another account's number")
                return
            }
            // Free when asked for, taken by a sign-up before the code comes back.
            let phone = context.freshPhone()
            let asked = try await context.setup(
                await requestOTP(context, account, phone, "add_phone"), 202, doing: "adding a free number")
            let code = try await context.messages.latest(.code, to: phone)
            try await context.pass(SendLimits.cooldown)
            _ = try await context.signIn(.phone, phone)
            try await context.expect(
                await verifyOTP(context, account, asked.object?["request_id"] as? String ?? "", code), 409,
                "phone_taken",
                "the code for a number another account signed up with meanwhile", evidence: [asked])
        },
    ]

    /// A device the contract refuses: an empty name.
    static var badDevice: [String: Any] {
        var device = Device.body
        device["device_name"] = ""
        return device
    }

    static let devices: [Check] = [
        Check(
            .deviceInvalid, "A way in naming a malformed device answers 422 invalid_field",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context, operation in
            let what = "\(operation.name) naming a device with an empty name"
            switch operation {
            case .startSignInCode:
                var tooLong = Device.body
                tooLong["device_name"] = String(repeating: "d", count: RequestBounds.maxDeviceNameLength + 1)
                var badKey = Device.body
                badKey["public_key"] = Data(repeating: 7, count: RequestBounds.devicePublicKeyBytes - 1)
                    .base64EncodedString()
                let empty = try await context.expect(
                    await context.http.post(
                        "/auth/sign-in/code", ["channel": "phone", "phone": context.freshPhone(), "device": badDevice]),
                    422, "invalid_field", what)
                for (device, described) in [
                    (tooLong, "a name of \(RequestBounds.maxDeviceNameLength + 1) characters"),
                    (badKey, "a public key of \(RequestBounds.devicePublicKeyBytes - 1) bytes"),
                ] {
                    try await context.expect(
                        await context.http.post(
                            "/auth/sign-in/code", ["channel": "phone", "phone": context.freshPhone(), "device": device]),
                        422, "invalid_field", "a sign-in code naming a device with \(described)", evidence: [empty])
                }
            case .verifySignInCode:
                let phone = context.freshPhone()
                let id = try await context.challenge(.phone, phone)
                let code = try await context.messages.latest(.code, to: phone)
                let answer = try await context.http.post(
                    "/auth/sign-in/code/verify", ["challenge_id": id, "code": code, "device": badDevice])
                context.noteCreated(answer, destination: phone, channel: .phone)
                try await context.expect(answer, 422, "invalid_field", what)
            case .signInWithProvider:
                try await context.expect(
                    await googleSignIn(context, subject: freshSubject(), device: badDevice), 422, "invalid_field", what)
            case .register:
                try await context.expect(
                    await context.http.post(
                        "/auth/register",
                        ["email": context.freshEmail(), "password": freshPassword(), "device": badDevice]),
                    422, "invalid_field", what)
            case .loginWithPassword:
                let (email, password) = try await registered(context)
                try await context.expect(
                    await context.http.post(
                        "/auth/login", ["email": email, "password": password, "device": badDevice]),
                    422, "invalid_field", "\(what), the right password")
            case .startRecovery:
                try await context.expect(
                    await context.http.post(
                        "/auth/recovery/start", ["email": context.freshEmail(), "device": badDevice]),
                    422, "invalid_field", what)
            case .completeRecovery:
                let (_, password, link) = try await recoveryLink(context)
                try await context.expect(
                    await context.http.post(
                        "/auth/recovery/complete", ["token": link, "password": password, "device": badDevice]), 422,
                    "invalid_field", "\(what), a live link and the right password")
            case .passkeySignIn:
                var (_, passkey) = try await passkeyAccount(context)
                try await context.expect(
                    await passkeySignIn(context, &passkey, device: badDevice), 422, "invalid_field",
                    "\(what), a registered passkey's answer")
            case .adminSignInDevice:
                guard context.reference != nil else { throw CheckStop.skipped(referenceAPI) }
                try await context.expect(
                    await context.http.post(operation.route.path, ["device": badDevice]), 422, "invalid_field", what)
            default:
                throw CheckStop.cannotTell("\(operation.name) names no device")
            }
        }
    ]

    // MARK: hold

    static let holds: [Check] = [
        Check(
            .holdPhoneRecentlyDeleted, "A deleted account's number cannot be claimed again at once, by any road",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context, operation in
            let what = "claiming the number of an account deleted a minute ago"
            switch operation {
            case .startSignInCode, .requestOtp:
                let gone = try await context.newAccount()
                let deleted = try await deleteAccount(context, gone)
                try await context.pass(SendLimits.cooldown)
                let answer =
                    operation == .startSignInCode
                    ? try await context.startSignIn(.phone, gone.destination)
                    : try await requestOTP(context, try await context.newAccount(.email), gone.destination, "add_phone")
                try await context.expect(
                    answer, 409, "recently_deleted", "\(operation.name): \(what)", evidence: [deleted])
            case .verifySignInCode:
                // The sign-in started while the account still had the number, and is verified once it is gone.
                let gone = try await context.newAccount()
                try await context.pass(SendLimits.cooldown)
                let id = try await context.challenge(.phone, gone.destination)
                let code = try await context.messages.latest(.code, to: gone.destination)
                let deleted = try await deleteAccount(context, gone)
                let answer = try await context.verifySignIn(id, code: code)
                context.noteCreated(answer, destination: gone.destination, channel: .phone)
                try await context.expect(
                    answer, 409, "recently_deleted", "\(operation.name): \(what)", evidence: [deleted])
            default:
                // Asked while the number was free; another account took it, then deleted itself before the code came
                // back.
                let account = try await context.newAccount(.email)
                let phone = context.freshPhone()
                let asked = try await context.setup(
                    await requestOTP(context, account, phone, "add_phone"), 202, doing: "adding a free number")
                let code = try await context.messages.latest(.code, to: phone)
                let gone = try await context.newAccount(.email)
                try await context.pass(SendLimits.cooldown)
                let theirs = try await context.setup(
                    await requestOTP(context, gone, phone, "add_phone"), 202, doing: "another account adding it")
                try await context.setup(
                    await verifyOTP(
                        context, gone, theirs.object?["request_id"] as? String ?? "",
                        context.messages.latest(.code, to: phone)), 200, doing: "the other account verifying it")
                let deleted = try await deleteAccount(context, gone)
                try await context.expect(
                    await verifyOTP(context, account, asked.object?["request_id"] as? String ?? "", code), 409,
                    "recently_deleted", "\(operation.name): \(what)", evidence: [deleted])
            }
        },
        Check(
            .holdEmailRecentlyDeleted, "A deleted account's email cannot be claimed again at once, by any road",
            needs: .init(messages: true, time: 3 * SendLimits.cooldown)
        ) { context, operation in
            let what = "claiming the email of an account deleted a minute ago"
            switch operation {
            case .verifySignInCode:
                let gone = try await context.newAccount(.email)
                try await context.pass(SendLimits.cooldown)
                let id = try await context.challenge(.email, gone.destination)
                let code = try await context.messages.latest(.code, to: gone.destination)
                let deleted = try await deleteAccount(context, gone)
                let answer = try await context.verifySignIn(id, code: code)
                context.noteCreated(answer, destination: gone.destination, channel: .email)
                try await context.expect(
                    answer, 409, "recently_deleted", "\(operation.name): \(what)", evidence: [deleted])
            case .verifyEmailLink:
                // The link went out while the address was free; its new owner deleted itself before it was opened.
                let (email, link) = try await addLinkToAFreeAddress(context)
                let gone = try await context.signIn(.email, email)
                let deleted = try await deleteAccount(context, gone)
                try await context.expect(
                    await context.http.post("/auth/email/verify", ["token": link]), 409, "recently_deleted",
                    "\(operation.name): \(what)", evidence: [deleted])
            case .revertEmailChange:
                // The old address was signed up with after it was left, and that account deleted before the revert.
                let account = try await context.newAccount(.email)
                let old = account.destination
                let changed = try await changeEmail(context, account, to: context.freshEmail())
                let revert = try await context.messages.latest(.link, to: old)
                try await context.pass(SendLimits.cooldown)
                let gone = try await context.signIn(.email, old)
                let deleted = try await deleteAccount(context, gone)
                try await context.expect(
                    await context.http.post("/auth/email/revert", ["token": revert]), 409, "recently_deleted",
                    "\(operation.name): \(what)", evidence: [changed, deleted])
            default:
                let gone = try await context.newAccount(.email)
                let deleted = try await deleteAccount(context, gone)
                try await context.pass(SendLimits.cooldown)
                let email = gone.destination
                let answer: Exchange
                switch operation {
                case .startSignInCode: answer = try await context.startSignIn(.email, email)
                case .register: answer = try await register(context, email, freshPassword())
                case .setRecoveryEmail:
                    let account = try await context.newAccount()
                    try await saveProfile(context, account)
                    answer = try await context.http.post(
                        "/me/recovery-email", ["email": email, "password": freshPassword()], token: account.access)
                case .requestEmailChange:
                    let account = try await context.newAccount(.email)
                    answer = try await context.http.post(
                        "/auth/email/request-change", ["email": email], token: account.access,
                        reauth: context.grant(account))
                default:
                    let account = try await context.newAccount()
                    answer = try await context.http.post(
                        "/auth/email/add-with-password", ["email": email, "password": freshPassword()],
                        token: account.access, reauth: context.grant(account))
                }
                try await context.expect(
                    answer, 409, "recently_deleted", "\(operation.name): \(what)", evidence: [deleted])
            }
        },
        Check(
            .holdProviderRecentlyDeleted, "A deleted account's Google account cannot be claimed again at once",
            needs: providerNeeds
        ) { context, operation in
            let subject = freshSubject()
            let gone = try await context.newAccount()
            try await context.setup(
                await connectGoogle(context, gone, subject: subject, reauth: context.grant(gone)), 200,
                doing: "connecting Google")
            let deleted = try await deleteAccount(context, gone)
            let answer: Exchange
            if operation == .signInWithProvider {
                answer = try await googleSignIn(context, subject: subject)
            } else {
                let account = try await context.newAccount(.email)
                answer = try await connectGoogle(context, account, subject: subject, reauth: context.grant(account))
            }
            try await context.expect(
                answer, 409, "recently_deleted", "\(operation.name) with the deleted account's Google",
                evidence: [deleted])
        },
    ]

    /// An email-add link sent to a fresh address while it was free, the send cooldown passed: the start of the
    /// checks where the address changes hands before the link is opened (taken, or taken and deleted).
    static func addLinkToAFreeAddress(_ context: CheckContext) async throws -> (email: String, link: String) {
        let account = try await context.newAccount()
        let email = context.freshEmail()
        try await context.setup(
            await context.http.post(
                "/auth/email/add-with-password", ["email": email, "password": freshPassword()],
                token: account.access, reauth: context.grant(account)), 202, doing: "adding a free address")
        let link = try await context.messages.latest(.link, to: email)
        try await context.pass(SendLimits.cooldown)
        return (email, link)
    }

    /// Changes the email of an account signed in by email to `new` and opens the link: the old address gets its
    /// revert link. The email is all such an account verifies with, so its session stands in for Verify it's you.
    @discardableResult
    static func changeEmail(_ context: CheckContext, _ account: Account, to new: String) async throws -> Exchange {
        try await context.setup(
            await context.http.post("/auth/email/request-change", ["email": new], token: account.access), 202,
            doing: "changing the email")
        let link = try await context.messages.latest(.link, to: new)
        return try await context.setup(
            await context.http.post("/auth/email/verify", ["token": link]), 200, doing: "opening the change's link")
    }
}

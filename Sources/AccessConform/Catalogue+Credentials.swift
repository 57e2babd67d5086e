import AccessCore
import Foundation

/// Addresses, passwords and usernames on every operation that takes them.
extension Catalogue {
    static let credentialRoads: [Check] = [
        Check(
            .emailInvalid, "An address that is not one answers 422 invalid_email", needs: .init(messages: true)
        ) { context, operation in
            let bad = "not-an-address"
            let password = freshPassword()
            let answer: Exchange
            switch operation {
            case .startSignInCode: answer = try await context.startSignIn(.email, bad)
            case .register: answer = try await register(context, bad, password)
            case .resendRegistrationLink: answer = try await context.http.post("/auth/register/resend", ["email": bad])
            case .loginWithPassword: answer = try await login(context, bad, password)
            case .startRecovery: answer = try await startRecovery(context, bad)
            case .requestPasswordReset: answer = try await context.http.post("/auth/password/reset", ["email": bad])
            case .setRecoveryEmail:
                let account = try await context.newAccount()
                try await saveProfile(context, account)
                answer = try await context.http.post(
                    "/me/recovery-email", ["email": bad, "password": password], token: account.access)
            case .emailAvailable:
                answer = try await emailAvailability(context, try await context.account(), bad)
            case .requestEmailChange:
                let account = try await context.newAccount(.email)
                answer = try await context.http.post(
                    "/auth/email/request-change", ["email": bad], token: account.access)
            default:
                let account = try await context.newAccount()
                answer = try await context.http.post(
                    "/auth/email/add-with-password", ["email": bad, "password": password], token: account.access,
                    reauth: context.grant(account))
            }
            try await context.expect(answer, 422, "invalid_email", "\(operation.name) with the address \(bad)")
        },
        Check(
            .emailTaken, "An address another account has is taken, whenever it is asked for",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            switch operation {
            case .emailAvailable:
                let owner = try await context.newAccount(.email)
                let answer = try await context.expect(
                    await emailAvailability(context, try await context.newAccount(), owner.destination.uppercased()),
                    200,
                    nil, "another account's address, upper-cased")
                try context.require(
                    answer.object?["available"] as? Bool == false, expected: "available: false",
                    got: "available: \(answer.object?["available"].map { "\($0)" } ?? "absent")", answer)
            case .verifyEmailLink:
                // Free when the link went out, taken by a sign-up before it was opened.
                let (email, link) = try await addLinkToAFreeAddress(context)
                _ = try await context.signIn(.email, email)
                try await context.expect(
                    await context.http.post("/auth/email/verify", ["token": link]), 409, "email_taken",
                    "the link of an address another account signed up with meanwhile")
            case .revertEmailChange:
                // The old address was taken by a sign-up before the revert.
                let account = try await context.newAccount(.email)
                let old = account.destination
                try await changeEmail(context, account, to: context.freshEmail())
                let revert = try await context.messages.latest(.link, to: old)
                try await context.pass(SendLimits.cooldown)
                _ = try await context.signIn(.email, old)
                try await context.expect(
                    await context.http.post("/auth/email/revert", ["token": revert]), 409, "email_taken",
                    "a revert to an address another account signed up with meanwhile")
            default:
                let owner = try await context.newAccount(.email)
                let answer: Exchange
                switch operation {
                case .requestEmailChange:
                    let account = try await context.newAccount(.email)
                    answer = try await context.http.post(
                        "/auth/email/request-change", ["email": owner.destination], token: account.access)
                case .setRecoveryEmail:
                    let account = try await context.newAccount()
                    try await saveProfile(context, account)
                    answer = try await context.http.post(
                        "/me/recovery-email", ["email": owner.destination, "password": freshPassword()],
                        token: account.access)
                default:
                    let account = try await context.newAccount()
                    answer = try await context.http.post(
                        "/auth/email/add-with-password", ["email": owner.destination, "password": freshPassword()],
                        token: account.access, reauth: context.grant(account))
                }
                try await context.expect(answer, 409, "email_taken", "\(operation.name) with another account's address")
            }
        },
        Check(
            .emailLinkSent, "The link goes to the new address, nothing changes yet, and the earlier link stops working",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let account = try await context.newAccount(operation == .requestEmailChange ? .email : .phone)
            let grant = try await context.grant(account)
            func send(_ email: String) async throws -> Exchange {
                operation == .requestEmailChange
                    ? try await context.http.post(
                        "/auth/email/request-change", ["email": email], token: account.access, reauth: grant)
                    : try await context.http.post(
                        "/auth/email/add-with-password", ["email": email, "password": freshPassword()],
                        token: account.access, reauth: grant)
            }
            let first = context.freshEmail()
            let sent = try await context.expect(await send(first), 202, nil, "\(operation.name) to a new address")
            let firstLink = try await context.messages.latest(.link, to: first)
            let methods = try await context.expect(
                await context.http.get("/me/auth-methods", token: account.access), 200, nil, "the methods afterwards",
                evidence: [sent])
            let email = methods.object?["email"] as? String
            let unchanged = operation == .requestEmailChange ? email?.lowercased() == account.destination : email == nil
            try context.require(
                unchanged, expected: "the email as it was until the link is opened",
                got: "email: \(email == nil ? "none" : email == first ? "the new address" : "another")", methods)
            try await context.pass(SendLimits.cooldown)
            let second = context.freshEmail()
            let again = try await context.setup(await send(second), 202, doing: "a second \(operation.name)")
            try await context.expect(
                await context.http.post("/auth/email/verify", ["token": firstLink]), 410, nil,
                "the first link once a second was sent", evidence: [again])
        },
        Check(
            .passwordInvalid, "A password that breaks the rules, or is the current one, answers 422 password_invalid",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let weak = "12345678"
            func expectRefused(_ answer: Exchange, _ what: String, rules: Int = 1) async throws -> Exchange {
                let refused = try await context.expect(answer, 422, "password_invalid", what)
                let errors = refused.errorMember?["errors"] as? [Any]
                try context.require(
                    (errors?.count ?? 0) >= rules, expected: "every broken rule in errors (\(rules) at least)",
                    got: "\(errors?.count ?? 0) in errors", refused)
                return refused
            }
            switch operation {
            case .register:
                let email = context.freshEmail()
                let local = String(email.prefix { $0 != "@" })
                for (password, rules, what) in [
                    (weak, 2, "all digits and common"), ("Tq9!a", 1, "shorter than \(PasswordRules.minimumLength)"),
                    ("password1", 1, "a common password"), (local, 1, "the address's own name"),
                ] {
                    _ = try await expectRefused(
                        try await register(context, email, password), "registering with a password \(what)",
                        rules: rules)
                }
            case .setRecoveryEmail:
                let account = try await context.newAccount()
                try await saveProfile(context, account)
                _ = try await expectRefused(
                    try await context.http.post(
                        "/me/recovery-email", ["email": context.freshEmail(), "password": weak],
                        token: account.access), "a recovery email with the password \(weak)", rules: 2)
            case .addEmailWithPassword:
                let account = try await context.newAccount()
                _ = try await expectRefused(
                    try await context.http.post(
                        "/auth/email/add-with-password", ["email": context.freshEmail(), "password": weak],
                        token: account.access, reauth: context.grant(account)), "adding an email with \(weak)",
                    rules: 2)
            case .changePassword:
                let (account, current, grant) = try await passwordAccount(context)
                let weakAnswer = try await expectRefused(
                    try await changePassword(context, account, weak, reauth: grant), "the new password \(weak)",
                    rules: 2)
                _ = try await expectRefused(
                    try await changePassword(context, account, current, reauth: grant), "the current password again")
                _ = weakAnswer
            default:
                let (email, current) = try await registered(context)
                try await context.pass(SendLimits.cooldown)
                try await context.setup(
                    await context.http.post("/auth/password/reset", ["email": email]), 202,
                    doing: "asking for a reset link")
                let link = try await context.messages.latest(.link, to: email)
                func complete(_ password: String) async throws -> Exchange {
                    try await context.http.post(
                        "/auth/password/reset/complete", ["token": link, "new_password": password])
                }
                _ = try await expectRefused(try await complete(weak), "resetting to \(weak)", rules: 2)
                let same = try await expectRefused(try await complete(current), "resetting to the current password")
                try await context.expect(
                    await complete(freshPassword()), 200, nil, "the same link with a good password: it stayed usable",
                    evidence: [same])
            }
        },
        Check(
            .passwordTooLong, "A password over \(PasswordRules.maximumLength) characters answers 422 invalid_field",
            needs: .init(messages: true, time: 2 * SendLimits.cooldown)
        ) { context, operation in
            let long = freshPassword() + String(repeating: "x", count: PasswordRules.maximumLength)
            let answer: Exchange
            switch operation {
            case .register: answer = try await register(context, context.freshEmail(), long)
            case .loginWithPassword:
                let (email, _) = try await registered(context)
                answer = try await login(context, email, long)
            case .setRecoveryEmail:
                let account = try await context.newAccount()
                try await saveProfile(context, account)
                answer = try await context.http.post(
                    "/me/recovery-email", ["email": context.freshEmail(), "password": long], token: account.access)
            case .completeRecovery:
                let (_, _, link) = try await recoveryLink(context)
                answer = try await completeRecovery(context, link, long)
            case .addEmailWithPassword:
                let account = try await context.newAccount()
                answer = try await context.http.post(
                    "/auth/email/add-with-password", ["email": context.freshEmail(), "password": long],
                    token: account.access, reauth: context.grant(account))
            case .changePassword:
                let (account, _, grant) = try await passwordAccount(context)
                answer = try await changePassword(context, account, long, reauth: grant)
            default:
                let (email, _) = try await registered(context)
                try await context.pass(SendLimits.cooldown)
                try await context.setup(
                    await context.http.post("/auth/password/reset", ["email": email]), 202,
                    doing: "asking for a reset link")
                let link = try await context.messages.latest(.link, to: email)
                answer = try await context.http.post(
                    "/auth/password/reset/complete", ["token": link, "new_password": long])
            }
            try await context.expect(
                answer, 422, "invalid_field", "\(operation.name) with a password of \(long.count) characters")
        },
        Check(
            .usernameTaken, "A name another account saved is taken in any case; a deleted account's is free at once",
            needs: .init(messages: true, time: SendLimits.cooldown)
        ) { context, operation in
            let owner = try await context.newAccount()
            let name = freshUsername()
            let saved = try await context.setup(
                await context.http.send(
                    "PUT", "/me/profile", body: ConformHTTP.encode(["username": name]), token: owner.access), 200,
                doing: "saving a username")
            let asker = try await context.newAccount()
            if operation == .updateProfile {
                try await context.expect(
                    await context.http.send(
                        "PUT", "/me/profile", body: ConformHTTP.encode(["username": name.uppercased()]),
                        token: asker.access), 409, "username_taken", "saving another account's name, upper-cased",
                    evidence: [saved])
                return
            }
            let answer = try await context.expect(
                await availability(context, asker, name.uppercased()), 200, nil, "another account's name, upper-cased",
                evidence: [saved])
            try context.require(
                answer.object?["available"] as? Bool == false, expected: "available: false",
                got: "available: \(answer.object?["available"].map { "\($0)" } ?? "absent")", answer)
            let deleted = try await deleteAccount(context, owner)
            let free = try await context.expect(
                await availability(context, asker, name), 200, nil, "the name once its account was deleted",
                evidence: [deleted])
            try context.require(
                free.object?["available"] as? Bool == true, expected: "available: true",
                got: "available: \(free.object?["available"].map { "\($0)" } ?? "absent")", free)
        },
        Check(
            .usernameInvalid, "A name breaking the rules answers 422 with each broken rule and the bounds",
            needs: .init(messages: true)
        ) { context, operation in
            let account = try await context.account()
            let answer =
                operation == .updateProfile
                ? try await context.http.send(
                    "PUT", "/me/profile", body: ConformHTTP.encode(["username": "1a"]), token: account.access)
                : try await availability(context, account, "1a")
            let refused = try await context.expect(
                answer, 422, "username_invalid", "\(operation.name) with the name 1a")
            let errors = refused.errorMember?["errors"] as? [Any]
            let bounds = (refused.errorMember?["min"] as? Int, refused.errorMember?["max"] as? Int)
            try context.require(
                (errors?.count ?? 0) >= 2 && bounds.0 == UsernameRules.minimumLength
                    && bounds.1 == UsernameRules.maximumLength,
                expected:
                    "both broken rules in errors, min \(UsernameRules.minimumLength), max \(UsernameRules.maximumLength)",
                got: "\(errors?.count ?? 0) errors, min \(bounds.0.map(String.init) ?? "absent"), "
                    + "max \(bounds.1.map(String.init) ?? "absent")", refused)
        },
    ]
}

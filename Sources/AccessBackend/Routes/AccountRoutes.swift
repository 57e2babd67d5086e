import AccessAPI
import Hummingbird

/// The contract routes of this wave (DESIGN §5).
extension Backend {
    func addAccountRoutes(to router: Router<AppContext>) {
        router.get("/health") { _, _ in try JSONReply.make(HealthStatus()) }

        router.get("/me/auth-methods") { request, _ in
            let user = try await sessions.authenticate(request)
            return try JSONReply.make(user.authMethods)
        }

        router.post("/me/auth-methods/disconnect") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(DisconnectBody.self, from: request)
            let methods = try await disconnects.disconnect(
                user: user, provider: body.provider, reauthToken: ReauthService.token(from: request))
            context.decision.set("disconnect.done")
            return try JSONReply.make(methods)
        }

        router.post("/auth/refresh") { request, _ in
            let body = try await JSONBody.decode(RefreshBody.self, from: request)
            return try JSONReply.make(try await sessions.refresh(body.refreshToken))
        }

        router.post("/auth/phone/request-otp") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(RequestOTPBody.self, from: request)
            let accepted = try await otp.request(
                user: user, body: body, reauthToken: ReauthService.token(from: request))
            context.decision.set("otp.sent")
            return try JSONReply.make(accepted, status: .accepted)
        }

        router.post("/auth/phone/resend-otp") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(OTPRequestRef.self, from: request)
            context.decision.set("otp.resent")
            return try JSONReply.make(try await otp.resend(user: user, requestId: body.requestId), status: .accepted)
        }

        router.post("/auth/phone/cancel-otp") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(OTPRequestRef.self, from: request)
            context.decision.set("otp.cancelled")
            return try JSONReply.make(try await otp.cancel(user: user, requestId: body.requestId))
        }

        router.post("/auth/phone/verify-otp") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(VerifyOTPBody.self, from: request)
            let result = try await otp.verify(user: user, body: body, reauthToken: ReauthService.token(from: request))
            context.decision.set("otp.verified")
            return try JSONReply.make(result)
        }

        router.post("/auth/reauth/password") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(PasswordReauthBody.self, from: request)
            let grant = try await reauth.byPassword(user: user, password: body.password)
            context.decision.set("reauth.granted")
            return try JSONReply.make(grant)
        }

        router.post("/auth/reauth/email") { request, context in
            let user = try await sessions.authenticate(request)
            context.decision.set("link.sent")
            return try JSONReply.make(try await links.sendReauthLink(user: user), status: .accepted)
        }

        router.post("/auth/reauth/email/confirm") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(EmailLinkConfirmBody.self, from: request)
            let grant = try await links.confirmReauth(user: user, token: body.token)
            context.decision.set("reauth.granted")
            return try JSONReply.make(grant)
        }

        router.post("/auth/reauth/social") { request, context in
            let user = try await sessions.authenticate(request)
            let body = try await JSONBody.decode(SocialReauthBody.self, from: request)
            let grant = try await providers.reauth(user: user, provider: body.provider, idToken: body.idToken)
            context.decision.set("reauth.granted")
            return try JSONReply.make(grant)
        }
    }
}

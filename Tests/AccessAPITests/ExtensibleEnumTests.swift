import AccessAPI
import Foundation
import Testing

/// Issue 27: the contract's response enums are extensible. The reference backend answers, over real HTTP,
/// a value this client does not know (an endpoint fault of kind `body`), and the generated client reads the
/// answer: `known` is nil and the server's string is kept, where a closed enum failed the whole answer
/// ("The server's answer could not be read.").
@Suite struct ExtensibleEnumTests {
    static let later = "2030-01-01T00:00:00Z"

    /// `path` answers `body` (with `status`, 200 unless given) instead of running.
    static func answering(_ path: String, _ body: String, status: Int? = nil) -> FaultSettings {
        FaultSettings(endpoints: [.init(path: path, kind: .body, body: body, bodyStatus: status)])
    }

    @Test func aDeleteBlockerOfAnUnknownKindKeepsTheServersWords() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminSetFaults(
                Self.answering(
                    "/me/delete-preflight",
                    #"{"blockers":[{"kind":"open_dispute","title":"Resolve your open dispute first","message":"A dispute is open."},"#
                        + #"{"kind":"upcoming_sessions","items":[]}]}"#))
            let blockers = try await live.client.deletePreflight().blockers
            #expect(blockers.count == 2)
            #expect(blockers[0].kind.known == nil && blockers[0].kind.rawValue == "open_dispute")
            #expect(blockers[0].title == "Resolve your open dispute first")
            #expect(blockers[0].message == "A dispute is open.")
            // A known value is known, and equals the one the app builds.
            #expect(blockers[1].kind.known == .upcomingSessions)
            #expect(blockers[1].kind == .init(.upcomingSessions))
        }
    }

    @Test func anUnknownOnboardingStepAccessAndNextStepAreRead() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminSetFaults(
                Self.answering(
                    "/me/profile",
                    #"{"onboarding_step":"choose_sport","onboarding_next_step":"verify_email","email_verified":true,"#
                        + #""access":"read_only"}"#))
            let profile = try await live.client.getProfile()
            #expect(profile.onboardingStep.known == nil && profile.onboardingStep.rawValue == "choose_sport")
            #expect(profile.onboardingNextStep?.known == .verifyEmail)
            #expect(profile.access?.known == nil && profile.access?.rawValue == "read_only")
        }
    }

    @Test func anUnknownRoleInTheSignedInUserIsRead() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminSetFaults(
                Self.answering(
                    "/auth/me",
                    #"{"user_id":"usr_1","auth_methods":{"user_id":"usr_1","role":"parent","phone":null,"#
                        + #""email":"a@example.com","has_password":true,"apple_linked":false,"google_linked":false}}"#))
            let me = try await live.client.me()
            #expect(me.authMethods.role.known == nil && me.authMethods.role.rawValue == "parent")
            #expect(me.authMethods.email == "a@example.com")
        }
    }

    @Test func anUnknownLinkKindAndStateAreRead() async throws {
        try await withLiveBackend(signIn: false) { live in
            _ = try await live.client.adminSetFaults(
                Self.answering(
                    "/auth/links/inspect",
                    #"{"kind":"magic_login","state":"quarantined","expires_at":"\#(Self.later)"}"#))
            let info = try await live.client.inspectLink(token: "lk_AbCdEfGhIjKlMnOpQrStUv")
            #expect(info.kind.known == nil && info.kind.rawValue == "magic_login")
            #expect(info.state.known == nil && info.state.rawValue == "quarantined")
        }
    }

    @Test func anUnknownReauthMethodIsRead() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminSetFaults(
                Self.answering(
                    "/auth/reauth/password",
                    #"{"reauth_token":"ra_fixture","expires_at":"\#(Self.later)","method":"security_key"}"#))
            let grant = try await live.client.reauthPassword(password: "anything-at-all")
            #expect(grant.method.known == nil && grant.method.rawValue == "security_key")
        }
    }

    @Test func anUnknownSignInChannelIsRead() async throws {
        try await withLiveBackend(signIn: false) { live in
            _ = try await live.client.adminSetFaults(
                Self.answering(
                    "/auth/sign-in/code",
                    #"{"challenge_id":"ch_1","channel":"whatsapp","destination":"+995511100000","#
                        + #""expires_at":"\#(Self.later)","resend_after":"\#(Self.later)"}"#, status: 202))
            let challenge = try await live.client.startSignInCode(channel: .phone, phone: "+995511100000")
            #expect(challenge.channel.known == nil && challenge.channel.rawValue == "whatsapp")
        }
    }

    @Test func anUnknownCodePurposeIsRead() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.adminSetFaults(
                FaultSettings(endpoints: [
                    .init(
                        path: "/auth/phone/request-otp", kind: .body,
                        body: #"{"request_id":"otp_1","phone":"+995511100000","purpose":"change_region","#
                            + #""expires_at":"\#(Self.later)","resend_after":"\#(Self.later)"}"#, bodyStatus: 202),
                    .init(path: "/auth/phone/verify-otp", kind: .body, body: #"{"purpose":"change_region"}"#),
                ]))
            let accepted = try await live.client.requestOtp(phone: "+995511100000", purpose: .reauth)
            #expect(accepted.purpose.known == nil && accepted.purpose.rawValue == "change_region")
            let verified = try await live.client.verifyOtp(requestId: "otp_1", code: "123456")
            #expect(verified.purpose.known == nil && verified.purpose.rawValue == "change_region")
        }
    }

    /// The fault itself: a body that is not JSON, or a status outside 2xx, is refused (422 invalid_fault).
    @Test func aBodyFaultNeedsJSONAndA2xxStatus() async throws {
        try await withLiveBackend { live in
            for fault in [
                Components.Schemas.EndpointFault(path: "/me/profile", kind: .body),
                .init(path: "/me/profile", kind: .body, body: "{not json"),
                .init(path: "/me/profile", kind: .body, body: "{}", bodyStatus: 404),
            ] {
                let error = await apiError { try await live.client.adminSetFaults(FaultSettings(endpoints: [fault])) }
                guard case .server(422, "invalid_fault", _)? = error else {
                    Issue.record("expected 422 invalid_fault for \(fault), got \(String(describing: error))")
                    continue
                }
            }
            // Refused, so nothing was applied: the profile answers as the backend keeps it.
            let step = try await live.client.getProfile().onboardingStep
            #expect(step.known == .complete)
        }
    }
}

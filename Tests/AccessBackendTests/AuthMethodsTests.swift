import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// `GET /me/auth-methods` reflects the scenario's user.
@Suite struct AuthMethodsTests {
    @Test func defaultAthleteHasEveryMethod() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let now = try await backend.get("/_admin/clock").decode(ClockState.self).now
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.userId == "usr_athlete")
            #expect(methods.role.known == .athlete)
            #expect(methods.phone == "+995511100000")
            #expect(methods.email == "jdoe@mail.com")
            #expect(methods.hasPassword)
            #expect(methods.appleLinked && methods.googleLinked)
            let age = try #require(methods.passwordChangedAt).distance(to: now)
            #expect(abs(age - 61 * 86400) < 1)
        }
    }

    @Test(
        arguments: [
            ("phone-only", "+995511100000", false, false, false, UserRole.athlete),
            ("apple-only", nil, false, true, false, .athlete),
            ("email-only", nil, true, false, false, .athlete),
            ("no-phone", nil, true, false, true, .athlete),
            ("coach", "+995511100000", true, false, true, .coach),
        ] as [(String, String?, Bool, Bool, Bool, UserRole)])
    func scenariosShapeTheHub(
        scenario: String, phone: String?, hasPassword: Bool, apple: Bool, google: Bool, role: UserRole
    ) async throws {
        try await TestBackend.with(scenario: scenario) { backend in
            let token = try await backend.signIn().accessToken
            let methods: AuthMethods = try await backend.get("/me/auth-methods", token: token).decode()
            #expect(methods.phone == phone)
            #expect(methods.hasPassword == hasPassword)
            #expect(methods.appleLinked == apple)
            #expect(methods.googleLinked == google)
            #expect(methods.role.known == role)
        }
    }

    /// Seed 000's shape on the wire: every field present, an unset phone or email an explicit
    /// `null`. The generated encoder alone would leave them out (generator issue 934).
    @Test(arguments: [
        ("email-only", "phone"), ("phone-only", "email"), ("apple-only", "phone"), ("apple-only", "email"),
    ])
    func unsetPhoneOrEmailIsAnExplicitNull(scenario: String, field: String) async throws {
        try await TestBackend.with(scenario: scenario) { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await backend.get("/me/auth-methods", token: token)
            #expect(reply.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: reply.data) as? [String: Any])
            for key in ["phone", "email", "has_password", "apple_linked", "google_linked"] {
                #expect(object[key] != nil, "\(key) missing from \(String(decoding: reply.data, as: UTF8.self))")
            }
            #expect(object[field] is NSNull)
        }
    }

    /// The same shape where AuthMethods is nested: the answer of a verified phone change.
    @Test func nestedAuthMethodsKeepTheExplicitNull() async throws {
        try await TestBackend.with(scenario: "phone-only") { backend in
            let token = try await backend.signIn().accessToken
            let phone = String.georgian(4242)
            let accepted: OTPRequestAccepted = try await backend.requestOTP(phone, .changePhone, token: token).decode()
            let reply = try await backend.verify(
                accepted.requestId, try await backend.lastCode(to: phone), token: token)
            #expect(reply.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: reply.data) as? [String: Any])
            let methods = try #require(object["auth_methods"] as? [String: Any])
            #expect(methods["phone"] as? String == phone)
            #expect(methods["email"] is NSNull)
        }
    }
}

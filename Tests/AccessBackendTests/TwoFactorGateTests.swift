import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

@testable import AccessBackend

/// Until the second step passes, an aal1 session of an account with two-factor on can do nothing else (issue
/// 31): every operation of openapi.yaml that takes a session answers 403 second_factor_required, but the step
/// itself and log out. The operations come from the document, so a new one is covered the day it is added.
@Suite struct TwoFactorGateTests {
    struct Operation: CustomStringConvertible {
        var method: String
        var path: String
        var bearer: Bool
        /// The request body's schema, when it has one.
        var bodySchema: String?
        var description: String { "\(method) \(path)" }
    }

    /// Every operation of the document, read as ContractDriftTests reads it (one path per line at two spaces, its
    /// methods at four, an operation's own keys at six).
    static func operations() throws -> [Operation] {
        let text = try String(contentsOf: ContractDriftTests.document, encoding: .utf8)
        var operations: [Operation] = []
        var path: String?
        var inBody = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  \"/"), line.hasSuffix("\":") {
                path = String(line.dropFirst(3).dropLast(2))
            } else if !line.hasPrefix("  ") && !line.isEmpty {
                path = nil
            } else if let current = path, line.hasPrefix("    "), !line.hasPrefix("     "),
                line.hasSuffix(":"),
                ["get", "put", "post", "delete", "patch"].contains(
                    line.trimmingCharacters(in: .whitespaces).dropLast())
            {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                operations.append(Operation(method: method, path: current, bearer: false, bodySchema: nil))
                inBody = false
            } else if !operations.isEmpty, path != nil {
                if line == "        - bearerAuth: []" { operations[operations.count - 1].bearer = true }
                if line == "      requestBody:" { inBody = true }
                if inBody, operations[operations.count - 1].bodySchema == nil,
                    line.contains("#/components/schemas/")
                {
                    operations[operations.count - 1].bodySchema = line.split(separator: "/").last?
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
        }
        return operations
    }

    /// What an aal1 session may still call: the second step, and giving up.
    static let allowed: Set<String> = [
        "POST /auth/two-factor/verify", "POST /auth/two-factor/recovery", "POST /auth/logout",
    ]

    /// A valid body of each request schema, so the refusal is the gate's and not the body's (the contract layer
    /// reads the body before any handler runs). A new schema fails the test until it is given one here.
    static let bodies: [String: String] = [
        "DisconnectBody": #"{"provider": "apple"}"#,
        "ConnectBody": #"{"provider": "google", "id_token": "anything"}"#,
        "TwoFactorCodeBody": #"{"code": "123456"}"#,
        "RecoveryCodeBody": #"{"recovery_code": "coach-2pada"}"#,
        "ProfileBody": #"{"username": "someone"}"#,
        "RecoveryEmailBody": #"{"email": "new.address@mail.com", "password": "violet-harbor-77"}"#,
        "ContinueOnboardingBody": #"{"from": "finish"}"#,
        "RequestOTPBody": #"{"phone": "+995511300001", "purpose": "add_phone"}"#,
        "OTPRequestRef": #"{"request_id": "otp_0123456789abcdef"}"#,
        "VerifyOTPBody": #"{"request_id": "otp_0123456789abcdef", "code": "123456"}"#,
        "PasswordReauthBody": #"{"password": "correct-horse-42"}"#,
        "EmailLinkConfirmBody": #"{"token": "anything"}"#,
        "SocialReauthBody": #"{"provider": "apple", "id_token": "anything"}"#,
        "EmailChangeBody": #"{"email": "new.address@mail.com"}"#,
        "AddEmailBody": #"{"email": "new.address@mail.com", "password": "violet-harbor-77"}"#,
        "ChangePasswordBody": #"{"new_password": "violet-harbor-77"}"#,
        "PasskeyRegistrationBody": #"{"challenge_id": "pkc_1", "client_data_json": "e30", "attestation_object": "oA"}"#,
        "PasskeyRenameBody": #"{"name": "Laptop"}"#,
        "PasskeyAssertionBody":
            #"{"challenge_id": "pkc_1", "credential_id": "AA", "client_data_json": "e30", "authenticator_data": "AA", "signature": "AA"}"#,
    ]

    /// Required query parameters, by path.
    static let queries: [String: String] = [
        "/auth/username-available": "?username=someone",
        "/auth/email-available": "?email=new.address@mail.com",
    ]

    @Test func theDocumentReaderFindsTheSessionOperations() throws {
        let operations = try Self.operations()
        #expect(operations.filter(\.bearer).count >= 30)
        #expect(operations.contains { $0.description == "GET /auth/me" && $0.bearer })
        #expect(
            operations.contains {
                $0.description == "POST /me/two-factor/confirm" && $0.bodySchema == "TwoFactorCodeBody"
            })
        #expect(!operations.contains { $0.description == "POST /auth/refresh" && $0.bearer })
    }

    @Test func everySessionOperationButTheStepAndLogOutAnswers403() async throws {
        let refused = try Self.operations().filter {
            $0.bearer && !Self.allowed.contains($0.description)
        }
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            let sentBefore = try await backend.outbox().count
            for operation in refused {
                let body = try operation.bodySchema.map { schema in
                    try #require(
                        Self.bodies[schema], "\(operation): give TwoFactorGateTests.bodies a \(schema)")
                }
                let path =
                    operation.path.replacingOccurrences(of: "{id}", with: "sf_0123")
                    + (Self.queries[operation.path] ?? "")
                let reply = try await backend.send(
                    .init(rawValue: operation.method), path, raw: body.map { Data($0.utf8) }, token: token,
                    reauth: "ra_anything")
                #expect(reply.status == 403, "\(operation): \(reply.status) \(reply.error?.code ?? "")")
                #expect(reply.error?.code == "second_factor_required", "\(operation)")
                #expect(
                    reply.error?.message
                        == "Enter the code from your authenticator app to finish signing in.",
                    "\(operation)")
            }
            // Nothing was sent or changed on the way, and the session still passes its step.
            #expect(try await backend.outbox().count == sentBefore)
            let passed = try await TwoFactorFixture.verify(
                backend, try await TwoFactorFixture.code(backend), token: token)
            #expect(passed.status == 200)
        }
    }

    @Test func theRefusalIsJournaledAsTwoFactorRequired() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(try await backend.get("/me/auth-methods", token: token).status == 403)
            let journal: [JournalEntry] = try await backend.get("/_admin/journal").decode()
            #expect(journal.last { $0.path == "/me/auth-methods" }?.rule == "two_factor.required")
        }
    }
}

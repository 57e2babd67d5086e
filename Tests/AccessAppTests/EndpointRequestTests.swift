import AccessAPI
import AccessCore
import Foundation
import Testing

@testable import AccessApp

/// The requests generated from the contract (GeneratedGlue/Endpoints.swift): what a test's diff or any dump
/// of the state shows of them hides every member the contract names a secret, as the journal does
/// (`Redaction`); comparing them still compares every value.
@Suite struct EndpointRequestTests {
    static func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test func aCodeAndTheReauthTokenNeverShowInADump() {
        let verify = Endpoint.VerifyOtp(requestId: "otp_1", code: "482915", reauthToken: "ra_fixture_secret")
        for text in [
            Self.dumped(verify), Self.dumped(AnyRequest(verify)),
            Self.dumped(Effect.request(AnyRequest(verify), id: RequestID(1))),
        ] {
            #expect(text.contains("otp_1"))
            #expect(!text.contains("482915"))
            #expect(!text.contains("ra_fixture_secret"))
            #expect(text.contains(Redaction.placeholder))
        }
    }

    @Test func passwordsTokensAndIdTokensNeverShowInADump() {
        let requests: [any APIRequest] = [
            Endpoint.ReauthPassword(password: "correct-horse-42"),
            Endpoint.ChangePassword(newPassword: "correct-horse-42", reauthToken: nil),
            Endpoint.CompletePasswordReset(token: "correct-horse-42", newPassword: "correct-horse-42"),
            Endpoint.ReauthEmailConfirm(token: "correct-horse-42"),
            Endpoint.ConnectProvider(provider: .apple, idToken: "correct-horse-42"),
            Endpoint.ConfirmTwoFactorSetup(code: "correct-horse-42"),
        ]
        for request in requests {
            #expect(!Self.dumped(request).contains("correct-horse-42"), "\(type(of: request))")
        }
        #expect(
            Self.dumped(Endpoint.AddEmailWithPassword(email: "jdoe@mail.com", password: "x")).contains("jdoe@mail.com"))
    }

    @Test func hiddenInDumpsButComparedByValue() {
        #expect(
            Endpoint.VerifyOtp(requestId: "otp_1", code: "111111")
                != Endpoint.VerifyOtp(requestId: "otp_1", code: "222222"))
        #expect(
            Endpoint.VerifyOtp(requestId: "otp_1", code: "111111")
                == Endpoint.VerifyOtp(requestId: "otp_1", code: "111111"))
    }
}

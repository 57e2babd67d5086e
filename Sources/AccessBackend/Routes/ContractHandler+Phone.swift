import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `phone` operations of openapi.yaml: codes texted to a signed-in account's phone.
extension ContractHandler {
    func requestOtp(_ input: Operations.RequestOtp.Input) async throws -> Operations.RequestOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let accepted = try await backend.otp.request(
            user: session.user, access: session.access, body: body,
            reauth: try reauthProof(input.headers.xReauthToken))
        decide(.otpSent)
        return .accepted(.init(body: .json(accepted)))
    }

    func resendOtp(_ input: Operations.ResendOtp.Input) async throws -> Operations.ResendOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let accepted = try await backend.otp.resend(
            user: session.user, access: session.access, requestId: body.requestId)
        decide(.otpResent)
        return .accepted(.init(body: .json(accepted)))
    }

    func cancelOtp(_ input: Operations.CancelOtp.Input) async throws -> Operations.CancelOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let cancelled = try await backend.otp.cancel(
            user: session.user, access: session.access, requestId: body.requestId)
        decide(.otpCancelled)
        return .ok(.init(body: .json(cancelled)))
    }

    func verifyOtp(_ input: Operations.VerifyOtp.Input) async throws -> Operations.VerifyOtp.Output {
        let session = try await session
        guard case .json(let body) = input.body else { throw BackendError.badRequest("Expected JSON.") }
        let result = try await backend.otp.verify(
            user: session.user, access: session.access, accessHash: try accessHash,
            body: body, reauthToken: input.headers.xReauthToken)
        decide(.otpVerified)
        return .ok(.init(body: .json(result)))
    }
}

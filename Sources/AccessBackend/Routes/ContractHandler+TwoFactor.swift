import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import OpenAPIRuntime

/// The `two-factor` operations of openapi.yaml (issue 31). Contract commit: the routes exist and answer
/// 501 until `TwoFactorService` lands in the next commit.
extension ContractHandler {
    static let notBuiltYet = BackendError(
        .init(code: 501), "internal", "Two-factor is not built yet on this server.", rule: .httpInternal)

    func verifyTwoFactor(_ input: Operations.VerifyTwoFactor.Input) async throws -> Operations.VerifyTwoFactor.Output {
        throw Self.notBuiltYet
    }

    func useRecoveryCode(_ input: Operations.UseRecoveryCode.Input) async throws -> Operations.UseRecoveryCode.Output {
        throw Self.notBuiltYet
    }

    func getTwoFactor(_ input: Operations.GetTwoFactor.Input) async throws -> Operations.GetTwoFactor.Output {
        throw Self.notBuiltYet
    }

    func disableTwoFactor(
        _ input: Operations.DisableTwoFactor.Input
    ) async throws -> Operations.DisableTwoFactor.Output {
        throw Self.notBuiltYet
    }

    func startTwoFactorSetup(
        _ input: Operations.StartTwoFactorSetup.Input
    ) async throws -> Operations.StartTwoFactorSetup.Output {
        throw Self.notBuiltYet
    }

    func confirmTwoFactorSetup(
        _ input: Operations.ConfirmTwoFactorSetup.Input
    ) async throws -> Operations.ConfirmTwoFactorSetup.Output {
        throw Self.notBuiltYet
    }

    func regenerateRecoveryCodes(
        _ input: Operations.RegenerateRecoveryCodes.Input
    ) async throws -> Operations.RegenerateRecoveryCodes.Output {
        throw Self.notBuiltYet
    }
}

import AccessAPI
import AccessBackendTesting
import AccessCore
import ChildProcess
import Foundation
import Testing

@testable import AccessBackend

/// An independent check of the backend's codes (issue 31): Debian's `oathtool`, the OATH Toolkit's reference
/// TOTP, computes the code of the `two-factor` scenario's secret at the backend's moved clock, and the backend
/// takes it.
@Suite struct TwoFactorOathtoolTests {
    static let oathtool = ["/usr/bin/oathtool", "/usr/local/bin/oathtool"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let missing: Comment =
        "skipped: oathtool is missing; `make deps` installs Debian's oathtool (sudo apt-get install oathtool)"

    /// `oathtool --totp -b SECRET --now @UNIX`: the code an authenticator app shows at that instant.
    static func oathtoolCode(at date: Date) throws -> String {
        let outcome = try ChildProcess.run(
            try #require(oathtool),
            ["--totp", "-b", TwoFactorFixture.secret, "--now", "@\(Int(date.timeIntervalSince1970))"],
            within: .seconds(10))
        try #require(
            outcome.status == 0, "oathtool: \(String(decoding: outcome.errors, as: UTF8.self))")
        return String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: TwoFactorOathtoolTests.oathtool != nil, TwoFactorOathtoolTests.missing))
    func theBackendTakesOathtoolsCodeOnAMovedClock() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            // Three days and a bit ahead, off a step boundary: nothing here is the machine's time.
            _ = try await backend.advance(seconds: 3 * 86_400 + 17)
            let now = try await TwoFactorFixture.now(backend)
            let code = try Self.oathtoolCode(at: now)
            #expect(code.count == 6)
            let admin: TwoFactorCode = try await backend.get("/_admin/two-factor/code").decode()
            #expect(admin.code == code)
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            #expect(try await TwoFactorFixture.verify(backend, code, token: token).status == 200)
        }
    }

    /// oathtool's code of 30 s later is the next step's: the backend takes it too (drift), and refuses it two
    /// steps on.
    @Test(.enabled(if: TwoFactorOathtoolTests.oathtool != nil, TwoFactorOathtoolTests.missing))
    func oathtoolsNextCodeIsOneStepOfDrift() async throws {
        try await TestBackend.with(scenario: "two-factor") { backend in
            let now = try await TwoFactorFixture.now(backend)
            let token = try await TwoFactorFixture.logIn(backend).session.accessToken
            let twoAhead = try Self.oathtoolCode(at: now.addingTimeInterval(60))
            #expect(try await TwoFactorFixture.verify(backend, twoAhead, token: token).status == 401)
            let oneAhead = try Self.oathtoolCode(at: now.addingTimeInterval(30))
            #expect(try await TwoFactorFixture.verify(backend, oneAhead, token: token).status == 200)
        }
    }
}

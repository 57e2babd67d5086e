import AccessCore
import ChildProcess
import Foundation
import Testing

/// `accessdeck totp SECRET --at T` against Debian's oathtool (`oathtool --totp -b SECRET --now T`), the
/// reference implementation, for random secrets at times on both sides of step boundaries (issue 31).
@Suite struct TOTPCommandTests {
    static let oathtool = ["/usr/bin/oathtool", "/usr/local/bin/oathtool"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The first and last second of steps, around the epoch, now-ish, and past 2038 (a 32-bit time_t).
    static let times = [
        "1970-01-01T00:00:00Z", "1970-01-01T00:00:29Z", "1970-01-01T00:00:30Z",
        "2026-11-25T09:29:59Z", "2026-11-25T09:30:00Z", "2026-11-25T09:30:29Z", "2026-11-25T09:30:30Z",
        "2038-01-19T03:14:08Z", "2040-02-29T23:59:59Z",
    ]

    @Test(.enabled(if: oathtool != nil, "skipped: oathtool is missing; `make deps` installs Debian's oathtool"))
    func theCodeIsOathtoolsForRandomSecretsAtStepBoundaries() throws {
        let secrets = (0..<4).map { _ in TOTP.random().base32 }
        for secret in secrets {
            for time in Self.times {
                let ours = try AccessDeckBinary.run(["totp", secret, "--at", time])
                let reference = try ChildProcess.run(Self.oathtool!, ["--totp", "-b", secret, "--now", time])
                #expect(ours.status == 0, "\(time): \(ours.errors)")
                #expect(reference.status == 0)
                #expect(ours.output == String(decoding: reference.output, as: UTF8.self), "at \(time)")
                #expect(ours.output.count == 7 && ours.errors.isEmpty)
            }
        }
    }

    /// The steps of one secret change exactly on the boundary: 09:29:59 and 09:30:00 differ, 09:30:00
    /// and 09:30:29 do not (the same step), whatever the secret.
    @Test func theCodeChangesOnTheStepBoundaryOnly() throws {
        let secret = TOTP.random()
        let code = { (time: String) in try AccessDeckBinary.run(["totp", secret.base32, "--at", time]).output }
        let start = try code("2026-11-25T09:30:00Z")
        #expect(try code("2026-11-25T09:30:29Z") == start)
        #expect(start == secret.code(at: Date(timeIntervalSince1970: 1_795_599_000)) + "\n")
        #expect(try code("2026-11-25T09:29:59Z") == secret.code(atStep: 1_795_599_000 / 30 - 1) + "\n")
    }

    @Test func withoutAtItPrintsTheCodeOfNow() throws {
        let outcome = try AccessDeckBinary.run(["totp", "JBSWY3DPEHPK3PXP"])
        #expect(outcome.status == 0)
        #expect(outcome.output.count == 7 && outcome.output.dropLast().allSatisfy(\.isWholeNumber))
    }

    /// A bad secret: 64, one line saying what a Base32 key is, and the secret nowhere in the output.
    @Test(arguments: ["not base32!", "01189998819991197253", "", "JBSWY3DPEHPK3PX1"])
    func aSecretThatIsNotBase32Exits64WithoutEchoingIt(secret: String) throws {
        let outcome = try AccessDeckBinary.run(["totp", secret, "--at", "2026-11-25T09:30:00Z"])
        #expect(outcome.status == 64)
        #expect(
            outcome.errors
                == "accessdeck: the secret is not a Base32 key: letters A-Z and digits 2-7 (case, spaces and = are ignored)\n"
        )
        #expect(outcome.output.isEmpty)
        if !secret.isEmpty { #expect(!outcome.errors.contains(secret)) }
    }

    @Test func aTimeThatIsNotISO8601Exits64() throws {
        let outcome = try AccessDeckBinary.run(["totp", "JBSWY3DPEHPK3PXP", "--at", "yesterday"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.hasPrefix("accessdeck: --at takes an ISO 8601 time"))
        #expect(!outcome.errors.contains("JBSWY3DPEHPK3PXP"))
    }

    @Test func secretsAreReadWhateverTheirCaseAndSpacing() throws {
        let secret = TOTP.random()
        let grouped = try AccessDeckBinary.run([
            "totp", secret.base32Grouped.lowercased(), "--at", "2026-11-25T09:30:00Z",
        ])
        #expect(grouped.output == secret.code(at: Date(timeIntervalSince1970: 1_795_599_000)) + "\n")
    }

    /// `-` reads the secret from standard input, so it is in neither `ps` nor the shell's history.
    @Test func aDashReadsTheSecretFromStandardInput() throws {
        let secret = TOTP.random()
        let binary = try AccessDeckBinary.requireBuilt()
        let script = "printf '%s\\n' \"$0\" | \"$1\" totp - --at 2026-11-25T09:30:00Z"
        let good = try ChildProcess.run("/bin/sh", ["-c", script, secret.base32, binary])
        #expect(good.status == 0)
        #expect(
            String(decoding: good.output, as: UTF8.self) == secret.code(at: Date(timeIntervalSince1970: 1_795_599_000))
                + "\n")
        let bad = try ChildProcess.run("/bin/sh", ["-c", script, "not base32!", binary])
        #expect(bad.status == 64)
        #expect(String(decoding: bad.errors, as: UTF8.self).hasPrefix("accessdeck: the secret is not a Base32 key"))
    }
}

import AccessCore
import ArgumentParser
import Foundation

/// `accessdeck totp SECRET [--at ISO8601]`: the authenticator code of a Base32 secret now (or at a
/// time), as `oathtool --totp -b SECRET` prints it, for QA with a known secret. The secret is never
/// printed back, not even in an error; `-` reads it from standard input, out of `ps` and shell history.
struct TOTPCode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Print the 6-digit authenticator code of a Base32 secret (RFC 6238, as oathtool --totp -b).")

    @Argument(
        help:
            "The secret in Base32, as an authenticator app takes it (case, spaces and = ignored); - reads it from standard input."
    )
    var secret: String

    @Option(help: "The time to give the code for, ISO 8601 (2026-11-25T09:30:00Z); default now.")
    var at: String?

    func validate() throws {
        if let at, Self.date(at) == nil {
            throw ValidationError("--at takes an ISO 8601 time such as 2026-11-25T09:30:00Z, not '\(at)'")
        }
    }

    func run() throws {
        let text = secret == "-" ? (readLine() ?? "") : secret
        guard let totp = TOTP(base32: text) else {
            // A validation error, so it exits 64 like the other usage errors (main.swift).
            throw ValidationError(
                "the secret is not a Base32 key: letters A-Z and digits 2-7 (case, spaces and = are ignored)")
        }
        print(totp.code(at: at.flatMap(Self.date) ?? Date()))
    }

    /// An ISO 8601 time with a zone (Z or ±hh:mm), with or without fractions of a second.
    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return plain.date(from: text) ?? fractional.date(from: text)
    }
}

import Crypto
import Foundation
import Testing

/// The generated code is committed, so an edit of openapi.yaml without `make generate` would ship
/// a client and server that no longer match the document. scripts/generate-openapi.sh stamps the
/// hash of what it generated from; this compares it with the document as it is now.
@Suite struct GeneratedCodeStampTests {
    static let target = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AccessAPI")

    @Test func generatedCodeMatchesTheDocument() throws {
        var hasher = SHA256()
        for input in ["openapi.yaml", "openapi-generator-config.yaml"] {
            hasher.update(data: try Data(contentsOf: Self.target.appendingPathComponent(input)))
        }
        let current = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let stamped = try String(
            contentsOf: Self.target.appendingPathComponent("GeneratedSources/openapi.sha256"), encoding: .utf8
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(stamped == current, "openapi.yaml changed since the code was generated: run `make generate`")
    }
}

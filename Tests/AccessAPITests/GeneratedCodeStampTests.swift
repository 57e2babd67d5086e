import Crypto
import Foundation
import Testing

/// The generated code is committed, so an edit of openapi.yaml without `make generate` would ship a
/// client and server that no longer match the document, and a generator bumped in Package.swift would
/// leave code made by the old one. scripts/generate-openapi.sh stamps the hash of what it generated from
/// and the generator's version; these compare them with the document and Package.swift as they are now.
@Suite struct GeneratedCodeStampTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let target = root.appendingPathComponent("Sources/AccessAPI")

    /// "sha256 …" and "swift-openapi-generator 1.14.3", by their first word.
    static func stamp() throws -> [String: String] {
        let text = try String(
            contentsOf: target.appendingPathComponent("GeneratedSources/openapi.stamp"), encoding: .utf8)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            if words.count == 2 { fields[words[0]] = words[1] }
        }
        return fields
    }

    @Test func generatedCodeMatchesTheDocument() throws {
        var hasher = SHA256()
        for input in ["openapi.yaml", "openapi-generator-config.yaml"] {
            hasher.update(data: try Data(contentsOf: Self.target.appendingPathComponent(input)))
        }
        let current = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(
            try Self.stamp()["sha256"] == current,
            "openapi.yaml changed since the code was generated: run `make generate`")
    }

    @Test func generatedByTheGeneratorPackageSwiftPins() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pin = try #require(
            manifest.firstMatch(of: /swift-openapi-generator", exact: "([0-9.]+)"/)?.1,
            "Package.swift must pin swift-openapi-generator to an exact version")
        #expect(try Self.stamp()["swift-openapi-generator"] == String(pin), "regenerate with `make generate`")
    }
}

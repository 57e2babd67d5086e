import Crypto
import Foundation
import Testing

/// The generated code is committed, so an edit of openapi.yaml without `make generate` would ship a
/// client and server that no longer match the document, a generator bumped in Package.swift would
/// leave code made by the old one, and a hand edit of a generated file would be lost at the next
/// `make generate`. scripts/openapi-stamp.sh stamps the hash of what was generated from, the generator's
/// version and the hash of every generated file; these compare them with the files as they are now.
@Suite struct GeneratedCodeStampTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let target = root.appendingPathComponent("Sources/AccessAPI")

    /// What the generators read, in the stamp script's order.
    static let inputs = [
        "Sources/AccessAPI/openapi.yaml", "Sources/AccessAPI/openapi-generator-config.yaml",
        "Sources/AccessAPI/openapi-glue-config.yaml", "scripts/generate-glue.py", "scripts/contract-statuses.py",
        "scripts/contract-bodies.py", "scripts/openapi-document.py", "scripts/contract-responses.py",
    ]

    /// The folders that hold only generated Swift files.
    static let generatedFolders = [
        "Sources/AccessAPI/GeneratedSources", "Sources/AccessAPI/GeneratedGlue", "Sources/AccessApp/GeneratedGlue",
    ]

    static func stampLines() throws -> [[String]] {
        let text = try String(
            contentsOf: target.appendingPathComponent("GeneratedSources/openapi.stamp"), encoding: .utf8)
        return text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// "sha256 …" and "swift-openapi-generator 1.14.3", by their first word.
    static func stamp() throws -> [String: String] {
        var fields: [String: String] = [:]
        for words in try stampLines() where words.count == 2 { fields[words[0]] = words[1] }
        return fields
    }

    /// Each generated file's hash as stamped, by its path from the package's root.
    static func stampedFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for words in try stampLines() where words.count == 3 && words[0] == "file" { files[words[2]] = words[1] }
        return files
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test func generatedCodeMatchesTheDocument() throws {
        var hasher = SHA256()
        for input in Self.inputs {
            hasher.update(data: try Data(contentsOf: Self.root.appendingPathComponent(input)))
        }
        let current = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(
            try Self.stamp()["sha256"] == current,
            "openapi.yaml, a generator's configuration or script changed since the code was generated: run `make generate`"
        )
    }

    @Test func generatedByTheGeneratorPackageSwiftPins() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pin = try #require(
            manifest.firstMatch(of: /swift-openapi-generator", exact: "([0-9.]+)"/)?.1,
            "Package.swift must pin swift-openapi-generator to an exact version")
        #expect(try Self.stamp()["swift-openapi-generator"] == String(pin), "regenerate with `make generate`")
    }

    /// A generated file edited by hand would be lost, silently, at the next `make generate`.
    @Test func noGeneratedFileWasEditedByHand() throws {
        let stamped = try Self.stampedFiles()
        #expect(stamped.count > 10)
        for (path, hash) in stamped.sorted(by: { $0.key < $1.key }) {
            let data = try Data(contentsOf: Self.root.appendingPathComponent(path))
            #expect(
                Self.sha256(data) == hash,
                "\(path) is not as `make generate` wrote it: change openapi.yaml or the generator, then regenerate")
        }
    }

    /// A Swift file added by hand to a generated folder would go at the next `make generate`.
    @Test func everyFileOfTheGeneratedFoldersWasGenerated() throws {
        let stamped = Set(try Self.stampedFiles().keys)
        for folder in Self.generatedFolders {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent(folder).path)
            for name in names where name.hasSuffix(".swift") {
                #expect(stamped.contains("\(folder)/\(name)"), "\(folder)/\(name) is not stamped by `make generate`")
            }
        }
    }
}

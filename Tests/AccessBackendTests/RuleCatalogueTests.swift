import AccessBackendTesting
import AccessCore
import Foundation
import Testing

/// The backend names every rule through `Rule` (AccessCore), the catalogue the journal, the app and
/// docs/RULES.md share: no id is spelt out as a string in its sources, and no case of the catalogue is
/// one the backend never writes.
@Suite struct RuleCatalogueTests {
    static let root = TestBackend.fixtures.deletingLastPathComponent()

    /// Every Swift file of Sources/AccessBackend, by path relative to the repository.
    static func backendSources() throws -> [(path: String, text: String)] {
        let folder = root.appendingPathComponent("Sources/AccessBackend")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { url in
            (String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// A string literal that is a rule id, or that starts one by interpolation (`"rate_limit.\(limit)"`).
    static func ruleLiterals(in text: String) -> [String] {
        let ids = Set(Rule.allCases.map(\.rawValue))
        let prefixes = Set(Rule.allCases.map { $0.family.rawValue + "." })
        return text.matches(of: #/"([a-z_0-9.]+)("|\\\()/#).compactMap { match in
            let literal = String(match.output.1)
            if match.output.2 == "\"" { return ids.contains(literal) ? literal : nil }
            return prefixes.contains(literal) ? literal + "\\(…)" : nil
        }
    }

    @Test func theScannerFindsIdsWrittenAsStrings() {
        #expect(Self.ruleLiterals(in: #"decide("otp.sent")"#) == ["otp.sent"])
        #expect(Self.ruleLiterals(in: #"rule: "rate_limit.\(limit)")"#) == ["rate_limit.\\(…)"])
        #expect(Self.ruleLiterals(in: #"set("ok")"#) == ["ok"])
        #expect(Self.ruleLiterals(in: #"("device.device_name", value)"#).isEmpty)
        #expect(Self.ruleLiterals(in: #"decide(.otpSent) // `otp.sent`"#).isEmpty)
    }

    @Test func noRuleIdIsWrittenAsAString() throws {
        let sources = try Self.backendSources()
        #expect(sources.count > 40, "found only \(sources.count) files")
        for (path, text) in sources {
            let literals = Self.ruleLiterals(in: text)
            #expect(literals.isEmpty, "\(path) spells out \(literals): name the Rule case instead")
        }
    }

    /// A case nobody writes would be a rule docs/RULES.md promises and the backend does not enforce.
    @Test func everyRuleIsWrittenBySomePartOfTheBackend() throws {
        let text = try Self.backendSources().map(\.text).joined(separator: "\n")
        for rule in Rule.allCases {
            let name = "\(rule)"
            let used = text.contains(try Regex("\\.\(name)\\b"))
            #expect(used, "Rule.\(name) (\(rule.rawValue)) is written nowhere in Sources/AccessBackend")
        }
    }
}

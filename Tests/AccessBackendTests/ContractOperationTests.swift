import AccessCore
import Foundation
import Testing

/// AccessCore's `ContractOperation` (what rules are decided on, and what conform names its verdicts by) is
/// exactly openapi.yaml's operations: the same operationIds, methods and paths.
@Suite struct ContractOperationTests {
    /// `operationId → METHOD /path` of every operation of the document. Its paths sit at two spaces, methods at
    /// four and an operation's own keys at six (deeper `operationId`s are links).
    static func documentedOperations() throws -> [String: String] {
        let text = try String(contentsOf: ContractDriftTests.document, encoding: .utf8)
        var operations: [String: String] = [:]
        var path: String?
        var method: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  \"/"), line.hasSuffix("\":") {
                path = String(line.dropFirst(3).dropLast(2))
            } else if !line.hasPrefix("  ") && !line.isEmpty {
                path = nil
            } else if path != nil, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
            } else if let path, let method, line.hasPrefix("      operationId: ") {
                operations[line.split(separator: "\"")[1].description] = "\(method) \(path)"
            }
        }
        return operations
    }

    @Test func theOperationsAreTheDocumentsOwn() throws {
        let documented = try Self.documentedOperations()
        #expect(documented.count == Set(try ContractDriftTests.documentedRoutes()).count)
        let ours = Dictionary(
            uniqueKeysWithValues: ContractOperation.allCases.map {
                ($0.rawValue, "\($0.route.method) \($0.route.path)")
            })
        #expect(ours == documented)
    }

    @Test func aRequestIsMatchedToItsOperation() {
        #expect(ContractOperation.matching(method: "POST", path: "/auth/phone/resend-otp") == .resendOtp)
        #expect(ContractOperation.matching(method: "DELETE", path: "/me/sessions/ses_1") == .signOutSession)
        #expect(ContractOperation.matching(method: "DELETE", path: "/me/sessions/") == nil)
        #expect(ContractOperation.matching(method: "GET", path: "/me/two-factor") == .getTwoFactor)
        #expect(ContractOperation.matching(method: "HEAD", path: "/me/two-factor") == .getTwoFactor)
        #expect(ContractOperation.matching(method: "DELETE", path: "/me/two-factor") == .disableTwoFactor)
        #expect(ContractOperation.matching(method: "POST", path: "/auth/phone/resend") == nil)
        #expect(ContractOperation.matching(method: "PUT", path: "/auth/phone/resend-otp") == nil)
        for operation in ContractOperation.allCases {
            let path = operation.route.path.replacingOccurrences(
                of: #"\{[a-z]+\}"#, with: "x", options: .regularExpression)
            #expect(ContractOperation.matching(method: operation.route.method, path: path) == operation)
        }
    }

    /// The path alone where it is the only operation on it, the method first where another shares the path.
    @Test func anOperationIsNamedByItsPathAndItsMethodWhereThePathIsShared() {
        #expect(ContractOperation.resendOtp.name == "/auth/phone/resend-otp")
        #expect(ContractOperation.disableTwoFactor.name == "DELETE /me/two-factor")
        #expect(ContractOperation.updateProfile.name == "PUT /me/profile")
        #expect(Set(ContractOperation.allCases.map(\.name)).count == ContractOperation.allCases.count)
    }
}

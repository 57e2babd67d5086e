import Foundation
import Testing

@testable import AccessAPI

/// Issue 27: a status the contract does not list for a call, or a body that does not decode, is
/// "Invalid response from server" (seed 002) — over real HTTP against a double that answers as another
/// backend might.
@Suite struct ContractStatusesTests {
    /// The table is openapi.yaml's (scripts/contract-statuses.py writes it; `make generate` runs it).
    @Test func theTableIsTheContracts() throws {
        let spec = GeneratedCodeStampTests.root.appendingPathComponent("Sources/AccessAPI/openapi.yaml")
        let lines = try String(contentsOf: spec, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var table: [String: Set<Int>] = [:]
        var operation: String?
        var inResponses = false
        for line in lines {
            if line.hasPrefix("components:") { break }
            let trimmed = line.drop { $0 == " " }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let indent = line.count - trimmed.count
            if indent == 6, trimmed.hasPrefix("operationId:") {
                operation = trimmed.dropFirst("operationId:".count).trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                table[operation!, default: []] = []
                continue
            }
            if indent <= 6 {
                inResponses = indent == 6 && trimmed == "responses:"
                continue
            }
            if inResponses, indent == 8, let operation,
                let status = Int(trimmed.prefix { $0 != ":" }.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
            {
                table[operation, default: []].insert(status)
            }
        }
        #expect(table.count > 40)
        #expect(table == ContractStatuses.listed, "run scripts/contract-statuses.py")
    }

    @Test func aStatusTheCallDoesNotListIsAnInvalidResponse() async throws {
        try await withDouble(
            routes: { router in
                // Another backend's way of saying it does not know this session.
                router.get("/auth/me") { _, _ in
                    json(#"{"error":{"code":"not_found","message":"No such route"}}"#, status: .notFound)
                }
                router.get("/me/auth-methods") { _, _ in
                    json(#"{"error":{"code":"conflict","message":"Busy"}}"#, status: .conflict)
                }
            },
            run: { client in
                let me = await apiError { try await client.me() }
                #expect(me == .invalidResponse(status: 404))
                #expect(me?.message == "Invalid response from server. Please try again.")
                #expect(await apiError { try await client.authMethods() } == .invalidResponse(status: 409))
            })
    }

    @Test func aListedStatusAndWhatAnyServerMaySendKeepTheirKinds() {
        #expect(ContractStatuses.allows(401, for: "getMe"))
        #expect(ContractStatuses.allows(429, for: "getMe"))
        #expect(ContractStatuses.allows(500, for: "getMe"))
        #expect(ContractStatuses.allows(503, for: "getMe"))
        #expect(!ContractStatuses.allows(404, for: "getMe"))
        #expect(ContractStatuses.allows(409, for: "requestOtp"))
        #expect(!ContractStatuses.allows(409, for: "health"))
        // An operation this build does not know is not judged.
        #expect(ContractStatuses.allows(404, for: "someNewCall"))
    }
}

import AccessAPI
import AccessBackendTesting
import Foundation
import Testing

/// openapi.yaml and the routes the reference backend serves are the same set: a route added by
/// hand beside the generated ones, or an operation in the document nobody implements, fails here.
@Suite struct ContractDriftTests {
    static let document = TestBackend.fixtures.deletingLastPathComponent()
        .appendingPathComponent("Sources/AccessAPI/openapi.yaml")

    /// "METHOD /path" for every operation of the document. The document keeps one path per line
    /// at two spaces and its methods at four, which is all this reads.
    static func documentedRoutes() throws -> Set<String> {
        let text = try String(contentsOf: document, encoding: .utf8)
        var routes: Set<String> = []
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  \"/"), line.hasSuffix("\":") {
                path = String(line.dropFirst(3).dropLast(2))
            } else if !line.hasPrefix("  ") && !line.isEmpty {
                path = nil
            } else if let current = path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                    routes.insert("\(method.uppercased()) \(current)")
                }
            }
        }
        return routes
    }

    @Test func servedRoutesAreExactlyTheDocumentedOnes() async throws {
        let documented = try Self.documentedRoutes()
        #expect(documented.count >= 20, "the document reader found too few routes: \(documented.sorted())")
        try await TestBackend.with { backend in
            let served = Set(backend.running.routes)
            let undocumented = served.subtracting(documented).sorted()
            let unserved = documented.subtracting(served).sorted()
            #expect(undocumented.isEmpty, "served but not in openapi.yaml: \(undocumented)")
            #expect(unserved.isEmpty, "in openapi.yaml but not served: \(unserved)")
        }
    }

    /// The route table could list a route that still answers "No such endpoint"; this asks each
    /// documented operation over HTTP.
    @Test func everyDocumentedRouteAnswers() async throws {
        let documented = try Self.documentedRoutes()
        try await TestBackend.with { backend in
            for route in documented.sorted() {
                let parts = route.split(separator: " ", maxSplits: 1)
                let path = String(parts[1]).replacingOccurrences(of: "{provider}", with: "apple")
                let method = String(parts[0])
                let reply = try await backend.send(
                    .init(rawValue: method), path, raw: method == "POST" ? Data("{}".utf8) : nil)
                #expect(reply.status != 404 || reply.error?.code != "not_found", "\(route) is not served")
                #expect(reply.status != 405, "\(route) refuses its own method")
            }
        }
    }

    /// The handler keeps one file per tag of the document, `ContractHandler+<Tag>.swift`: each operation is
    /// written in its tag's file and nowhere else, so a reader finds an endpoint by the tag the document gives it.
    @Test func everyOperationIsHandledInItsTagsFile() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        var tagOf: [String: String] = [:]
        var operation: String?
        var inTags = false
        // An operation's own keys sit at six spaces (deeper `operationId`s are links), its tags below at eight.
        for line in text.split(separator: "\n") {
            if line.hasPrefix("      operationId: ") {
                operation = line.split(separator: "\"")[1].description
            } else if line == "      tags:" {
                inTags = true
            } else if inTags, line.hasPrefix("        - "), let current = operation, tagOf[current] == nil {
                tagOf[current] = line.split(separator: "\"")[1].description
            } else {
                inTags = false
            }
        }
        #expect(tagOf.count >= 50, "the document reader found too few operations: \(tagOf.count)")
        let routes = Self.document.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AccessBackend/Routes")
        let files = try FileManager.default.contentsOfDirectory(atPath: routes.path)
            .filter { $0.hasPrefix("ContractHandler") }
        var sources: [String: String] = [:]
        for file in files {
            sources[file] = try String(contentsOf: routes.appendingPathComponent(file), encoding: .utf8)
        }
        for (operation, tag) in tagOf.sorted(by: { $0.key < $1.key }) {
            let expected = "ContractHandler+" + tag.split(separator: "-").map(\.capitalized).joined() + ".swift"
            let holders = sources.filter { $0.value.contains("    func \(operation)(") }.keys.sorted()
            #expect(holders == [expected], "\(operation) (tag \(tag)) is handled in \(holders), not \(expected)")
        }
    }
}

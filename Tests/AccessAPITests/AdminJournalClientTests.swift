import AccessAPI
import Foundation
import OpenAPIRuntime
import Testing

/// The app reads the reference backend's journal through the generated client (the journal panel's rules):
/// since issue 29 its bodies are JSON values, and the client still reads every entry.
@Suite struct AdminJournalClientTests {
    @Test func theClientReadsEntriesWhoseBodiesAreValues() async throws {
        try await withLiveBackend { live in
            _ = try await live.client.authMethods()
            let entries = try await live.client.adminJournal(limit: 500)
            let session = try #require(entries.last { $0.path == "/_admin/session" })
            let answer = try #require(session.responseBody?.value as? [String: (any Sendable)?])
            #expect(answer["access_token"] as? String == "[redacted]")
            let methods = try #require(entries.last { $0.path == "/me/auth-methods" })
            #expect(methods.rule == "ok")
            #expect(methods.responseBody?.value is [String: (any Sendable)?])
            #expect(methods.responseBodyText == nil)
        }
    }
}

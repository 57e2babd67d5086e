import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Testing

@testable import AccessBackend

/// Issue 34 item 2: `HotReads` answers GET /me/auth-methods (and /health) without the OpenAPI runtime's generic
/// layers when the request has no Accept header or a plain JSON one; any other Accept still goes through the
/// generated route. Both must give the same answer, byte for byte, and leave the same journal entry.
@Suite struct HotReadTests {
    /// Taken by the hot read: no Accept, and the two values it recognises at a glance.
    static let hotAccepts: [String?] = [nil, "application/json", "*/*"]
    /// Left to the generated route: the runtime parses the list.
    static let generatedAccept = "application/json, text/plain;q=0.5"

    private func get(
        _ backend: TestBackend, _ path: String = "/me/auth-methods", token: String?, accept: String?
    ) async throws -> Reply {
        try await backend.send(
            .GET, path, token: token, contentType: nil, headers: accept.map { [("Accept", $0)] } ?? [])
    }

    @Test func healthTheSameBothWays() async throws {
        try await TestBackend.with { backend in
            let generated = try await get(backend, "/health", token: nil, accept: Self.generatedAccept)
            #expect(generated.status == 200)
            for accept in Self.hotAccepts {
                let hot = try await get(backend, "/health", token: nil, accept: accept)
                #expect(hot.status == generated.status && hot.data == generated.data, "Accept \(accept ?? "none")")
                for name in ["Content-Type", "Content-Length"] {
                    #expect(hot.headers[name] == generated.headers[name], "\(name), Accept \(accept ?? "none")")
                }
            }
        }
    }

    @Test(arguments: ["default", "phone-only", "email-only", "apple-only", "two-factor"])
    func sameAnswerBothWays(scenario: String) async throws {
        try await TestBackend.with(scenario: scenario) { backend in
            let token = try await backend.signIn().accessToken
            let generated = try await get(backend, token: token, accept: Self.generatedAccept)
            for accept in Self.hotAccepts {
                let hot = try await get(backend, token: token, accept: accept)
                #expect(hot.status == generated.status, "Accept \(accept ?? "none")")
                #expect(hot.data == generated.data, "Accept \(accept ?? "none")")
                for name in ["Content-Type", "Content-Length"] {
                    #expect(hot.headers[name] == generated.headers[name], "\(name), Accept \(accept ?? "none")")
                }
            }
        }
    }

    /// Refusals come from the same service call: no session, an unknown token.
    @Test(arguments: [nil, "at_unknown"] as [String?])
    func sameRefusalBothWays(token: String?) async throws {
        try await TestBackend.with { backend in
            let generated = try await get(backend, token: token, accept: Self.generatedAccept)
            #expect(generated.status == 401)
            for accept in Self.hotAccepts {
                let hot = try await get(backend, token: token, accept: accept)
                #expect(hot.status == generated.status)
                #expect(hot.data == generated.data)
            }
        }
    }

    /// An Accept that excludes JSON is still the runtime's 400, not a 200 from the hot read.
    @Test func acceptWithoutJSONIsStillRefused() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            let reply = try await get(backend, token: token, accept: "text/html")
            #expect(reply.status == 400)
            #expect(reply.error?.code == "bad_request")
        }
    }

    /// The journal keeps the same entry for both: status, rule, redacted headers and the answer's body.
    @Test func sameJournalEntryBothWays() async throws {
        try await TestBackend.with { backend in
            let token = try await backend.signIn().accessToken
            _ = try await get(backend, token: token, accept: "application/json")
            _ = try await get(backend, token: token, accept: Self.generatedAccept)
            let entries: [JournalEntry] = try await backend.get("/_admin/journal?limit=2").decode()
            try #require(entries.count == 2)
            let (hot, generated) = (entries[0], entries[1])
            #expect(hot.path == "/me/auth-methods" && generated.path == "/me/auth-methods")
            #expect(hot.status == generated.status && hot.rule == generated.rule)
            #expect(hot.responseBody == generated.responseBody)
            #expect(hot.responseBody != nil)
            let hotHeaders = try #require(hot.requestHeaders?.additionalProperties)
            let generatedHeaders = try #require(generated.requestHeaders?.additionalProperties)
            #expect(hotHeaders["authorization"] == "[redacted]")
            #expect(hotHeaders.filter { $0.key != "accept" } == generatedHeaders.filter { $0.key != "accept" })
        }
    }

    /// Every combination of the optional members, both kinds of role, and strings that need escaping.
    static let shapes: [AuthMethods] = {
        let strings: [String?] = [
            nil, "+995511100000", "jdoe@mail.com", "a/b", "quote\"here", "back\\slash", "tab\t", "é",
            // Longer than anything else in the answer together: the writer sizes its buffer from the strings.
            String(repeating: "long.name", count: 40) + "@mail.com",
        ]
        let roles: [AuthMethods.RolePayload] = [
            .init(value1: .athlete), .init(value1: .coach, value2: "coach"), .init(value2: "owner"),
        ]
        let dates: [Date?] = [nil, Date(timeIntervalSince1970: 1_790_000_000), Date(timeIntervalSince1970: 0.75)]
        var shapes: [AuthMethods] = []
        for phone in strings {
            for email in strings.reversed() {
                for role in roles {
                    for date in dates {
                        for twoFactor in [nil, true, false] as [Bool?] {
                            for passkeys in [nil, 0, 12] as [Int?] {
                                shapes.append(
                                    AuthMethods(
                                        userId: "usr_\(shapes.count % 7)", role: role, phone: phone, email: email,
                                        hasPassword: phone == nil, appleLinked: email == nil,
                                        googleLinked: twoFactor == true, passwordChangedAt: date,
                                        twoFactorEnabled: twoFactor, passkeys: passkeys))
                            }
                        }
                    }
                }
            }
        }
        return shapes
    }()

    /// `AuthMethodsJSON` writes what the generated route's encoder and `withExplicitNulls` write, byte for byte,
    /// for every shape, leaving strings that need escaping to the encoder.
    @Test func handWrittenJSONIsTheEncodersBytes() throws {
        var handWritten = 0
        for methods in Self.shapes {
            let expected = Array(AuthMethods.withExplicitNulls(try ContractEncoding.encoder.encode(methods)))
            let written = Array(try AuthMethodsJSON.encode(methods).readableBytesView)
            #expect(
                written == expected,
                "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
            if AuthMethodsJSON.written(methods) != nil { handWritten += 1 }
        }
        // Every shape whose phone and email are nil or plain (5 of the 9 each) is written by hand.
        #expect(handWritten == 5 * 5 * 3 * 3 * 3 * 3)
        // The writer knows ten members: one added to the document (and so to the generated type) fails here
        // until the writer, and the shapes above, have it too.
        let example = AuthMethods(
            userId: "usr", role: .init(value1: .athlete), hasPassword: true, appleLinked: false, googleLinked: false)
        #expect(Mirror(reflecting: example).children.count == 10)
    }

    /// The journal keeps what `AuthMethodsJSON.written` writes without the redactor's scan (`holdsNoSecret`):
    /// for every shape it writes, the scan gives the same text back.
    @Test func theRedactorLeavesWhatTheWriterWritesAsItIs() throws {
        #expect(AuthMethodsJSON.holdsNoSecret)
        var checked = 0
        for methods in Self.shapes {
            guard let written = AuthMethodsJSON.written(methods) else { continue }
            let text = String(decoding: written.readableBytesView, as: UTF8.self)
            #expect(Redaction.json(text) == text)
            checked += 1
        }
        #expect(checked == 5 * 5 * 3 * 3 * 3 * 3)
    }
}

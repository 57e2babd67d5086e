import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import AccessAPI

/// Issue 17: against a backend we did not write. Each test is one habit of another backend the
/// client must take as it comes: codes of its own, no wait on a 429, other words for a refused
/// session, fractional seconds, a clock of its own.
@Suite struct ForeignBackendTests {
    static let rotated =
        #"{"user_id":"usr_1","access_token":"at_2","access_expires_at":"2031-01-01T00:00:00.5Z","#
        + #""refresh_token":"rt_2","refresh_expires_at":"2031-01-08T00:00:00.25Z","scope":"all"}"#
    static let methods =
        #"{"user_id":"usr_1","role":"athlete","phone":"+995511100000","email":null,"has_password":true,"#
        + #""apple_linked":false,"google_linked":false,"password_changed_at":"2026-09-01T10:11:12.345678Z"}"#

    /// A well-formed number the server will not take for its own reason is not "Enter a valid
    /// phone number": its code and words come through.
    @Test func aRefusalThatIsNotMalformedInputKeepsItsCode() async throws {
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/request-otp") { _, _ in
                    json(
                        #"{"error":{"code":"phone_unchanged","message":"Same number as now.","hint":"x"}}"#,
                        status: .unprocessableContent)
                }
                router.post("/auth/phone/resend-otp") { _, _ in
                    json(#"{"error":{"code":"phone_invalid","message":"Bad digits."}}"#, status: .badRequest)
                }
                router.post("/auth/phone/cancel-otp") { _, _ in
                    json(#"{"error":{"code":"number_in_use","message":"Registered elsewhere."}}"#, status: .forbidden)
                }
            },
            run: { client in
                let unchanged = await apiError {
                    try await client.requestOtp(phone: "+995511100000", purpose: .changePhone)
                }
                #expect(unchanged == .server(status: 422, code: "phone_unchanged", message: "Same number as now."))
                let invalid = await apiError { try await client.resendOtp(requestId: "otp_1") }
                #expect(invalid == .invalid(fieldErrors: [], message: "Bad digits."))
                // "Taken" in another backend's words is not guessed from a suffix: the words are shown.
                let inUse = await apiError { try await client.cancelOtp(requestId: "otp_1") }
                #expect(inUse == .server(status: 403, code: "number_in_use", message: "Registered elsewhere."))
            })
    }

    @Test(arguments: [
        #"{"error":{"code":"invalid_token","message":"Token no good."}}"#,
        #"{"message":"Unauthorized"}"#,
        "",
    ])
    func anyRefusedSessionIsRefreshedOnceAndTheCallRetried(refusal: String) async throws {
        try await withDouble(
            routes: { router in
                router.get("/me/auth-methods") { request, _ in
                    request.headers[.authorization] == "Bearer at_2"
                        ? json(Self.methods)
                        : json(refusal, status: .unauthorized)
                }
                router.post("/auth/refresh") { _, _ in json(Self.rotated) }
            },
            run: { client in
                let methods = try await client.authMethods()
                #expect(methods.phone == "+995511100000")
                #expect(methods.passwordChangedAt != nil)
                #expect(
                    client.journal.records.map { "\($0.path) \($0.status ?? 0)" } == [
                        "/me/auth-methods 401", "/auth/refresh 200", "/me/auth-methods 200",
                    ])
            })
    }

    @Test func aRefreshRefusedInOtherWordsSignsOut() async throws {
        try await withDouble(
            routes: { router in
                router.get("/me/auth-methods") { _, _ in
                    json(#"{"error":{"code":"invalid_token","message":"No."}}"#, status: .unauthorized)
                }
                router.post("/auth/refresh") { _, _ in
                    json(#"{"error":"invalid_grant","error_description":"Expired."}"#, status: .badRequest)
                }
            },
            run: { client in
                #expect(await apiError { try await client.authMethods() } == .signedOut)
                #expect(!(await client.isSignedIn))
            })
    }

    /// A refresh that gets no answer is not a refusal: the session stays for when the backend is back.
    @Test func aRefreshThatGetsNoAnswerKeepsTheSession() async throws {
        try await withDouble(
            routes: { router in
                router.get("/me/auth-methods") { _, _ in
                    json(#"{"error":{"code":"token_expired","message":"Expired."}}"#, status: .unauthorized)
                }
                router.post("/auth/refresh") { _, _ in Response(status: .serviceUnavailable) }
            },
            run: { client in
                #expect(await apiError { try await client.authMethods() }?.isServerError == true)
                #expect(await client.isSignedIn)
            })
    }

    @Test func fractionalSecondsAndExtraFieldsAreRead() async throws {
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/request-otp") { _, _ in
                    json(
                        #"{"request_id":"r-9","phone":"+995511200300","purpose":"add_phone","#
                            + #""expires_at":"2031-01-01T00:05:00.123456Z","#
                            + #""resend_after":"2031-01-01T00:00:30.5+00:00","channel":"sms","attempt":1}"#,
                        status: .accepted)
                }
            },
            run: { client in
                let accepted = try await client.requestOtp(phone: "+995511200300", purpose: .addPhone)
                #expect(accepted.requestId == "r-9")
                #expect(
                    abs(accepted.expiresAt.timeIntervalSince1970 - 1_924_992_300.123456) < 0.001)
                #expect(abs(accepted.resendAfter.timeIntervalSince1970 - 1_924_992_030.5) < 0.001)
            })
    }

    /// The server's clock six minutes behind this machine's: its `Date` header says so, and the
    /// client's server clock follows it, so a fresh code's five minutes are five minutes.
    @Test func theServersClockIsReadFromItsDateHeader() async throws {
        // This machine's clock stands still, so the measurement does not depend on how fast the answer came.
        let local = Date(timeIntervalSince1970: 1_900_000_000)
        let behind: TimeInterval = -360
        let double = try RawHTTPDouble { _ in
            RawHTTPDouble.response(
                headers: ["Date: \(Self.httpDate(local.addingTimeInterval(behind)))"], json: #"{"status":"ok"}"#)
        }
        defer { double.stop() }
        let client = AccountClient(
            configuration: .init(baseURL: double.baseURL), sessionStore: nil,
            serverClock: ServerClock(localNow: { local }))
        #expect(client.serverClock.offsetSeconds == 0)
        #expect(client.serverClock.now() == local)
        let answered = await apiError { try await client.health() } == nil
        await client.shutdown()
        #expect(answered)
        // The header has whole seconds: the server's time was half a second past it on average.
        #expect(client.serverClock.offsetSeconds == behind + 0.5)
        #expect(client.serverClock.now() == local.addingTimeInterval(behind + 0.5))
    }

    /// A server a second ahead is in step as far as whole-second headers can tell: no correction.
    @Test func aClockWithinTheHeadersRoundingStaysAtZero() async throws {
        let local = Date(timeIntervalSince1970: 1_900_000_000)
        let double = try RawHTTPDouble { _ in
            RawHTTPDouble.response(
                headers: ["Date: \(Self.httpDate(local.addingTimeInterval(1)))"], json: #"{"status":"ok"}"#)
        }
        defer { double.stop() }
        let client = AccountClient(
            configuration: .init(baseURL: double.baseURL), sessionStore: nil,
            serverClock: ServerClock(localNow: { local }))
        var answers = 0
        for _ in 0..<3 {
            if await apiError({ try await client.health() }) == nil { answers += 1 }
        }
        await client.shutdown()
        #expect(answers == 3)
        #expect(client.serverClock.offsetSeconds == 0)
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

@Suite struct HTTPDateTests {
    @Test func anIMFFixdateIsRead() {
        let parsed = ServerClock.parse("Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(parsed == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test(arguments: ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "", "garbage"])
    func otherFormsAreIgnored(text: String) {
        #expect(ServerClock.parse(text) == nil)
    }
}

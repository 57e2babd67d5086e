import AccessAPI
import AccessCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

/// A backend that speaks the contract a little differently still gets a clear typed error out of
/// the client: never a crash, never a hang. Each test serves the odd answer from a tiny
/// Hummingbird double on 127.0.0.1.
@Suite struct ClientRobustnessTests {
    @Test func unknownFieldsAreIgnored() async throws {
        try await withDouble(
            routes: { router in
                router.get("/me/auth-methods") { _, _ in
                    json(
                        #"{"user_id":"usr_1","role":"coach","phone":null,"email":"a@example.com","has_password":true,"#
                            + #""apple_linked":false,"google_linked":true,"favourite_colour":"teal","devices":[{"id":1}]}"#
                    )
                }
            },
            run: { client in
                let methods = try await client.authMethods()
                #expect(methods.userId == "usr_1")
                #expect(methods.role.known == .coach)
                #expect(methods.phone == nil)
                #expect(methods.email == "a@example.com")
                #expect(methods.googleLinked && !methods.appleLinked)
            })
    }

    @Test func unknownFieldsInAnErrorAreIgnored() async throws {
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/request-otp") { _, _ in
                    json(
                        #"{"error":{"code":"phone_taken","message":"In use.","trace_id":"abc"},"docs":"https://x"}"#,
                        status: .conflict)
                }
            },
            run: { client in
                let error = await apiError {
                    try await client.requestOtp(phone: "+995511200300", purpose: .addPhone)
                }
                #expect(error == .taken(message: "In use."))
            })
    }

    @Test func htmlServerErrorIsATypedServerError() async throws {
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/request-otp") { _, _ in
                    var headers = HTTPFields()
                    headers[.contentType] = "text/html"
                    return Response(
                        status: .internalServerError, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: "<html><body><h1>Oops</h1></body></html>")))
                }
            },
            run: { client in
                let error = await apiError {
                    try await client.requestOtp(phone: "+995511200300", purpose: .addPhone)
                }
                #expect(error == .server(status: 500, code: "", message: OnScreenMessage.serverError.text))
            })
    }

    @Test func rateLimitWithoutRetryAfterInventsNoWait() async throws {
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/resend-otp") { _, _ in
                    json(#"{"error":{"code":"rate_limited","message":"Slow down."}}"#, status: .tooManyRequests)
                }
                router.post("/auth/phone/cancel-otp") { _, _ in
                    Response(status: .tooManyRequests)
                }
            },
            run: { client in
                let typed = await apiError { try await client.resendOtp(requestId: "otp_1") }
                #expect(typed == .rateLimited(retryAfter: nil, message: "Slow down."))
                let bare = await apiError { try await client.cancelOtp(requestId: "otp_1") }
                #expect(bare == .rateLimited(retryAfter: nil, message: APIError.tryLaterText))
            })
    }

    @Test func unknownErrorCodeKeepsTheServersMessage() async throws {
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/verify-otp") { _, _ in
                    json(
                        #"{"error":{"code":"number_quarantined","message":"That number is on hold."}}"#,
                        status: .conflict)
                }
                router.post("/auth/reauth/password") { _, _ in
                    json(
                        #"{"error":{"code":"password_expired","message":"Pick a new password."}}"#,
                        status: .unauthorized)
                }
                router.post("/auth/refresh") { _, _ in
                    json(
                        #"{"user_id":"usr_1","access_token":"at_2","access_expires_at":"2031-01-01T00:00:00Z","#
                            + #""refresh_token":"rt_2","refresh_expires_at":"2031-01-08T00:00:00Z"}"#)
                }
            },
            run: { client in
                let conflict = await apiError { try await client.verifyOtp(requestId: "otp_1", code: "123456") }
                #expect(
                    conflict == .server(status: 409, code: "number_quarantined", message: "That number is on hold."))
                // A 401 with a code this client does not know may be about the session: one refresh, one
                // retry, and then the server's own words.
                let refused = await apiError { try await client.reauthPassword(password: "whatever") }
                #expect(refused == .unauthorized(message: "Pick a new password."))
                #expect(
                    client.journal.records.suffix(3).map(\.path) == [
                        "/auth/reauth/password", "/auth/refresh", "/auth/reauth/password",
                    ])
                #expect(await client.isSignedIn)
            })
    }

    @Test func unreadableSuccessIsABadResponse() async throws {
        try await withDouble(
            routes: { router in
                router.get("/me/auth-methods") { _, _ in
                    json(
                        // A role this client does not know is read (the enum is extensible: ExtensibleEnumTests);
                        // one that is not even a string is not.
                        #"{"user_id":"usr_1","role":42,"phone":null,"email":null,"has_password":true,"#
                            + #""apple_linked":false,"google_linked":false}"#)
                }
                router.post("/auth/reauth/email") { _, _ in
                    var headers = HTTPFields()
                    headers[.contentType] = "text/html"
                    return Response(
                        status: .accepted, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "<p>sent</p>")))
                }
                // 200 where the contract says 202.
                router.post("/auth/phone/request-otp") { _, _ in json(#"{"ok":true}"#) }
            },
            run: { client in
                let undecodable = await apiError { try await client.authMethods() }
                #expect(undecodable?.isBadResponse(status: 200) == true)
                let html = await apiError { try await client.reauthEmailSend() }
                #expect(html?.isBadResponse(status: 202) == true)
                let wrongStatus = await apiError {
                    try await client.requestOtp(phone: "+995511200300", purpose: .addPhone)
                }
                #expect(wrongStatus?.isBadResponse(status: 200) == true)
            })
    }

    @Test func silentServerTimesOut() async throws {
        let (release, releaser) = AsyncStream<Void>.makeStream()
        try await withDouble(
            routes: { router in
                router.post("/auth/phone/verify-otp") { _, _ in
                    for await _ in release {}
                    return json("{}")
                }
            },
            requestTimeout: .milliseconds(300),
            run: { client in
                let error = await apiError { try await client.verifyOtp(requestId: "otp_1", code: "123456") }
                releaser.finish()
                #expect(error == .timedOut(after: .milliseconds(300)))
            })
    }

    /// A worlds list without the X-Max-Worlds header (a server older than it, or another one) is read: the
    /// header is the server's news for `conform`, not a part of the list.
    @Test func aWorldsListWithoutTheCapHeaderIsRead() async throws {
        try await withDouble(
            routes: { router in
                router.get("/_admin/worlds") { _, _ in
                    json(#"[{"name":"default","open":true,"kept":false},{"name":"qa-7","open":false,"kept":true}]"#)
                }
            },
            run: { client in
                let worlds = try await client.adminListWorlds()
                #expect(worlds.map(\.name) == ["default", "qa-7"])
            })
    }
}

extension APIError {
    fileprivate func isBadResponse(status: Int) -> Bool {
        self == .invalidResponse(status: status)
    }
}

import AccessAPI
import AccessCore
import Foundation
import Testing

/// Issue 51 item 3: the app's client meets each WireMock fault of the reference backend (over real HTTP) and
/// ends in a kind the screens already have words for — a server error, an answer it cannot take, offline — or,
/// for the slow ones, in the answer itself: never a crash, never a hang.
@Suite struct WireMockFaultClientTests {
    private typealias Fault = Components.Schemas.EndpointFault

    private func under(_ fault: Fault, _ live: LiveBackend) async throws -> Result<AuthMethods, APIError> {
        try await live.client.adminSetFaults(FaultSettings(endpoints: [fault]))
        do {
            return .success(try await live.client.authMethods())
        } catch let error as APIError {
            return .failure(error)
        }
    }

    @Test func anHTMLErrorPageIsAServerError() async throws {
        try await withLiveBackend { live in
            let result = try await under(Fault(path: "/me/auth-methods", kind: .malformed, malformed: .html), live)
            guard case .failure(let error) = result else {
                Issue.record("answered: \(result)")
                return
            }
            #expect(error.isServerError, "\(error)")
            #expect(error.message == OnScreenMessage.serverError.text)
        }
    }

    @Test func cutJSONAndWrongTypesAreAnAnswerItCannotTake() async throws {
        try await withLiveBackend { live in
            for kind in [Fault.MalformedPayload.cut, .wrongType] {
                let result = try await under(Fault(path: "/me/auth-methods", kind: .malformed, malformed: kind), live)
                guard case .failure(let error) = result else {
                    Issue.record("\(kind) answered: \(result)")
                    return
                }
                #expect(error.isInvalidResponse, "\(kind): \(error)")
                #expect(error.message == APIError.invalidResponseText)
            }
        }
    }

    @Test func aResetMidAnswerIsOffline() async throws {
        try await withLiveBackend { live in
            let result = try await under(Fault(path: "/me/auth-methods", kind: .reset), live)
            guard case .failure(let error) = result else {
                Issue.record("answered: \(result)")
                return
            }
            #expect(error.isOffline, "\(error)")
            #expect(error.message == OnScreenMessage.offline.text)
        }
    }

    @Test func aDribbledOrJitteredAnswerIsTheAnswer() async throws {
        try await withLiveBackend { live in
            let plain = try await live.client.authMethods()
            let dribbled = try await under(Fault(path: "/me/auth-methods", kind: .dribble, dribbleMs: 200), live)
            #expect(dribbled == .success(plain))
            let jittered = try await under(
                Fault(path: "/me/auth-methods", kind: .jitter, latencyMs: 1, latencyMaxMs: 20, seed: 1), live)
            #expect(jittered == .success(plain))
        }
    }
}

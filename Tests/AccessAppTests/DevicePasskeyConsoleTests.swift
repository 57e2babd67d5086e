import AccessAPI
import AccessBackendTesting
import AccessCore
import Foundation
import Logging
import Testing

@testable import AccessApp

/// Issue 53 item 3: the passkey scenarios put their passkeys on this device's authenticator, and the palette's three
/// passkey actions make their edge states for real: this device's next sign-in, a real ceremony over HTTP, is refused
/// as the state says (and, without the action, accepted).
@Suite struct DevicePasskeyConsoleTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// A client of `backend` whose authenticator is `store`, on the world of `scenario` taken by the app's own
    /// scenario switch.
    static func with(
        scenario: String, store: DevicePasskeyStore = .ephemeral(),
        _ body: (APIContext, TestBackend) async throws -> Void
    ) async throws {
        try await TestBackend.with { backend in
            var configuration = AccountClient.Configuration(baseURL: backend.running.baseURL)
            configuration.requestTimeout = .seconds(30)
            configuration.connectTimeout = .seconds(30)
            configuration.passkeys = store
            let client = AccountClient(configuration: configuration, sessionStore: nil, logger: quiet)
            do {
                let api = APIContext(client: client, cache: nil, now: backend.running.clock.now())
                _ = try await SwitchScenario(name: scenario).perform(api)
                try await body(api, backend)
            } catch {
                await client.shutdown()
                throw error
            }
            await client.shutdown()
        }
    }

    /// This device's sign-in with its passkey, as Continue with passkey makes it: the options, then the sheet's
    /// approval with the passkey the palette's actions act on.
    static func signInHere(_ api: APIContext) async throws -> Result<SignedIn, APIError> {
        let passkey = try #require(await ActOnThisDevicesPasskey.chosen(api))
        let prompt = try await PasskeySignInPrompt().perform(api)
        #expect(prompt.accounts.map(\.credentialID) == [Base64URL.encode(passkey.credentialID)])
        do {
            return .success(
                try await SignInWithDevicePasskey(
                    options: prompt.options, credentialID: Base64URL.encode(passkey.credentialID)
                ).perform(api))
        } catch let error as APIError {
            return .failure(error)
        }
    }

    static func code(_ result: Result<SignedIn, APIError>) -> String? {
        guard case .failure(.server(_, let code, _)) = result else { return nil }
        return code
    }

    @Test func aScenarioPutsItsPasskeyOnThisDeviceAndTheNextTakesItAway() async throws {
        var theirs = SoftwareAuthenticator.create(
            rpID: "example.com", origin: "https://example.com", challenge: [1], userHandle: [2], userName: "bo"
        ).passkey
        theirs.rpID = "example.com"
        let store = DevicePasskeyStore.ephemeral([theirs])
        try await Self.with(scenario: "passkey", store: store) { api, _ in
            let held = store.passkeys(forRP: PasskeyRelyingParty.referenceID)
            #expect(held.map(\.userName) == ["jdoe@mail.com"])
            #expect(held.first?.signCount == 4)
            // Without any action, this device's passkey signs its account in.
            let signedIn = try await Self.signInHere(api)
            #expect((try? signedIn.get())?.session.userId == "usr_passkey")

            _ = try await SwitchScenario(name: "default").perform(api)
            #expect(store.passkeys(forRP: PasskeyRelyingParty.referenceID).isEmpty)
            #expect(store.passkeys == [theirs])
        }
    }

    @Test func aCloneSignsInElsewhereFirstAndThisDevicesNextUseIsRefusedAsOne() async throws {
        try await Self.with(scenario: "passkey") { api, backend in
            let done = try await ActOnThisDevicesPasskey(action: .clone).perform(api)
            #expect(done == ActOnThisDevicesPasskey.clonedText)
            let verified = try await backend.get("/_admin/journal/count?path=/auth/passkey/verify&status=200")
            #expect(try verified.decode(JournalCount.self).count == 1)
            #expect(Self.code(try await Self.signInHere(api)) == "passkey_counter_went_back")
        }
    }

    @Test func removedOnTheServerOnlyThisDeviceStillHoldsItAndIsRefused() async throws {
        try await Self.with(scenario: "passkey") { api, _ in
            _ = try await ActOnThisDevicesPasskey(action: .removeOnServer).perform(api)
            #expect(api.client.configuration.passkeys.passkeys(forRP: PasskeyRelyingParty.referenceID).count == 1)
            #expect(Self.code(try await Self.signInHere(api)) == "passkey_not_found")
        }
    }

    @Test func aResetCounterIsRefusedAsAClone() async throws {
        try await Self.with(scenario: "passkey") { api, _ in
            _ = try await ActOnThisDevicesPasskey(action: .resetCounter).perform(api)
            #expect(Self.code(try await Self.signInHere(api)) == "passkey_counter_went_back")
        }
    }

    @Test func withNoPasskeyOnThisDeviceEachActionSaysSo() async throws {
        try await Self.with(scenario: "default") { api, _ in
            for action in DevicePasskeyAction.allCases {
                await #expect(
                    throws: APIError.server(
                        status: 0, code: "no_device_passkey", message: ActOnThisDevicesPasskey.noPasskeyText)
                ) {
                    try await ActOnThisDevicesPasskey(action: action).perform(api)
                }
            }
        }
    }

    @Test func thePaletteOffersEachActionAndItsAnswerIsAToast() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var state = SampleData.state([], now: now)
        let offered = CommandPalette.commands(for: state).filter {
            if case .devicePasskey = $0.action { true } else { false }
        }
        #expect(offered.map(\.title) == DevicePasskeyAction.allCases.map(\.title))
        let effects = runPaletteAction(.devicePasskey(.clone), in: &state)
        #expect(effects == [.request(ActOnThisDevicesPasskey(action: .clone), id: 1)])

        _ = receiveConsole(.devicePasskey(.clone, .failure(.server(status: 0, code: "x", message: "No."))), in: &state)
        #expect(state.toast?.message == "Not cloned: No.")
    }
}

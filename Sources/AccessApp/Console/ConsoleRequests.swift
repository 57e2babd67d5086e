import AccessAPI
import Foundation
import TerminalKit

/// Reloads the reference backend's world from a scenario, then signs in as its user as the app's start
/// does (a scenario that starts signed out leaves the app signed out: the old session went with the old
/// database either way).
struct SwitchScenario: APIRequest {
    let name: String
    /// Another tool loaded it already: only the app's part is left (what it cached goes, it signs in again).
    var alreadyLoaded = false

    func perform(_ api: APIContext) async throws -> ScenarioSwitched {
        let epoch = alreadyLoaded ? nil : try await api.client.adminLoadScenario(name: name).epoch
        api.cache?.clear()
        try await ScenarioDevicePasskeys.take(api.client)
        do {
            try await api.client.adminSignIn()
        } catch APIError.server(409, ErrorCode.signedOutScenario.rawValue, _) {
            await api.client.signOutLocally()
            return ScenarioSwitched(name: name, signedIn: nil, epoch: epoch)
        }
        let methods: AuthMethods
        do {
            methods = try await api.client.authMethods(cache: api.cache, now: api.now)
        } catch let error as APIError where error.gotNoAnswer {
            // The new world is loaded and signed in; only its data found no answer (offline, or a latency past the
            // time-out: timed out). The switch still lands: the old world's screens must not stay (issue 48 item 1).
            return ScenarioSwitched(name: name, signedIn: nil, epoch: epoch, dataUnanswered: true)
        }
        return ScenarioSwitched(
            name: name, signedIn: QASignedIn(methods: methods, profile: await QASignedIn.profile(api.client)),
            epoch: epoch)
    }
}

struct ScenarioSwitched: Equatable, Sendable {
    var name: String
    /// nil: the scenario starts signed out (or its data found no answer: `dataUnanswered`).
    var signedIn: QASignedIn?
    /// The epoch the load started (nil when another tool loaded it: the admin state told it).
    var epoch: Int64? = nil
    /// Signed in to the new world, but `GET /me/auth-methods` found no answer: the app starts over on the
    /// signed-in first screen without data, under the offline banner, whose probe fetches it once it answers.
    var dataUnanswered = false
}

/// Moves the reference backend's clock; the reply lists what fell due on the way.
struct MoveClock: APIRequest {
    let move: ClockMove

    func perform(_ api: APIContext) async throws -> ClockAdvanced {
        switch move {
        case .by(let seconds): return try await api.client.adminAdvanceClock(seconds: seconds)
        case .toNextDeadline: return try await api.client.adminAdvanceClock(to: "next_deadline")
        case .to(let date):
            let changed = try await api.client.adminSetClock(at: date)
            return ClockAdvanced(from: changed.from, now: changed.now, events: changed.events)
        case .frozen(let frozen):
            let changed = try await api.client.adminSetClock(frozen: frozen)
            return ClockAdvanced(from: changed.from, now: changed.now, events: changed.events)
        }
    }
}

/// Sets faults (only the members given) or, with `nil`, clears them all.
struct ChangeFaults: APIRequest {
    let faults: FaultSettings?

    func perform(_ api: APIContext) async throws -> FaultSettings {
        guard let faults else {
            // A refusal closes the port the admin API is on; the embedded backend is ended in process.
            await api.embedded?.endRefusal()
            return try await api.client.adminClearFaults()
        }
        return try await api.client.adminSetFaults(faults)
    }
}

/// The devices QA can sign in from (issue 30): each registers as a sign-in from it would.
public enum OtherDevice: String, CaseIterable, Equatable, Sendable {
    case iPhone, android, browser

    var name: String {
        switch self {
        case .iPhone: "QA iPhone"
        case .android: "QA Android phone"
        case .browser: "QA browser"
        }
    }

    var info: DeviceInfo {
        let (system, version) =
            switch self {
            case .iPhone: ("iOS", "18.1")
            case .android: ("Android", "15")
            case .browser: ("Firefox on macOS", "133")
            }
        // A fixed key: QA's devices encrypt nothing; the backend only checks it is 32 bytes.
        return DeviceInfo(
            deviceName: name, systemName: system, systemVersion: version, identifier: "qa-\(rawValue)",
            publicKey: Data(repeating: 1, count: 32).base64EncodedString())
    }

    var method: SessionMethod {
        switch self {
        case .iPhone: .phoneCode
        case .android: .google
        case .browser: .password
        }
    }
}

/// `POST /_admin/sessions`: the new tokens are dropped (nobody uses them here); the app sees the new row.
struct SignInOtherDevice: APIRequest {
    let device: OtherDevice

    func perform(_ api: APIContext) async throws -> String {
        try await api.client.adminSignInDevice(device: device.info, method: device.method)
        return device.name
    }
}

/// The palette's "Sign this device out from elsewhere" (issue 49 item 3): this device's sign-in (`GET /me/sessions`,
/// the current row), then `DELETE /_admin/sessions/{id}`, which ends it as another device would. The app learns of
/// it as it would for real: its next call is refused and says why.
struct SignThisDeviceOutElsewhere: APIRequest {
    static let doneText = "This device was signed out from elsewhere. Its next call will say so."

    func perform(_ api: APIContext) async throws -> String {
        guard let own = try await api.client.sessions().first(where: \.isCurrent) else {
            throw APIError.server(
                status: 0, code: "no_current_session", message: "No session of this device was found.")
        }
        try await api.client.adminSignOutSession(id: own.id)
        return own.id
    }
}

/// `GET /_admin/two-factor/code` (reference backend only): the code the scenario user's authenticator app
/// shows on the backend's clock, and how long it has left.
struct LoadAuthenticatorCode: APIRequest {
    func perform(_ api: APIContext) async throws -> AuthenticatorCode {
        let current = try await api.client.adminTwoFactorCode()
        return AuthenticatorCode(code: Secret(current.code), secondsLeft: current.secondsLeft)
    }
}

/// The palette's "Authenticator: current code": shown in a toast that recordings conceal, as they drop the
/// outbox (`AppState.concealedForRecording`).
struct AuthenticatorCode: Equatable, Sendable {
    var code: Secret
    var secondsLeft: Int

    static let toastPrefix = "Authenticator code: "
    static let toastDuration: TimeInterval = 10
    static let noTwoFactorText = "The scenario's user has no two-factor: nothing to show."

    var toastText: String { "\(Self.toastPrefix)\(code.value) · \(secondsLeft) s left" }
}

/// Issue 33: the app goes over to world `name` (nil: the default world), made first from `scenario` when one
/// is given; there it signs in as the scenario switch does. The app's requests use the world's base URL, its
/// kept session and cache from then on. A refused `POST /_admin/worlds` leaves the app where it was.
struct EnterWorld: APIRequest {
    let name: String?
    /// "New world from scenario": `POST /_admin/worlds {name, scenario}` first.
    var newFrom: String? = nil

    func perform(_ api: APIContext) async throws -> WorldEntered {
        guard let enter = api.enterWorld else {
            throw APIError.server(status: 501, code: "not_implemented", message: "This runtime cannot change worlds.")
        }
        if let name, let newFrom { try await api.client.adminCreateWorld(name, scenario: newFrom) }
        let world = await enter(name)
        // From here the app is in the new world whatever happens: a failed sign-in leaves it signed out there.
        do {
            if newFrom != nil { try await ScenarioDevicePasskeys.take(world.client) }
            try await world.client.adminSignIn()
            let methods = try await world.client.authMethods(cache: world.cache, now: world.now)
            return WorldEntered(
                name: name, signedIn: QASignedIn(methods: methods, profile: await QASignedIn.profile(world.client)))
        } catch APIError.server(409, ErrorCode.signedOutScenario.rawValue, _) {
            await world.client.signOutLocally()
            return WorldEntered(name: name, signedIn: nil)
        } catch {
            await world.client.signOutLocally()
            return WorldEntered(name: name, signedIn: nil, problem: (error as? APIError)?.message ?? "\(error)")
        }
    }
}

struct WorldEntered: Equatable, Sendable {
    /// nil: the default world.
    var name: String?
    /// nil: the world's scenario starts signed out, or signing in failed (`problem`).
    var signedIn: QASignedIn?
    var problem: String? = nil
}

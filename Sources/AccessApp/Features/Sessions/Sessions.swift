import AccessAPI
import Foundation

/// Active sessions (issue 30): every device signed in, one signed out, or every other one.
enum SessionsFeature: Feature {
    static let screens: [any ScreenModel.Type] = [ActiveSessionsScreen.self]
    static var sheetGallery: [GalleryEntry] { Sheet.sessionsGallery }
}

/// `GET /me/sessions`: this device's sign-in first, then the others, newest first; kept in the offline cache.
struct LoadSessions: APIRequest {
    func perform(_ api: APIContext) async throws -> [ActiveSession] { try await api.client.sessions(cache: api.cache) }
}

/// "Verify it's you" before signing every other device out: any method verifies it (nothing is its target).
public struct SignOutOthersFlow: SensitiveFlow {
    public init() {}

    public var target: ReauthMethod? { nil }

    public var pickerExplanation: String {
        "To sign out your other devices, confirm with one of your sign-in methods."
    }

    /// Back on the list, which sends the call with the grant it now has.
    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(ActiveSessionsScreen.self, with: .signOutOthers)]
    }
}

/// "Verify it's you" before signing one other device out, as for all of them: any method verifies it.
public struct SignOutSessionFlow: SensitiveFlow {
    /// The session's id, and its name for the picker's line.
    public var id: String
    public var deviceName: String

    public init(id: String, deviceName: String) {
        self.id = id
        self.deviceName = deviceName
    }

    public var target: ReauthMethod? { nil }

    public var pickerExplanation: String {
        "To sign out \(deviceName), confirm with one of your sign-in methods."
    }

    /// Back on the list, which sends the call with the grant it now has.
    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(ActiveSessionsScreen.self, with: .signOutSession(id: id))]
    }
}

extension AnyFlow {
    public static let signOutOthers = AnyFlow(SignOutOthersFlow())
}

extension Sheet {
    /// Enter on another device's row (this device's own is Log out, in Settings): confirmed here, then
    /// "Verify it's you" (inside its window, at once).
    static func signOutSession(_ session: ActiveSession, _ context: ScreenContext) -> Sheet {
        let name = ActiveSessionsScreen.deviceName(session)
        return Sheet(
            title: "Sign out \(name)?",
            body: "\(name) will be signed out at once and asked to sign in again. Your other devices stay signed in."
                + " You'll verify it's you first.",
            actions: [
                (
                    .init("Sign out", isDestructive: true),
                    Reauth.verifyThen(SignOutSessionFlow(id: session.id, deviceName: name), context)
                ),
                (.init("Cancel"), []),
            ])
    }

    /// "Sign out all other devices": confirmed here, then "Verify it's you" (inside its window, at once).
    static func confirmSignOutOthers(_ context: ScreenContext) -> Sheet {
        Sheet(
            title: "Sign out all other devices?",
            body: "Every device but this one will be signed out at once. You'll verify it's you first.",
            actions: [
                (.init("Sign out all", isDestructive: true), Reauth.verifyThen(SignOutOthersFlow(), context)),
                (.init("Cancel"), []),
            ])
    }

    static var sessionsGallery: [GalleryEntry] {
        [
            GalleryEntry("sessions:sign-out-one", "Enter on another device: sign it out?") { now in
                var state = SampleData.state([ActiveSessionsScreen.sample(now: now, selection: 1)], now: now)
                state.overlay = .sheet(
                    .signOutSession(ActiveSessionsScreen.sampleSessions(now: now)[1], state.context))
                return state
            },
            GalleryEntry("sessions:sign-out-others", "Sign out all other devices: confirm, then verify") { now in
                var state = SampleData.state([ActiveSessionsScreen.sample(now: now, selection: 5)], now: now)
                state.overlay = .sheet(.confirmSignOutOthers(state.context))
                return state
            },
            GalleryEntry("reauth-picker:sign-out-others", "Verify it's you before signing the others out") {
                SampleData.state(
                    [ActiveSessionsScreen.sample(now: $0), ReauthPickerScreen(flow: .signOutOthers)], now: $0)
            },
        ]
    }
}

import AccessAPI
import Foundation

/// How a gallery state is reached for real (issue 51 item 4): the backend calls a person's walk there makes, in
/// order, and the screens that walk leaves on the stack, built from the backend's answers. `accessdeck --start-at`,
/// `play --start-at` and a tape's `start-at` line take it, so the state on screen is the backend's own (the code
/// is in the outbox, its countdown is the backend's), never a sample's. Each road sits beside its gallery state.
public struct Road: Sendable {
    /// The calls, as the journal lists them ("POST /auth/phone/request-otp"), for the list of states to start at;
    /// a third word is the status the call is answered with when it is not a 2xx ("… 409").
    public let calls: [String]
    /// Walked as the scenario's user (signed in), or from Welcome by a scenario that starts signed out.
    public let signedIn: Bool
    let walk: @Sendable (APIContext) async throws -> Arrival

    init(
        _ calls: [String], signedIn: Bool = true, walk: @escaping @Sendable (APIContext) async throws -> Arrival
    ) {
        self.calls = calls
        self.signedIn = signedIn
        self.walk = walk
    }

    /// This road, then `more` calls from where it ends.
    func then(_ more: [String], walk next: @escaping @Sendable (APIContext, Arrival) async throws -> Arrival) -> Road {
        let first = walk
        return Road(calls + more, signedIn: signedIn) { api in try await next(api, try await first(api)) }
    }
}

/// Where a road ends: the stack, root first; the methods it read; the "Verify it's you" window it opened; the
/// answers to the code screen on top that the walk's last calls got, fed to it as its own calls' answers are.
public struct Arrival: Equatable, Sendable {
    var stack: [AnyScreen]
    var methods: AuthMethods?
    var grant: ReauthGrant?
    var codeReplies: [EnterCodeScreen.Reply] = []

    init(_ stack: [any ScreenModel], methods: AuthMethods?, grant: ReauthGrant? = nil) {
        self.stack = stack.map { AnyScreen($0) }
        self.methods = methods
        self.grant = grant
    }

    /// The same, with `screen` pushed on top.
    func pushing(_ screen: any ScreenModel, grant: ReauthGrant? = nil) -> Arrival {
        var next = self
        next.stack.append(AnyScreen(screen))
        if let grant { next.grant = grant }
        return next
    }
}

/// `--start-at SCREEN[:STATE]`: the road's calls, performed by the app's own runner (so F3 and the backend's
/// journal list them), then the stack it ends on.
public struct StartAt: APIRequest {
    /// A gallery id with a road (`StartAt.resolve`).
    public let id: String

    public func perform(_ api: APIContext) async throws -> Arrival {
        guard let road = Gallery.entry(id)?.road else {
            throw APIError.server(status: 0, code: "no_road", message: "\(id) cannot be started at.")
        }
        guard await api.client.isSignedIn == road.signedIn else {
            throw APIError.server(
                status: 0, code: road.signedIn ? "signed_out" : "signed_in",
                message: road.signedIn
                    ? "\(id) is reached signed in, and this scenario starts signed out."
                    : "\(id) is reached signed out, and this scenario starts signed in (new-user starts signed out).")
        }
        return try await road.walk(api)
    }

    /// From now until the walk has landed (or was refused), keys wait for the screen it stands on: typed on the
    /// screen it replaces, they would open and fetch what the walk throws away. The app's start calls this on its
    /// first state, before the backend is up; `.startAt` calls it for a tape.
    public static func holdKeys(in state: inout AppState) {
        if state.heldForWalk == nil { state.heldForWalk = [] }
    }

    /// The walk is over: the held keys act, in order, where the app now stands.
    static func releaseKeys(in state: inout AppState) -> [Effect] {
        let held = state.heldForWalk ?? []
        state.heldForWalk = nil
        return held.flatMap { reduce(&state, .input($0)) }
    }

    /// Every gallery state with a road, in the gallery's order.
    public static var startable: [GalleryEntry] { Gallery.entries.filter { $0.road != nil } }

    /// The gallery id `--start-at` names: "SCREEN:STATE" with a road, or "SCREEN" alone for its default state
    /// when that has one, else its first state that has one. A name that is none of these is an error that lists
    /// the ones that can be started at.
    public static func resolve(_ name: String) -> Result<String, StartAtProblem> {
        let all = Gallery.entries
        if let exact = all.first(where: { $0.id == name }) {
            return exact.road != nil ? .success(exact.id) : .failure(StartAtProblem(name: name, known: true))
        }
        let states = all.filter { $0.screen == Substring(name) }
        let preferred = Gallery.defaultState(of: name).map { "\(name):\($0)" }
        if let road = states.first(where: { $0.id == preferred && $0.road != nil })
            ?? states.first(where: {
                $0.road != nil
            })
        {
            return .success(road.id)
        }
        return .failure(StartAtProblem(name: name, known: !states.isEmpty))
    }

    /// Why the app does not stand on `id`'s screen after its road (the toast that said so); nil when it does.
    public static func missed(_ id: String, on state: AppState) -> String? {
        guard let screen = Gallery.entry(id)?.screen, state.top.base.id != screen else { return nil }
        return state.toast?.message ?? "start-at \(id): the app stands on \(state.top.base.id)"
    }

    /// What the app says when a road could not be walked: the backend's reason.
    static func notStartedText(_ id: String, _ failure: APIError) -> String {
        "Not started at \(id): \(failure.message)"
    }
}

/// An unknown screen, or one no road reaches: says which can be started at.
public struct StartAtProblem: Error, Equatable, CustomStringConvertible {
    public var name: String
    /// The gallery has it, but no road reaches it.
    public var known: Bool

    public var description: String {
        let what = known ? "no backend calls are known to reach '\(name)'" : "no screen or state '\(name)'"
        return "\(what); --start-at takes one of: \(StartAt.startable.map(\.id).joined(separator: ", "))"
    }
}

/// The roads several states share, each the calls the app's own screens make on the way.
enum Roads {
    /// Settings, then Account access: what the hub shows is `GET /me/auth-methods`.
    static let hub = Road(["GET /me/auth-methods"]) { api in
        let methods = try await api.client.authMethods(cache: api.cache, now: api.now)
        return Arrival([SettingsScreen(), HubScreen()], methods: methods)
    }

    /// The hub, then Phone number's "Verify it's you", passed by Continue with Google (or Apple) as the picker's
    /// sheet passes it: the reference backend's simulated provider mints the id token, the app sends it. Not by a
    /// texted code: the phone being changed cannot verify its own change (`reauth.grant_by_target`), and a
    /// password is the scenario's secret, not the app's.
    static let verifiedForNewPhone = hub.then(
        ["POST /_admin/provider/{provider}/token", "POST /auth/reauth/social"]
    ) { api, hub in
        guard let methods = hub.methods, let phone = methods.phone else {
            throw APIError.server(
                status: 0, code: "no_phone", message: "the scenario's user has no phone number to change.")
        }
        guard let provider: SocialProvider = methods.googleLinked ? .google : methods.appleLinked ? .apple : nil else {
            throw APIError.server(
                status: 0, code: "no_provider",
                message: "the scenario's user has no Google or Apple sign-in to verify it's you with.")
        }
        let grant = try await ReauthBySocial(provider: provider).perform(api)
        return hub.pushing(EnterPhoneScreen(flow: .changePhone, current: phone), grant: grant)
    }
}

/// The taken-number error: the hub's "Verify it's you", then Send code for a number the backend says belongs to
/// another account; the walk ends on the phone screen as the 409 leaves it. A number that is free here is no road.
struct SendCodeToATakenNumber: APIRequest {
    let verified: Arrival

    func perform(_ api: APIContext) async throws -> Arrival {
        let phone = PhoneGallery.newPhone
        do {
            _ = try await Endpoint.RequestOtp(
                phone: phone, purpose: .changePhone, reauthToken: verified.grant?.reauthToken
            ).perform(api)
        } catch APIError.taken {
            var arrived = verified
            arrived.stack.removeLast()
            return arrived.pushing(
                EnterPhoneScreen(
                    flow: .changePhone, current: verified.methods?.phone, number: PhoneGallery.newNational,
                    error: EnterPhoneScreen.takenText))
        }
        throw APIError.server(
            status: 0, code: "not_taken",
            message:
                "\(phone) belongs to nobody else in this scenario, and a code was sent (taken-number has it taken).")
    }
}

/// A wrong sign-in code: Continue with phone sends one (signed out), the right one is read from the outbox, and
/// a code that differs in every digit is sent to the verify route, as the code screen sends one.
struct SendAWrongSignInCode: APIRequest {
    let phone: String
    /// `phone` as typed on the Georgian sign-in screen.
    let national: String

    func perform(_ api: APIContext) async throws -> Arrival {
        let challenge = try await Endpoint.StartSignInCode(channel: .phone, phone: phone).perform(api)
        guard let right = try await api.client.newestLiveCode(to: phone) else {
            throw APIError.server(status: 0, code: "no_code", message: "the outbox has no live code to \(phone).")
        }
        let wrong = ExhaustCode.wrong(right)
        let answer: EnterCodeScreen.Reply
        do {
            let verify = VerifySignInCode(challengeId: challenge.challengeId, code: wrong, displayName: nil)
            answer = .verifySignIn(.success(try await verify.perform(api)))
        } catch let failure as APIError {
            answer = .verifySignIn(.failure(failure))
        }
        let sent = EnterCodeScreen(signIn: challenge, channel: .phone)
        let typed = EnterCodeScreen(
            step: sent.step, expiresAt: sent.expiresAt, resendAfter: sent.resendAfter, digits: wrong)
        var arrival = Arrival(
            [WelcomeScreen(), SignInScreen(), EnterPhoneScreen.signIn(region: "GE", number: national), typed],
            methods: nil)
        arrival.codeReplies = [answer]
        return arrival
    }
}

extension AccountClient {
    /// The newest code sent to `recipient` that still works (`GET /_admin/outbox`); nil when there is none. What a
    /// tape's `code` step types, and what the roads and presets read, as QA reads it in the outbox.
    public func newestLiveCode(to recipient: String) async throws -> String? {
        try await adminOutbox()
            .filter { $0.to == recipient && $0.status == .live && $0.code != nil }
            .max { $0.id < $1.id }?.code
    }
}

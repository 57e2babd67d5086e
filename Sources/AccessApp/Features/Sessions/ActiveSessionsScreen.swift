import AccessAPI
import AccessCore
import Foundation
import TerminalKit

/// Active sessions (issue 30), from the hub's row: every device signed in to the account, this one first
/// and marked, then the others newest first, each with its system, how it signed in and when it was last
/// active on the app's clock. Enter on another device signs it out (a sheet, then "Verify it's you"); this
/// device's own is Log out. "Sign out all other devices" goes through "Verify it's you" too. Offline, the
/// list last loaded stays, read only, from the app's offline cache when this screen has none yet.
public struct ActiveSessionsScreen: ScreenModel {
    /// The list as last loaded; nil until the first answer.
    public var sessions: [ActiveSession]?
    public var selection: Int
    public var isLoading: Bool
    /// Why the last call failed (a load, a sign-out).
    public var error: String?
    /// A 429's wait: sign-outs are off until then.
    public var limitedUntil: Date?

    public init(
        sessions: [ActiveSession]? = nil, selection: Int = 0, isLoading: Bool = true, error: String? = nil,
        limitedUntil: Date? = nil
    ) {
        self.sessions = sessions
        self.selection = selection
        self.isLoading = isLoading
        self.error = error
        self.limitedUntil = limitedUntil
    }

    static let verifyAgainText = "Verify it's you again to sign out."

    public var id: String { "sessions" }
    public func showsSavedData(_ context: ScreenContext) -> Bool { sessions != nil }

    public enum Intent: Sendable { case up, down, open, reload }
    public enum Reply: Equatable, Sendable {
        case loaded(Result<[ActiveSession], APIError>)
        /// The session with this id was signed out.
        case signedOut(String, Result<Acknowledged, APIError>)
        case othersSignedOut(Result<SessionsSignedOut, APIError>)
    }

    /// The other devices: what Enter and "Sign out all" act on.
    var others: [ActiveSession] { (sessions ?? []).filter { !$0.isCurrent } }

    /// The rows Enter moves through: every session, then "Sign out all other devices" when there are others.
    var rowCount: Int { (sessions?.count ?? 0) + (others.isEmpty ? 0 : 1) }

    public func bindings(_ context: ScreenContext) -> [KeyBinding<Intent>] {
        let reload = KeyBinding([.character("r")], "Reload", Intent.reload)
        guard rowCount > 0 else { return [reload] }
        return [.move(up: .up, down: .down), .open("Open", .open), reload]
    }

    public func onAppear(_ context: ScreenContext) -> [Command] { [.call(LoadSessions(), Reply.loaded)] }

    public var needsClock: Bool { limitedUntil != nil }

    public mutating func tick(_ context: ScreenContext) -> [Command] {
        limitedUntil = RateLimit.lasting(limitedUntil, at: context.now)
        return []
    }

    public func banner(_ context: ScreenContext) -> Banner? {
        RateLimit.banner(until: limitedUntil, kind: nil, at: context.now)
    }

    public mutating func perform(_ intent: Intent, _ context: ScreenContext) -> [Command] {
        switch intent {
        case .reload:
            isLoading = true
            return [.call(LoadSessions(), Reply.loaded)]
        case .up:
            selection = max(0, selection - 1)
        case .down:
            selection = min(max(0, rowCount - 1), selection + 1)
        case .open:
            return open(context)
        }
        return []
    }

    private func open(_ context: ScreenContext) -> [Command] {
        guard let sessions, rowCount > 0 else { return [] }
        if context.isOffline { return [.showToast("You're offline. Signing out is off until you reconnect.")] }
        if RateLimit.lasting(limitedUntil, at: context.now) != nil {
            return [.showToast("Too many attempts. Wait for the countdown to end.")]
        }
        guard sessions.indices.contains(selection) else { return [.showSheet(.confirmSignOutOthers(context))] }
        let session = sessions[selection]
        if session.isCurrent { return [.showToast(Self.thisDeviceText)] }
        return [.showSheet(.signOutSession(session, context))]
    }

    static let thisDeviceText = "This is the device you're using. To sign it out, log out in Settings."

    /// "Verify it's you" is settled: the list sends the call with the grant it now has.
    public enum Verified: Equatable, Sendable {
        /// For signing out the session with this id.
        case signOutSession(id: String)
        /// For signing out every other device.
        case signOutOthers
    }

    public mutating func receiveChoice(_ verified: Verified, _ context: ScreenContext) -> [Command] {
        isLoading = true
        switch verified {
        case .signOutSession(let id):
            return [
                .call(Endpoint.SignOutSession(id: id, reauthToken: context.reauth?.reauthToken)) {
                    Reply.signedOut(id, $0)
                }
            ]
        case .signOutOthers:
            return [
                .call(Endpoint.SignOutOtherSessions(reauthToken: context.reauth?.reauthToken), Reply.othersSignedOut)
            ]
        }
    }

    public mutating func receive(_ reply: Reply, _ context: ScreenContext) -> [Command] {
        isLoading = false
        switch reply {
        case .loaded(.success(let list)):
            error = nil
            sessions = list
            selection = min(selection, max(0, rowCount - 1))
            return [.setSessions(list)]
        case .signedOut(let id, .success):
            error = nil
            let name = sessions?.first { $0.id == id }.map(Self.deviceName) ?? "The device"
            isLoading = true
            return [.showToast("\(name) was signed out."), .call(LoadSessions(), Reply.loaded)]
        case .othersSignedOut(.success(let answer)):
            error = nil
            isLoading = true
            let count = answer.signedOut
            let devices = count == 1 ? "1 other device" : "\(count) other devices"
            return [.showToast("Signed out \(devices)."), .call(LoadSessions(), Reply.loaded)]
        // The grant was refused (its window closed, or an email change replaced the session that earned it):
        // "Verify it's you" again, for the same sign-out. The app has forgotten the grant already.
        case .signedOut(let id, .failure(.reauthRequired)):
            let name = sessions?.first { $0.id == id }.map(Self.deviceName) ?? "the device"
            return [
                .push(ReauthPickerScreen(flow: AnyFlow(SignOutSessionFlow(id: id, deviceName: name)))),
                .showToast(Self.verifyAgainText),
            ]
        case .othersSignedOut(.failure(.reauthRequired)):
            return [.push(ReauthPickerScreen(flow: .signOutOthers)), .showToast(Self.verifyAgainText)]
        case .loaded(.failure(let failure)), .signedOut(_, .failure(let failure)),
            .othersSignedOut(.failure(let failure)):
            return fail(failure, context)
        }
    }

    private mutating func fail(_ failure: APIError, _ context: ScreenContext) -> [Command] {
        switch failure {
        case .offline:
            // Opened offline (after a restart too): the list last loaded, from the app's offline cache.
            if sessions == nil { sessions = context.sessions }
            error = sessions == nil ? OnScreenMessage.offlineNothingSaved.text : nil
        case .rateLimited(let retryAfter?, _, _):
            // The banner counts the wait down; "Try again later" under it said the opposite (issue 48).
            limitedUntil = context.now.addingTimeInterval(TimeInterval(retryAfter))
            error = nil
        case .server(404, _, _):
            // Signed out already, from elsewhere: the list says how things stand now.
            error = "That device was already signed out."
            isLoading = true
            return [.call(LoadSessions(), Reply.loaded)]
        default:
            error = failure.message
        }
        return []
    }

    // MARK: - View

    public func view(into canvas: inout Canvas, _ context: ScreenContext) {
        canvas.title("Active sessions", subtitle: "Where you're signed in")
        guard let sessions else {
            if let error {
                canvas.paragraph(error, style: .danger)
            } else {
                canvas.skeleton(rows: 3, spacing: 0)
            }
            return
        }
        let off = context.isOffline || RateLimit.lasting(limitedUntil, at: context.now) != nil
        for (index, session) in sessions.enumerated() {
            canvas.row(
                ListRow(
                    Self.title(session), detail: Self.detail(session, now: context.now),
                    control: Self.control(session), isSelected: index == selection,
                    isDisabled: off && !session.isCurrent),
                spacing: session.isCurrent && sessions.count > 1 ? 1 : 0)
        }
        if others.isEmpty {
            canvas.skip(1)
            // Once, with no device at all as with only this one (issue 48: the empty list said it twice).
            canvas.paragraph(OnScreenMessage.noOtherDevices.text, style: .muted)
        } else {
            canvas.skip(1)
            canvas.row(
                ListRow(
                    "Sign out all other devices", control: .none, isSelected: selection == sessions.count,
                    isDisabled: off, isDestructive: true))
        }
        if let error { canvas.paragraph(error, style: .danger) }
    }

    /// A session with no device named (the QA shortcut's, the app's own in a scenario) is called what it is.
    static func deviceName(_ session: ActiveSession) -> String {
        session.device?.deviceName ?? (session.isCurrent ? "This device" : "Unknown device")
    }

    static func title(_ session: ActiveSession) -> String { deviceName(session) }

    /// This device is marked, once: a session with no device named is already called "This device".
    static func control(_ session: ActiveSession) -> ListRow.Control {
        guard session.isCurrent else { return .chevron }
        return session.device == nil ? .none : .badge("This device")
    }

    /// "iOS 18.1 · Phone code · active 5 min ago", on the app's clock.
    static func detail(_ session: ActiveSession, now: Date) -> String {
        var parts: [String] = []
        if let device = session.device { parts.append("\(device.systemName) \(device.systemVersion)") }
        if let method = session.method { parts.append(methodName(method)) }
        parts.append(session.isCurrent ? "active now" : activeAgo(session.lastSeenAt, now: now))
        return parts.joined(separator: " · ")
    }

    static func methodName(_ method: SessionMethod) -> String {
        switch method {
        case .phoneCode: "Phone code"
        case .emailCode: "Email code"
        case .password: "Password"
        case .apple: "Apple"
        case .google: "Google"
        case .recovery: "Account recovery"
        case .passkey: "Passkey"
        }
    }

    /// "active now" under a minute, then minutes, hours and days.
    static func activeAgo(_ lastSeen: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(lastSeen)))
        switch seconds {
        case ..<60: return "active now"
        case ..<3600: return "active \(seconds / 60) min ago"
        case ..<86400: return "active \(seconds / 3600) h ago"
        default:
            let days = seconds / 86400
            return "active \(days) day\(days == 1 ? "" : "s") ago"
        }
    }
}

import AccessAPI
import AccessCore
import TerminalKit

/// The phone flows: change the number (after "Verify it's you") or add one (seeds 000/001), and
/// verify one again after a recovery by email (seed 003).
enum PhoneFeature: Feature {
    static let screens: [any ScreenModel.Type] = [
        EnterPhoneScreen.self, CountryPickerScreen.self, EnterCodeScreen.self,
    ]
    static var sheetGallery: [GalleryEntry] { Sheet.phoneGallery }
}

/// Which phone flow a screen belongs to.
public enum PhoneFlow: String, SensitiveFlow {
    case changePhone = "change_phone"
    case addPhone = "add_phone"
    /// A session with limited access proves a phone, its old number or a new one: no re-auth first.
    case reverifyPhone = "reverify_phone"

    public var target: ReauthMethod? { .phone }

    public var pickerExplanation: String {
        "To change your phone number, confirm with one of your active sign-in methods."
    }

    var purpose: OTPPurpose {
        switch self {
        case .changePhone: .changePhone
        case .addPhone: .addPhone
        case .reverifyPhone: .reverifyPhone
        }
    }

    /// How the flow begins from the hub: the last-method warning, "Verify it's you", or the
    /// number screen itself (adding a method needs no verification, seed 000).
    static func begin(_ flow: PhoneFlow, _ context: ScreenContext) -> [Command] {
        guard let methods = context.methods else { return [] }
        if flow == .changePhone, methods.sessionSuffices(for: flow.target) { return [.showSheet(.lastMethod(flow))] }
        if flow == .addPhone { return [.continueFlow(flow)] }
        return Reauth.verifyThen(flow, context)
    }

    public func start(_ context: ScreenContext) -> [Command] {
        // Offered from Settings and from the hub's sheet: the number screen opens where the person is.
        if self == .reverifyPhone { return [.push(EnterPhoneScreen(flow: self, current: context.methods?.phone))] }
        return [
            .popTo(HubScreen.self),
            .push(EnterPhoneScreen(flow: self, current: self == .addPhone ? nil : context.methods?.phone)),
        ]
    }
}

extension AnyFlow {
    public static let changePhone = AnyFlow(PhoneFlow.changePhone)
}

/// The new number's code was refused with `reauth_required` (the window closed while it was being
/// typed): once verified again, the code screen sends the same code.
public struct ResumeCodeEntry: SensitiveFlow {
    public var phoneFlow: PhoneFlow

    public var target: ReauthMethod? { phoneFlow.target }

    public var pickerExplanation: String {
        "Your verification timed out. Confirm it's you again to finish with your new number."
    }

    public func start(_ context: ScreenContext) -> [Command] {
        [.returnTo(EnterCodeScreen.self, with: self)]
    }
}

// MARK: - Requests

struct RequestPhoneOTP: APIRequest {
    var phone: String
    var purpose: OTPPurpose
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> OTPRequestAccepted {
        try await api.client.requestPhoneOTP(phone: phone, purpose: purpose, reauthToken: reauthToken)
    }
}

struct ResendPhoneOTP: APIRequest {
    var requestId: String
    func perform(_ api: APIContext) async throws -> OTPRequestAccepted {
        try await api.client.resendPhoneOTP(requestId: requestId)
    }
}

/// Back from the code screen cancels the request server-side (seed 000).
struct CancelPhoneOTP: APIRequest {
    var requestId: String
    func perform(_ api: APIContext) async throws -> Acknowledged {
        _ = try await api.client.cancelPhoneOTP(requestId: requestId)
        return Acknowledged()
    }
}

struct VerifyPhoneOTP: APIRequest {
    var requestId: String
    var code: String
    var reauthToken: String?
    func perform(_ api: APIContext) async throws -> VerifyOTPResult {
        try await api.client.verifyPhoneOTP(requestId: requestId, code: code, reauthToken: reauthToken)
    }
}

/// A country picked in the country picker, handed down to the phone screen that pushed it.
public struct CountryChoice: Equatable, Sendable {
    /// ISO 3166 alpha-2.
    public var iso: String
    public init(iso: String) { self.iso = iso }
}

// MARK: - Sheets

extension Sheet {
    /// Soft warning: changing the only sign-in method (seed 000), no re-auth.
    public static func lastMethod(_ flow: PhoneFlow) -> Sheet {
        Sheet(
            title: "This is your only sign-in method",
            body:
                "Changing your phone number without a backup means if something goes wrong — wrong code, lost SIM — you could lose access. We recommend adding another method first.",
            actions: [
                (.init("Change number anyway", isDestructive: true), [.continueFlow(flow)]),
                (.init("Cancel"), []),
            ])
    }

    public static func phoneUpdated(_ phone: String) -> Sheet {
        Sheet(title: "Phone updated", body: "Your new number is \(phone).", actions: [(.init("Done"), [])])
    }

    static var phoneGallery: [GalleryEntry] {
        [
            GalleryEntry("hub:last-method", "Soft warning before changing the only method") { now in
                var state = SampleData.state([], methods: SampleData.phoneOnly, now: now)
                state.overlay = .sheet(.lastMethod(.changePhone))
                return state
            },
            GalleryEntry("hub:phone-updated", "The new number is saved") { now in
                var methods = SampleData.everyMethod
                methods.phone = PhoneGallery.newPhone
                var state = SampleData.state([], methods: methods, now: now)
                state.overlay = .sheet(.phoneUpdated("+995 511 200 300"))
                return state
            },
        ]
    }
}
